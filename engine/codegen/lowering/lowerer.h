// The target-independent visitor that turns one typed function (AST plus the
// ExprInfo side table) into an LLVM function. Feature files under lowering/
// (arith, compare, arrays, atomics, warp, ...) implement intrinsic keys on top
// of the helpers declared here; target differences go through TargetHooks.
//
// Value representation: every ir::Type maps to one LLVM type (bool i1 in
// registers, i8 in memory; arrays {ptr, [n x i64] shape, [n x i64] strides};
// tuples literal structs), so locals of any type are one alloca and
// mem2reg/SROA turn them into SSA.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/target_hooks.h"
#include "frontend/ast.h"
#include "sema/typed_function.h"

namespace cuhost::codegen {

// The register type of an ir::Type (bool i1; arrays and tuples as structs).
llvm::Type* llvm_type_of(llvm::LLVMContext& c, const ir::Type* t);
// The in-memory type of an ir::Type: bool i8, a record its bytes, else llvm_type_of.
llvm::Type* llvm_memory_type_of(llvm::LLVMContext& c, const ir::Type* t);
// The LLVM type of an extension type's values: its data model (lowering/extension.cpp).
llvm::Type* extension_llvm_type(llvm::LLVMContext& c, const ir::Type* t);
// True for none/void return types (the function returns void).
inline bool is_void_type(const ir::Type* t) {
  return !t || t->kind == ir::TypeKind::Void || t->kind == ir::TypeKind::NoneType;
}

struct Val {
  llvm::Value* v = nullptr;
  const ir::Type* t = nullptr;
};

class DebugInfo;

// Status codes of the internal numba ABI (lowering/status.cpp); a foreign
// function's error codes propagate unchanged.
constexpr int kStatusOk = 0;
constexpr int kStatusNone = 1;  // an OptionalType holding None was used where a value is needed

struct LoweringOptions {
  bool debug = false;         // bounds checks, division-by-zero reports
  bool bounds_check = false;  // CPU: bounds checks without debug
  bool fastmath = false;
  unsigned fastmath_flags = 0;  // model::FastMathFlag bits when fastmath is a set of flags
  std::string kernel_name;      // for error reports
  int cc = 0;                   // GPU: the target's compute capability (major * 10 + minor); 0 on the CPU
  // Functions called on the host (numba.njit, codegen/host_entry.h): every
  // raise (and a tuple index out of range) is reported, as numba's CPU
  // target raises it, and with numba's Python error model zero divisors are
  // checked too.
  bool report_raises = false;
  bool python_error_model = false;
  // CUDA_ENABLE_NRT: arrays carry a meminfo and are reference counted (lowering/nrt.h).
  bool nrt = false;
  // What debug=True turns on in kernels and the host's error models ask for.
  bool reports_raises() const { return debug || report_raises; }
  bool checks_divisors() const { return debug || python_error_model; }
};

// State shared by every function of one module.
struct ModuleState {
  llvm::Module* module = nullptr;
  TargetHooks* hooks = nullptr;
  LoweringOptions options;
  std::map<const sema::TypedFunction*, llvm::Function*> functions;
  std::vector<std::shared_ptr<const sema::TypedFunction>> pending;  // declared, body not yet lowered
  std::vector<std::shared_ptr<const sema::TypedFunction>> keep_alive;
  std::int64_t static_shared_bytes = 0;  // CPU layout of static shared arrays
  // The largest `alignment=` of a dynamic shared array: on the CPU the
  // dynamic region starts after the static arrays, rounded up to this.
  std::int64_t dynamic_shared_align = 16;
  // GPU: bytes a dynamic shared array may skip to reach an alignment above
  // the 16 bytes the driver gives the window (the launch adds them).
  std::int64_t dynamic_shared_padding = 0;
  std::map<std::string, llvm::Function*> foreign_decls;
  // Functions linked from extension-API IR, by IR text: (function, takes the context arguments).
  std::map<std::string, std::pair<llvm::Function*, bool>> extension_functions;
  std::vector<std::shared_ptr<const ir::ForeignFunction>> foreign_used;
  DebugInfo* debug_info = nullptr;  // lineinfo: line tables (codegen/debug_info.h), else null

  // The LLVM function of a jitted callee (declared on first use; its body is lowered later).
  llvm::Function* function_for(const std::shared_ptr<const sema::TypedFunction>& tf);
};

class Lowerer {
 public:
  Lowerer(ModuleState& state, const sema::TypedFunction& tf, llvm::Function* fn, bool is_kernel_body);

  // Lowers the whole body: parameters (slots for kernels, natural values
  // otherwise) into locals, then statements.
  void lower_body();

  // --- accessors for feature files ---
  llvm::LLVMContext& ctx() { return state_.module->getContext(); }
  llvm::Module& module() { return *state_.module; }
  llvm::IRBuilder<>& b() { return builder_; }
  TargetHooks& hooks() { return *state_.hooks; }
  ModuleState& state() { return state_; }
  const LoweringOptions& options() const { return state_.options; }
  const sema::TypedFunction& typed() const { return tf_; }
  llvm::Function* function() { return fn_; }
  const sema::ExprInfo& info(const ast::Expr* e) const { return tf_.info(e); }
  bool checks_enabled() const { return state_.options.debug || state_.options.bounds_check; }
  // The trailing context arguments (CPU: ctx, tid.x, tid.y, tid.z).
  const std::vector<llvm::Value*>& context_args() const { return context_args_; }

  // --- types ---
  llvm::Type* llvm_type(const ir::Type* t);                     // register type (bool i1)
  llvm::Type* memory_type(const ir::Type* t);                   // in-memory type (bool i8)
  llvm::Value* to_memory(llvm::Value* v, const ir::Type* t);    // i1 -> i8
  llvm::Value* from_memory(llvm::Value* v, const ir::Type* t);  // i8 -> i1

  // --- values ---
  Val expr(const ast::Expr* e);                        // evaluates e
  Val expr_as(const ast::Expr* e, const ir::Type* t);  // evaluates and converts
  Val convert(Val v, const ir::Type* to);              // numba's cast rules
  llvm::Value* truth(Val v);                           // i1 truthiness
  Val constant(const ir::ConstValue& c, const ir::Type* t);
  llvm::Value* i64(std::int64_t v) { return builder_.getInt64(v); }
  llvm::Value* i32(std::int32_t v) { return builder_.getInt32(v); }

  // An alloca in the entry block.
  llvm::AllocaInst* entry_alloca(llvm::Type* t, const std::string& name, llvm::Value* count = nullptr);

  // Ends the current thread (function) after a failed check and continues
  // emitting in a fresh block.
  void emit_return_default();

  // A runtime check: when `failed` (i1) holds, `report` emits the failure
  // report (through the target's error hooks) and the function returns a
  // zero value (in a kernel, the thread ends); emitting continues on the
  // path where the check passed. The failing branch is marked unlikely.
  void fail_if(llvm::Value* failed, const std::function<void()>& report);

  // --- status channel (lowering/status.cpp) ---
  // Whether this function returns an i32 status and writes its result
  // through its first parameter (TypedFunction::raises).
  bool has_status() const { return !is_kernel_body_ && tf_.raises; }
  // Ends the current function with error `code` (i32): a kernel returns (the
  // thread ends), a function with a status channel returns the code, any
  // other function returns a zero value. With debug=True the failure at
  // `site` is reported first (none: it was reported where it was raised).
  // Continues emitting in a fresh block.
  void raise_error(llvm::Value* code, const KernelErrorSite* site);
  // Returns `v` (of the return type; null for none/void) from the function.
  void emit_return(llvm::Value* v);
  // Calls a jitted device function with converted arguments (context
  // arguments are added) and handles its status by this function's ABI.
  Val call_jitted(const std::shared_ptr<const sema::TypedFunction>& callee, std::vector<llvm::Value*> args,
                  const ir::Type* result_type);
  // Starts a new block named `name` and makes it current.
  llvm::BasicBlock* new_block(const std::string& name);

  // --- NRT references (lowering/nrt.h) ---
  // `v` is a new reference (an allocation, a call's result) that the
  // statement being lowered releases when it ends, unless a variable took
  // its own reference meanwhile. No-op for values without arrays or without NRT.
  void own_temp(Val v);

  // --- arrays (lowering/arrays.cpp) ---
  bool is_readonly_array(const ast::Expr* base) const;
  // After lower_body(): the array named `id` is never stored to, passed on or reassigned.
  bool readonly_param(const std::string& id) const { return !written_names_.count(id); }
  bool is_nonnegative(const ast::Expr* e) const;
  // Address of a[idx...] with wraparound and checks as configured.
  llvm::Value* element_address(const ast::Expr* array_expr, Val array, const ast::Expr* index_expr, Val index);
  std::string array_name(const ast::Expr* e) const;

  // --- statements ---
  void stmt(const ast::Stmt* s);
  void body(const ast::Body& body);
  void assign_to(const ast::Expr* target, Val value);
  llvm::Value* local_slot(const std::string& name);

  SourceLocation where(const ast::SourceLoc& loc) const;
  [[noreturn]] void unsupported(const ast::SourceLoc& loc, const std::string& what) const;

 private:
  void setup_params();
  void analyze();
  void lower_for(const ast::For* s);
  void lower_return(const ast::Return* s);
  void lower_augassign(const ast::AugAssign* s);
  void stmt_kind(const ast::Stmt* s);
  // NRT: releases the statement's new references from index `from` on.
  void release_temps(size_t from);
  // NRT: releases every variable's reference (before a return).
  void release_locals();
  // NRT: whether the slot of local `name` holds references of its own type.
  bool slot_owns_references(const std::string& name);
  void declare_in_debug_info(const std::string& name, llvm::AllocaInst* slot,
                             const std::vector<const ir::Type*>& types);
  llvm::AllocaInst* debug_variable_slot(const std::string& name);
  std::string slot_name(const std::string& name) const;

  ModuleState& state_;
  const sema::TypedFunction& tf_;
  llvm::Function* fn_;
  bool is_kernel_body_;
  llvm::IRBuilder<> builder_;
  llvm::BasicBlock* entry_ = nullptr;
  llvm::Instruction* alloca_point_ = nullptr;
  std::map<std::string, llvm::AllocaInst*> locals_;
  // debug=True: the one slot of each source variable that all its versions
  // ("x", "x.1", ...) share, by the name the user wrote.
  std::map<std::string, llvm::AllocaInst*> debug_slots_;
  std::vector<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>> loops_;  // (continue, break)
  const ast::AugAssign* nsw_increment_ = nullptr;  // of the innermost grid-stride while loop (grid_stride.h)
  std::vector<llvm::Value*> context_args_;
  std::set<std::string> written_names_;  // array names stored to / escaping
  std::set<std::string> zero_at_entry_;  // locals some path may read before assigning (definite_assignment.h)
  std::set<std::string> nonneg_locals_;
  std::vector<Val> temps_;  // NRT: new references of the statements being lowered, innermost last
};

// The LLVM type of the internal function of `tf` (see lowering/status.cpp).
llvm::FunctionType* internal_function_type(llvm::LLVMContext& c, const sema::TypedFunction& tf,
                                           const std::vector<llvm::Type*>& context_types);
// Calls the internal function `callee` of `tf` with `args` (context
// arguments included). With a status channel the result goes through
// `slot` (zeroed first; may be null for none/void results).
struct InternalCall {
  llvm::Value* result = nullptr;  // null for none/void
  llvm::Value* status = nullptr;  // i32; null without a status channel
};
InternalCall call_internal(llvm::IRBuilder<>& b, llvm::Function* callee, const sema::TypedFunction& tf,
                           const std::vector<llvm::Value*>& args, llvm::AllocaInst* slot);

// OptionalType values (lowering/optional.cpp).
llvm::Value* optional_valid(Lowerer& l, Val v);  // i1; true for non-Optional values, false for None
Val optional_payload(Lowerer& l, Val v);
// Any conversion from or to an OptionalType (None to T ends the thread).
Val convert_optional(Lowerer& l, Val v, const ir::Type* to);
// None or an Optional to a plain T with None as a zero T (C-ABI returns).
Val optional_flatten(Lowerer& l, Val v, const ir::Type* to);
// `is` / `is not` where a side is an OptionalType (both converted to it or None).
llvm::Value* optional_is(Lowerer& l, ast::CompareOpKind op, Val a, Val c);

// Intrinsic dispatch: each feature file registers its keys.
using IntrinsicFn = std::function<Val(Lowerer&, const ast::Expr*, const sema::ExprInfo&)>;
void register_intrinsic(const std::string& key, IntrinsicFn fn);
// Lowers an intrinsic node (exact key, or a registered prefix ending in '.').
Val lower_intrinsic(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& info);

// Registration functions of the feature files (called once).
void register_arith(std::map<std::string, IntrinsicFn>& table);
void register_builtins(std::map<std::string, IntrinsicFn>& table);
void register_math(std::map<std::string, IntrinsicFn>& table);
void register_cuda_indexing(std::map<std::string, IntrinsicFn>& table);
void register_atomics(std::map<std::string, IntrinsicFn>& table);
void register_warp(std::map<std::string, IntrinsicFn>& table);
void register_cache_hints(std::map<std::string, IntrinsicFn>& table);
void register_inline_ptx(std::map<std::string, IntrinsicFn>& table);
void register_wmma(std::map<std::string, IntrinsicFn>& table);
void register_mma(std::map<std::string, IntrinsicFn>& table);
void register_clusters(std::map<std::string, IntrinsicFn>& table);
void register_memory(std::map<std::string, IntrinsicFn>& table);
void register_arrays(std::map<std::string, IntrinsicFn>& table);
void register_print(std::map<std::string, IntrinsicFn>& table);
void register_complex(std::map<std::string, IntrinsicFn>& table);
void register_vector_types(std::map<std::string, IntrinsicFn>& table);
void register_named_tuples(std::map<std::string, IntrinsicFn>& table);
void register_half(std::map<std::string, IntrinsicFn>& table);
void register_fp8(std::map<std::string, IntrinsicFn>& table);
void register_extension(std::map<std::string, IntrinsicFn>& table);

// Half precision (lowering/half.cpp). Modes: 'n' nearest even, 'z' toward
// zero, 'd' down, 'u' up.
llvm::Value* bf16_to_float(Lowerer& l, llvm::Value* v);               // bfloat -> float (exact)
llvm::Value* bf16_from_float(Lowerer& l, llvm::Value* v, char mode);  // float or double -> bfloat
Val bf16_convert(Lowerer& l, Val v, const ir::Type* to, char mode);   // either side bfloat16
Val half_int_convert(Lowerer& l, Val v, const ir::Type* to);  // integer <-> float16 (numba-cuda's cvt.rn / cvt.rni)
llvm::Value* float_negate(Lowerer& l, llvm::Value* v);        // -x of any float (bfloat16: sign bit)
llvm::Value* half_abs(Lowerer& l, llvm::Value* v);            // |x| of a float16 (abs.f16 on the GPU) or bfloat16
// a op b of two bfloat16 values with the PTX of numba-cuda's cuda_bf16.hpp
// on sm_90 and newer (add/sub/mul.bf16, division through div.approx.f32);
// null for other targets and operators.
llvm::Value* bf16_binary_sm90(Lowerer& l, ast::BinOpKind op, llvm::Value* a, llvm::Value* b);
// Conversions where either side is fp8 or bfloat16_raw (lowering/fp8.cpp).
Val storage_float_convert(Lowerer& l, Val v, const ir::Type* to);
void register_cooperative(std::map<std::string, IntrinsicFn>& table);
void register_reductions(std::map<std::string, IntrinsicFn>& table);
void register_array_methods(std::map<std::string, IntrinsicFn>& table);
void register_nrt_arrays(std::map<std::string, IntrinsicFn>& table);  // np.empty & co. under NRT (nrt_arrays.cpp)
// Calls body(element address) for every element of the array value `arr`
// (ndim dimensions, byte strides) in C order (lowering/reductions.cpp).
void for_each_element(Lowerer& l, llvm::Value* arr, int ndim, const std::function<void(llvm::Value*)>& body);

// datetime64/timedelta64 (lowering/datetime.cpp): int64 counts, NaT = INT64_MIN.
Val datetime_convert(Lowerer& l, Val v, const ir::Type* to);  // between units of one kind
Val datetime_binary(Lowerer& l, ast::BinOpKind op, Val a, Val c, const ir::Type* result);
llvm::Value* datetime_compare(Lowerer& l, ast::CompareOpKind op, Val a, Val c);
// The alignment of an array element: a scalar's size; a record's widest
// field, a fixed-width string's character (their sizes need not be powers
// of two) (lowering/memory.cpp).
int array_element_alignment(const ir::Type* dtype);
// The alignment of an element access through `container` (an array or a
// pointer): 1 in an unaligned array (a packed record's nested array), whose
// elements may sit at any byte; array_element_alignment otherwise.
int element_access_alignment(const ir::Type* container, const ir::Type* dtype);
// A str/bytes constant as a fixed-width string `to` (lowering/char_seq.cpp).
Val char_seq_from_literal(Lowerer& l, const ir::Type* literal, const ir::Type* to);
// Complex values (lowering/complex.cpp): {F, F} structs.
Val complex_convert(Lowerer& l, Val v, const ir::Type* to);  // number or complex -> complex `to`
llvm::Value* complex_truth(Lowerer& l, Val v);
llvm::Value* complex_constant(Lowerer& l, const ir::Type* t, double re, double im);
Val complex_binary(Lowerer& l, ast::BinOpKind op, Val a, Val c, const ir::Type* result, const ast::SourceLoc& loc);
Val complex_negate(Lowerer& l, Val v);
llvm::Value* complex_compare(Lowerer& l, ast::CompareOpKind op, Val a, Val c);  // == and != only
llvm::Value* complex_abs(Lowerer& l, Val v);                                    // hypot(re, im)
// A cmath.<name>(...) call (lowering/cmath.cpp): CPython's results, special values included.
Val lower_cmath_call(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& info);

// Feature entry points used by the visitor.
Val lower_binop(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& info);
Val binary_op(Lowerer& l, ast::BinOpKind op, Val a, Val b, const ir::Type* result, const ast::SourceLoc& loc);
Val lower_unaryop(Lowerer& l, const ast::UnaryOp* e, const sema::ExprInfo& info);
Val lower_compare(Lowerer& l, const ast::Compare* e, const sema::ExprInfo& info);
llvm::Value* compare_values(Lowerer& l, ast::CompareOpKind op, Val a, Val b);
Val lower_call(Lowerer& l, const ast::Call* e, const sema::ExprInfo& info);
Val lower_subscript(Lowerer& l, const ast::Subscript* e, const sema::ExprInfo& info);
void store_subscript(Lowerer& l, const ast::Subscript* target, Val value);
// Views (lowering/slicing.cpp): a[i] of a 2-d array, a[lo:hi:step], a[i, :], ...
Val lower_array_view(Lowerer& l, const ast::Subscript* e, const sema::ExprInfo& info);
// Item i (0 <= i < shape[0], unchecked) of `for x in arr`: an element or a row view.
Val array_item(Lowerer& l, Val arr, llvm::Value* i);
// a[1:3] = x: fills the view with a scalar.
void store_array_slice(Lowerer& l, const ast::Subscript* target, Val value);
// Tuples (lowering/tuples.cpp).
Val lower_tuple_concat(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& info);
Val lower_tuple_repeat(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& info);
Val lower_tuple_slice(Lowerer& l, const ast::Subscript* e, const sema::ExprInfo& info);
// Element `index` (i64) of a homogeneous tuple; negative indices wrap.
Val tuple_item(Lowerer& l, Val tup, llvm::Value* index, bool may_be_negative);
// `raise` (lowering/exceptions.cpp).
void lower_raise(Lowerer& l, const ast::Raise* r);
// The report site of a raise of the exception class `key` ("exception.<id>"
// or "builtins.<Name>") with first argument `text` at `line` (0: the
// function's line), for numba-cuda's message (support/kernel_error.h).
KernelErrorSite raise_site(Lowerer& l, const std::string& key, const std::string& text, int line = 0);
// The report site of a failed check named after the built-in exception
// `builtin_key` ("builtins.ValueError"): a cuda.KernelError that is also it.
KernelErrorSite check_site(const std::string& builtin_key, const std::string& message);
// The report site of any other failure: a cuda.KernelError; a call from the
// host raises `host_class_key`'s class when given, else RuntimeError.
KernelErrorSite fault_site(const std::string& message, const std::string& host_class_key = "");
// Reports the exception `key` with `text` from a failed check (fail_if's
// report): the launch raises that Python exception, as numba's error model.
void report_exception(Lowerer& l, const std::string& key, const std::string& text, int line = 0);
// AugAssign on a subscript: load, op, store with the index evaluated once.
void augassign_subscript(Lowerer& l, const ast::AugAssign* s);

}  // namespace cuhost::codegen
