// The result of type inference for one specialization of a function: the
// types of its arguments, locals and return value, and a side table with the
// type and resolution of every expression. The AST itself is shared and never
// modified; lowering reads this table.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/captured.h"
#include "ir/foreign.h"
#include "ir/types.h"
#include "sema/extension_hooks.h"

namespace cuhost::sema {

struct TypedFunction;

struct ExprInfo {
  const ir::Type* type = nullptr;  // the value's type
  // BinOp/UnaryOp/AugAssign: both operands are converted to this type before the
  // operation (numba's chosen signature); Compare: one entry per comparison.
  std::vector<const ir::Type*> operand_types;
  // Attribute/Name/Call resolved to a built-in operation: "cuda.threadIdx.x",
  // "math.sin", "cuda.atomic.add", "builtins.min", "cast" (float32(x)), ...
  std::string intrinsic;
  // Call of another jitted function: the specialization called.
  std::shared_ptr<const TypedFunction> callee;
  // Call of a declared foreign function.
  std::shared_ptr<const ir::ForeignFunction> foreign;
  // Call: each positional argument is converted to this type (after keyword
  // arguments were matched into position by typing; see Call args order).
  std::vector<const ir::Type*> param_types;
  // Call: the argument expressions in parameter order, after keyword
  // arguments were matched (cuda.shared.array(shape=..., dtype=...) included);
  // omitted optional parameters are null. Lowering uses this, not Call::args.
  std::vector<const ast::Expr*> ordered_args;
  // Call of a jitted function: per ordered argument, -1 when it is its
  // expression's value, else the element of that tuple expression it is
  // (`f(*t)`). Empty when every argument is a plain value.
  std::vector<int> arg_elements;
  // Call of a jitted function with a `*args` parameter: the ordered
  // arguments from this index on are packed into that tuple parameter.
  int packed_from = -1;
  // cuda.shared.array / cuda.local.array / cuda.const.array_like: the literal
  // shape (a 0 extent in a 1-d shared array means dynamic shared memory).
  std::vector<std::int64_t> shape;
  // cuda.shared.array / cuda.local.array: the `alignment=` in bytes (a power
  // of two, a multiple of 8), 0 when not given.
  std::int64_t alignment = 0;
  // A record field access ("record.field" / "record.setarray" /
  // "record.setrecord"): the field's index in its record's layout, and the
  // alignment its address is known to have (an aligned record nested in a
  // packed one may sit at any byte; typing/records.cpp).
  int record_field = -1;
  int record_field_align = 1;
  // A value known at compile time (literals, frozen globals, folded ints such
  // as shapes): lowering emits a constant.
  std::optional<ir::ConstValue> constant;
  // "extension.codegen" / "extension.member": what the extension API
  // resolved this call or attribute to (sema/extension_hooks.h).
  std::shared_ptr<const ExtensionLowering> extension;
};

// The truth of a constant condition whose branch is pruned (numba's dead
// branch pruning): Python's bool() of the constant; nullopt without one.
std::optional<bool> constant_truth(const std::optional<ir::ConstValue>& c);

struct TypedFunction {
  std::shared_ptr<const frontend::CapturedFunction> captured;
  std::shared_ptr<model::JitFunction> function;
  bool is_kernel = false;
  ir::Abi abi = ir::Abi::Numba;
  std::string symbol;  // the LLVM/PTX symbol (mangled unless abi="c")
  std::vector<const ir::Type*> arg_types;
  // Per argument (or empty): the compile-time value a caller passed, when it
  // was an integer, boolean or tuple literal. Like numba's Literal argument
  // types, the body sees the parameter as that constant (a shape for
  // cuda.shared.array, a literal for cuda.grid), one specialization per value.
  std::vector<std::optional<ir::ConstValue>> arg_constants;
  const ir::Type* return_type = nullptr;
  std::map<std::string, const ir::Type*> locals;  // parameters included
  std::unordered_map<const ast::Expr*, ExprInfo> exprs;
  std::vector<std::shared_ptr<const TypedFunction>> callees;                // direct jitted callees
  std::vector<std::shared_ptr<const ir::ForeignFunction>> foreign_callees;  // direct foreign callees
  bool uses_barriers = false;                                               // syncthreads* (incl. through callees)
  bool uses_warp_ops = false;   // shfl/vote/syncwarp/... (incl. through callees)
  bool uses_grid_sync = false;  // cuda.cg grid sync (incl. through callees): a cooperative launch
  // A numba-ABI device function that can end the calling thread: it calls a
  // numba-ABI foreign function, a jitted numba-ABI callee that raises, or
  // converts an OptionalType value holding None to its payload. Its LLVM
  // function returns an i32 status (0 OK, else the error code to propagate)
  // and writes its result through a pointer (codegen/lowering/status.cpp).
  bool raises = false;

  const ExprInfo& info(const ast::Expr* e) const;  // internal error if missing
  std::string signature() const;                   // "(float32, array(float32, 1d, C)) -> none"
};

}  // namespace cuhost::sema
