// Typing of the NumPy constructors that allocate on the heap, allowed in
// kernels and device functions while numba.cuda.config.CUDA_ENABLE_NRT is on
// (sema/nrt_scope.h; without it a call is numba-cuda's LoweringError "NRT
// required but not enabled"): np.empty / zeros / ones (shape, dtype=float64),
// np.empty_like / zeros_like / ones_like (a, dtype=None) and
// np.arange(start, stop, step, dtype). Each gives a new C-contiguous array
// (an F array's *_like keeps F); lowering/nrt_arrays.cpp allocates it.
#include <set>

#include "ir/records.h"
#include "sema/extension_hooks.h"
#include "sema/nrt_scope.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

const std::set<std::string>& nrt_constructors() {
  static const std::set<std::string> s = {"empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like", "arange"};
  return s;
}

// int64 for integers and booleans, float64 with any float (float32 when
// every operand is float32), complex128 with any complex: numba's
// unification of np.arange's operands.
const ir::Type* arange_dtype(const std::vector<const ir::Type*>& types) {
  bool any_float = false, all_f32 = true, any_complex = false;
  for (const ir::Type* t : types) {
    if (t->kind == ir::TypeKind::Complex) any_complex = true;
    if (t->is_float()) {
      any_float = true;
      if (t->bits != 32) all_f32 = false;
    } else {
      all_f32 = false;
    }
  }
  if (any_complex) return ir::complex128();
  if (any_float) return all_f32 ? ir::float32() : ir::float64();
  return ir::int64();
}

// np.ones needs a number (or boolean) dtype to hold its 1.
void check_fill(Typer& t, const ast::Call& c, const std::string& op, const ir::Type* dtype) {
  if (op.rfind("ones", 0) != 0) return;
  if ((dtype->is_number() || dtype->kind == ir::TypeKind::Boolean) && !ir::is_storage_float(dtype)) return;
  t.typing_error(&c, concat("np.", op, "() of ", display(dtype), " is not supported in kernels"));
}

}  // namespace

bool resolve_nrt_numpy_key(const std::string& last, ExprInfo& info) {
  // Functions for numba.njit have no heap in cuhost: unknown there, as before.
  if (!nrt_constructors().count(last) || typing_for_host()) return false;
  info.type = ir::intrinsic("numpy." + last);
  return true;
}

const ir::Type* type_nrt_array_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& inf) {
  if (key.rfind("numpy.", 0) != 0 || !nrt_constructors().count(key.substr(6))) return nullptr;
  // numba-cuda types the call and refuses to lower it without the NRT.
  if (!typing_with_nrt()) t.fail(ErrorKind::LoweringError, c.loc, "NRT required but not enabled");
  const std::string op = key.substr(6);
  const std::string fname = "np." + op;
  if (op == "empty" || op == "zeros" || op == "ones") {
    auto args = t.bind(c, fname, {"shape", "dtype"}, 1, inf);
    const ir::Type* st = t.type_of(args[0]);
    int ndim = 1;
    if (st->is_tuple()) {
      for (const ir::Type* e : st->elements)
        if (!e->is_integer()) t.typing_error(args[0], concat(fname, "() extents must be integers, not ", display(st)));
      ndim = int(st->elements.size());
    } else if (!st->is_integer()) {
      t.typing_error(args[0], concat(fname, "() takes an int or a tuple of ints as the shape, not ", display(st)));
    }
    if (ndim == 0) t.typing_error(args[0], concat(fname, "() of a 0-d shape is not supported in kernels"));
    const ir::Type* dtype = args[1] ? dtype_arg(t, args[1], fname) : ir::float64();
    check_fill(t, c, op, dtype);
    inf.ordered_args = {args[0]};
    inf.param_types = {st};
    inf.intrinsic = "nrt." + op;
    return ir::array(dtype, ndim, ir::Layout::C);
  }
  if (op == "empty_like" || op == "zeros_like" || op == "ones_like") {
    auto args = t.bind(c, fname, {"a", "dtype"}, 1, inf);
    const ir::Type* at = t.type_of(args[0]);
    if (!at->is_array()) t.typing_error(args[0], concat(fname, "() in kernels needs an array, not ", display(at)));
    if (at->ndim == 0) t.typing_error(args[0], concat(fname, "() of a 0-d array is not supported in kernels"));
    const ir::Type* dtype = args[1] ? dtype_arg(t, args[1], fname) : at->dtype;
    check_fill(t, c, op, dtype);
    inf.ordered_args = {args[0]};
    inf.param_types = {at};
    inf.intrinsic = "nrt." + op.substr(0, op.size() - 5);  // the fill is the plain constructor's
    return ir::array(dtype, at->ndim, at->layout == ir::Layout::F ? ir::Layout::F : ir::Layout::C);
  }
  // np.arange([start, ]stop[, step][, dtype])
  auto args = t.bind(c, fname, {"start", "stop", "step", "dtype"}, 1, inf);
  std::vector<const ir::Type*> types;
  std::vector<const ast::Expr*> operands;
  for (int k = 0; k < 3; ++k) {
    if (!args[k]) continue;
    const ir::Type* a = t.type_of(args[k]);
    if (!(a->is_integer() || a->is_float() || a->kind == ir::TypeKind::Boolean) || ir::is_storage_float(a))
      t.typing_error(args[k], concat(fname, "() takes numbers, not ", display(a)));
    types.push_back(a);
    operands.push_back(args[k]);
  }
  if (!args[1] && args[2]) t.typing_error(args[2], concat(fname, "() with a step needs a stop"));
  const ir::Type* dtype = args[3] ? dtype_arg(t, args[3], fname) : arange_dtype(types);
  if (dtype->kind == ir::TypeKind::Complex || ir::is_storage_float(dtype) || !(dtype->is_number()))
    t.typing_error(&c, concat(fname, "() of ", display(dtype), " is not supported in kernels"));
  // ordered: start (null: 0), stop, step (null: 1)
  inf.ordered_args = {args[1] ? args[0] : nullptr, args[1] ? args[1] : args[0], args[2]};
  inf.param_types = {args[1] ? t.type_of(args[0]) : nullptr, t.type_of(args[1] ? args[1] : args[0]),
                     args[2] ? t.type_of(args[2]) : nullptr};
  inf.intrinsic = "nrt.arange";
  return ir::array(dtype, 1, ir::Layout::C);
}

}  // namespace cuhost::sema
