// The per-function type inference context shared by the feature typing files
// (sema/typing/*.cpp). Typer walks the AST to a fixed point: every pass
// re-types all expressions with the current local types; assignments unify
// into the locals; the pass that changes nothing is the result.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/captured.h"
#include "sema/numeric.h"
#include "sema/typed_function.h"

namespace cuhost::sema {

// Thrown (internally) when an expression reads a local whose type is not
// known yet in this pass; the statement is retried in the next pass.
struct Pending {
  std::string name;
  ast::SourceLoc loc;
  // A recursive call whose callee is still being typed further out (its
  // return type is not known yet): the function being typed, which that
  // callee's typing is waiting on. Null for a local read before assignment.
  const void* waiting_on = nullptr;
};

class Typer {
 public:
  Typer(std::shared_ptr<TypedFunction> out);

  // Runs inference to the fixed point; fills out_->locals, exprs, return_type.
  void run();

  // ---- services for the feature rules --------------------------------------
  const frontend::CapturedFunction& captured() const { return *out_->captured; }
  // Types `e` as the global capture froze under `frozen` ("Color.red" for
  // `Color.red` or `Color["red"]`); nullptr when capture froze no such name.
  const ir::Type* type_frozen_global(const std::string& frozen, const ast::Expr& e, ExprInfo& inf);
  // Whether `name` is a local variable (a parameter or assigned) of the function.
  bool is_local(const std::string& name) const { return locals_.count(name) > 0; }
  // The compile-time shape of a local assigned once from an array made in
  // the kernel (cuda.local/shared.array, const.array_like, a.copy()), or null.
  const std::vector<std::int64_t>* local_shape(const std::string& name) const {
    auto it = shaped_locals_.find(name);
    return it == shaped_locals_.end() ? nullptr : &it->second;
  }
  TypedFunction& out() { return *out_; }
  const std::string& function_name() const { return out_->captured->name; }

  // Types `e` (once per pass) and returns its type (never null; a read of a
  // not-yet-typed local throws Pending).
  const ir::Type* type_of(const ast::Expr* e);
  // Like type_of, but an OptionalType(T) value stays Optional. type_of()
  // unwraps it to T: numba converts an Optional wherever a T is needed (a
  // None there ends the thread). Contexts that keep the Optional: assigned
  // values, returns, `is` operands, device-call arguments, branches of
  // conditional and boolean expressions, conditions.
  const ir::Type* type_of_optional(const ast::Expr* e);
  // Records that this function converts an Optional to its payload (so it
  // can end the thread: see TypedFunction::raises).
  void note_unwrap() { unwraps_ = true; }
  // The ExprInfo of an expression (created on demand).
  ExprInfo& info(const ast::Expr* e) { return out_->exprs[e]; }
  // The compile-time value of a typed expression, if known.
  const std::optional<ir::ConstValue>& constant(const ast::Expr* e) { return info(e).constant; }
  // A literal integer argument (folded constant) or nullopt.
  std::optional<std::int64_t> literal_int(const ast::Expr* e);

  SourceLocation where(const ast::SourceLoc& l) const { return out_->captured->where(l); }
  [[noreturn]] void fail(ErrorKind kind, const ast::SourceLoc& l, const std::string& message) const;
  [[noreturn]] void typing_error(const ast::Expr* e, const std::string& message) const {
    fail(ErrorKind::TypingError, e->loc, message);
  }
  // numba's error for a value whose type cannot be represented (an array of
  // Python objects: `imprecise` is its type as numba spells it), naming the
  // variable `value` is assigned to.
  [[noreturn]] void imprecise_type_error(const ast::Expr* value, const std::string& imprecise) const;

  // Matches a call's positional and keyword arguments to `params`; the first
  // `required` are mandatory. Errors name `fname` ("sin() takes 1 argument
  // (2 given)"). Fills info.ordered_args.
  std::vector<const ast::Expr*> bind(const ast::Call& call, const std::string& fname,
                                     const std::vector<std::string>& params, size_t required, ExprInfo& info);

  // Resolves a dotted key ("math.sin", "cuda.threadIdx.x", "numpy.float32")
  // for the Name/Attribute node `e` into its type and ExprInfo; false when
  // the key names nothing.
  bool resolve_key(const std::string& key, const ast::Expr* e, ExprInfo& info);

  // Marks `e` typed in this pass with type `t` (for rules that type a node
  // outside type_of, such as the enumerate/zip of a for loop).
  void set_typed(const ast::Expr* e, const ir::Type* t) {
    info(e).type = t;
    typed_.insert(e);
  }

  // Records a device callee / foreign callee / feature use.
  void add_callee(std::shared_ptr<const TypedFunction> f);
  void add_foreign(std::shared_ptr<const ir::ForeignFunction> f);
  void use_barriers() { uses_barriers_ = true; }
  void use_warp_ops() { uses_warp_ops_ = true; }
  void use_grid_sync() { uses_grid_sync_ = true; }
  // Recursion (infer.cpp): the function calls itself; its return type so far
  // (TypedFunction::return_type, provisional without a declared one) must
  // reach a fixed point.
  void note_recursion() { recursive_ = true; }
  bool strict() const { return strict_; }
  // The locals some assignment of the last pass gave a type other than the
  // local's own (the unification of all its assignments): numba, which
  // types each version of a variable, may type the function differently
  // (infer.cpp then types its versioned rewriting, frontend/ssa_versions.h).
  const std::set<std::string>& widened() const { return widened_; }

 private:
  void pass();
  void provisional_return();
  void body(const ast::Body& b);
  void stmt(const ast::Stmt& s);
  void guarded(const std::function<void()>& f);
  void assign_to(const ast::Expr* target, const ir::Type* value_type, const ast::SourceLoc& where_loc);
  void assign_local(const std::string& name, const ir::Type* t, const ast::Expr* at);
  void check_truthy(const ast::Expr* e);
  void for_stmt(const ast::For& f);
  const ir::Type* type_expr(const ast::Expr* e, ExprInfo& info);
  const ir::Type* type_name(const ast::Name& n, ExprInfo& info);
  const ir::Type* type_attribute(const ast::Attribute& a, ExprInfo& info);
  const ir::Type* type_global(const frontend::GlobalValue& g, const ast::Expr& e, const std::string& shown,
                              ExprInfo& info);
  const ir::Type* type_call(const ast::Call& c, ExprInfo& info);

  std::shared_ptr<TypedFunction> out_;
  std::map<std::string, const ir::Type*> locals_;
  std::map<std::string, std::vector<std::int64_t>> shaped_locals_;
  // Locals assigned exactly once (parameters count as an assignment): when
  // that value is a compile-time constant, reads fold to it (numba's
  // literal typing: `n = 2; cuda.grid(n)`).
  std::map<std::string, int> assignment_count_;
  std::map<std::string, ir::ConstValue> const_locals_;
  std::set<const ast::Expr*> typed_;          // typed in this pass
  std::set<const ast::Expr*> keep_optional_;  // typed by type_of_optional
  bool unwraps_ = false;
  std::vector<const ir::Type*> returns_;
  std::vector<const ast::Return*> return_stmts_;
  bool changed_ = false;
  bool pending_ = false;
  bool strict_ = false;
  int loop_depth_ = 0;
  bool uses_barriers_ = false;
  bool uses_warp_ops_ = false;
  bool uses_grid_sync_ = false;
  bool recursive_ = false;
  // A call that waits on a function typed further out on this thread
  // (mutual recursion): this function cannot be typed before that one has a
  // provisional return type, so the wait is passed on to the caller.
  std::optional<Pending> outer_pending_;
  std::set<std::string> widened_;
  const ast::Expr* assigned_value_ = nullptr;  // the value of the assignment being typed, if any
  // While an assignment's value is typed: the value and the variable it is
  // assigned to (a single name target), else null.
  const ast::Expr* naming_value_ = nullptr;
  const std::string* naming_target_ = nullptr;
  std::map<std::string, ast::SourceLoc> first_assignment_;  // local -> where it was first given a type
  int provisional_changes_ = 0;
  std::vector<std::shared_ptr<const TypedFunction>> callees_;
  std::vector<std::shared_ptr<const ir::ForeignFunction>> foreign_;
};

// ---- feature rules (sema/typing/*.cpp) ---------------------------------------
// Each returns nullptr when `key` is not its feature, else the call's type.
const ir::Type* type_arith(Typer& t, const ast::BinOp& e, ExprInfo& info);
const ir::Type* type_unary(Typer& t, const ast::UnaryOp& e, ExprInfo& info);
// The operation of an augmented assignment (left type, right expr).
const ir::Type* type_binop_types(Typer& t, ast::BinOpKind op, const ir::Type* l, const ir::Type* r, const ast::Expr* at,
                                 std::vector<const ir::Type*>* operand_types);
const ir::Type* type_compare(Typer& t, const ast::Compare& e, ExprInfo& info);
const ir::Type* type_boolop(Typer& t, const ast::BoolOp& e, ExprInfo& info);
const ir::Type* type_builtin_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_cast_call(Typer& t, const ast::Call& c, const ir::Type* target, const std::string& fname,
                               ExprInfo& info);
const ir::Type* type_math_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// isnan/isinf/isfinite of an argument of type `arg` (math and cmath): a float
// or complex one is tested at run time, an integer one is a constant (numba).
const ir::Type* type_float_class_test(Typer& t, const ast::Call& c, const std::string& name, const ir::Type* arg);
const ir::Type* type_cuda_indexing_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// cuda.ldca & co., cuda.stcg & co. and cuda.nanosleep (typing/cache_hints.cpp).
const ir::Type* type_cache_hint_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// cuda.inline_ptx (typing/inline_ptx.cpp) and the Hopper APIs: cuda.wmma (typing/wmma.cpp).
const ir::Type* type_inline_ptx_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_wmma_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
bool resolve_wmma_key(const std::string& key, ExprInfo& info);
// cuda.mma, the register-fragment tensor-core API (typing/mma.cpp).
const ir::Type* type_mma_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
bool resolve_mma_key(const std::string& key, ExprInfo& info);
// Thread-block clusters (typing/clusters.cpp): cuda.cg.this_cluster() and its methods.
const ir::Type* type_cluster_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
bool resolve_cluster_key(const std::string& key, ExprInfo& info);
const ir::Type* type_atomic_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_warp_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// Half precision (typing/half.cpp): cuda.fp16.*, the bf16 bindings
// ("cuda.bf16.*") and math.* on float16/bfloat16 arguments ("half.math.*").
const ir::Type* type_half_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
bool resolve_half_key(const std::string& key, ExprInfo& info);
// fp8 and bfloat16_raw (typing/fp8.cpp): "cuda.fp8.*" conversions, the
// fp8 type objects, and bfloat16_raw's .x attribute.
const ir::Type* type_fp8_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
bool resolve_fp8_key(const std::string& key, ExprInfo& info);
const ir::Type* type_storage_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info);
const ir::Type* type_array_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_libdevice_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_device_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info);
const ir::Type* type_foreign_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info);
// The value of argument `a` (of type `type`) when numba types it as a Literal
// (an integer, boolean or tuple of those, written as a literal or a name
// bound to one): callees are specialized on it.
std::optional<ir::ConstValue> literal_argument_of(Typer& t, const ast::Expr* a, const ir::Type* type);
// The extension API (typing/extension.cpp, sema/extension_hooks.h): calls of
// extension objects, attributes the extension API provides (nullptr when it
// has none) and calls of its methods.
const ir::Type* type_extension_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info);
const ir::Type* type_extension_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info);
const ir::Type* type_extension_method_call(Typer& t, const ast::Call& c, const ir::Type* method, ExprInfo& info);
const ir::Type* type_ffi_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_print_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// `raise` (typing/exceptions.cpp).
void type_raise(Typer& t, const ast::Raise& r);
// Cooperative groups (typing/cooperative.cpp): cuda.cg.this_grid(), grid.sync().
const ir::Type* type_cg_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
const ir::Type* type_tuple_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// The converted index type of `idx` into array `arr`: int64 for one integer,
// UniTuple(int64 x ndim) for a tuple; errors are prefixed with `what`.
const ir::Type* array_index_type(Typer& t, const ast::Expr* idx, const ir::Type* arr, const std::string& what);
// Subscript loads and array/tuple attributes.
const ir::Type* type_subscript(Typer& t, const ast::Subscript& s, ExprInfo& info, bool store);
// A subscript of `arr` with slices or fewer indices than dimensions: the view
// type (load) or the element type of a scalar fill (store).
const ir::Type* type_array_view(Typer& t, const ast::Subscript& s, const ir::Type* arr, bool store);
// The item of `for x in arr`: the dtype of a 1-d array, else an 'A' view of
// one less dimension (numba's array iterator).
const ir::Type* array_iter_type(const ir::Type* arr);
// Checks an array or tuple stored into a view target ("array.setslice").
void type_slice_source(Typer& t, const ast::Expr* target, const ir::Type* value);
// Tuples (typing/tuples.cpp): `+` of two tuples (nullptr when not that),
// slicing by literal bounds, and the element type of `for x in tup`.
const ir::Type* type_tuple_binop(Typer& t, const ast::BinOp& e, const ir::Type* l, const ir::Type* r);
const ir::Type* type_tuple_slice(Typer& t, const ast::Subscript& s, const ast::Slice& sl, const ir::Type* tup);
const ir::Type* tuple_iter_type(Typer& t, const ast::Expr* iter, const ir::Type* tup);
// Iterators (typing/iterators.cpp): the item type of a for loop's iterable
// (range, array, tuple, or enumerate/zip of those, nested); enumerate/zip
// calls are typed as their item and get that intrinsic key.
const ir::Type* iteration_item_type(Typer& t, const ast::Expr* seq);
bool is_sequence_iterator(const std::string& intrinsic);
const ir::Type* type_value_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info);
// Complex numbers (typing/complex.cpp): `.real` `.imag` `.conjugate` of
// numbers, complex(re[, im]), and the cmath module ("cmath.<f>" keys).
const ir::Type* type_number_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info);
const ir::Type* type_complex_ctor(Typer& t, const ast::Call& c, ExprInfo& info);
const ir::Type* type_complex_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// The cmath attribute `last` (constants and functions); false when unknown.
bool resolve_cmath_key(const std::string& last, ExprInfo& info);
// NumPy ufuncs that also take complex scalars (np.sqrt, np.abs, np.conj, ...):
// resolved as "numpy.<f>" and typed by type_complex_call.
bool resolve_numpy_complex_key(const std::string& last, ExprInfo& info);
// datetime64/timedelta64 operators (typing/datetime.cpp).
const ir::Type* type_datetime_binop(Typer& t, ast::BinOpKind op, const ir::Type* l, const ir::Type* r,
                                    const ast::Expr* at, std::vector<const ir::Type*>* operand_types);
const ir::Type* type_datetime_compare(Typer& t, const ir::Type* l, const ir::Type* r, ast::CompareOpKind op,
                                      const ast::Expr* at);
// A dtype argument (a type object, NumPy dtype class or dtype name); a TypingError naming fname otherwise.
const ir::Type* dtype_arg(Typer& t, const ast::Expr* d, const std::string& fname);
// Whole-array reductions (typing/reductions.cpp): np.sum(a) ... and a.sum() ...
bool resolve_numpy_reduction_key(const std::string& last, ExprInfo& info);
bool is_reduction_method(const std::string& name);
const ir::Type* type_reduction_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// Heap-allocating NumPy constructors under CUDA_ENABLE_NRT (typing/nrt_arrays.cpp).
bool resolve_nrt_numpy_key(const std::string& last, ExprInfo& info);
const ir::Type* type_nrt_array_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// Array methods and attributes (typing/array_methods.cpp): a.view(dtype),
// a.copy(), a.ctypes.data, and the reduction methods' bound forms.
const ir::Type* type_array_method(Typer& t, const ast::Attribute& a, const ir::Type* base);
const ir::Type* type_array_method_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info);
// np.<ufunc>(inputs..., out) with its output array (typing/numpy_ufunc_out.cpp):
// a call of a synthesized element-wise device function; null for any other call.
const ir::Type* type_numpy_ufunc_out(Typer& t, const ast::Call& c, ExprInfo& info);
// Values and namespaces reached by key (constants, value intrinsics, type
// objects); false when the key is unknown.
bool resolve_builtin_key(Typer& t, const std::string& key, const ast::Expr* e, ExprInfo& info);

// Records (typing/records.cpp): field access by attribute, literal name or
// literal index (intrinsic "record.field"; stores of whole array or record
// fields are "record.setarray" / "record.setrecord"); nullptr when `base` is
// not a record. type_record_store checks a value stored into such a field.
const ir::Type* type_record_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, bool store);
const ir::Type* type_record_subscript(Typer& t, const ast::Subscript& s, const ir::Type* base, bool store);
void type_record_store(Typer& t, const ast::Expr* target, const ir::Type* slot, const ir::Type* value);

// CUDA vector types (typing/vector_types.cpp): `float32x4(...)` ("vector.make")
// and `.x .y .z .w` ("vector.attr"; nullptr when `base` is no vector).
const ir::Type* type_vector_ctor(Typer& t, const ast::Call& c, const ir::Type* vt, ExprInfo& info);
const ir::Type* type_vector_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base);
// A named tuple's field `p.x` (typing/named_tuples.cpp; "namedtuple.attr"),
// nullptr when `base` is no named tuple or has no such field.
const ir::Type* type_named_tuple_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base);

// The mangled symbol of a specialization (valid PTX identifier).
std::string mangle(const std::string& name, const std::vector<const ir::Type*>& args, bool kernel);

}  // namespace cuhost::sema
