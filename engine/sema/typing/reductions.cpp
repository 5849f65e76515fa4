// Typing of whole-array reductions: np.sum prod mean var std min max amin
// amax all any nanmin nanmax nanmean nansum nanprod count_nonzero of an
// array, and the methods a.sum() prod mean var std min max all any. Result
// types are numba's (numba/cuda/np/arraymath.py): sums and products of
// booleans and integers accumulate in int64 (uint64 for unsigned); means
// divide the sum by the int64 size, so they are float64 (complex128 for
// complex arrays); variances are float64 (the sum of squares starts as the
// integer 0); nansum/nanprod of any integer give int64. min/max and the
// nan variants of an empty array raise ValueError, so the function can end
// the thread. Lowering: codegen/lowering/reductions.cpp ("reduce.<name>").
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

const std::set<std::string>& numpy_reductions() {
  static const std::set<std::string> s = {"sum",    "prod",    "mean",   "var",     "std",          "min",
                                          "max",    "amin",    "amax",   "all",     "any",          "nanmin",
                                          "nanmax", "nanmean", "nansum", "nanprod", "count_nonzero"};
  return s;
}

const std::set<std::string>& array_methods() {
  static const std::set<std::string> s = {"sum", "prod", "mean", "var", "std", "min", "max", "all", "any"};
  return s;
}

// numba's accumulator type for sums and products.
const ir::Type* expanded(const ir::Type* dt) {
  if (dt->kind == ir::TypeKind::Boolean) return ir::int64();
  if (dt->is_integer()) return dt->is_signed ? ir::int64() : ir::uint64();
  return dt;
}

const ir::Type* result_type(const std::string& op, const ir::Type* dt) {
  const bool exact = dt->kind == ir::TypeKind::Boolean || dt->is_integer();
  if (op == "sum" || op == "prod") return expanded(dt);
  if (op == "nansum" || op == "nanprod") return exact ? ir::int64() : dt;
  // c / a.size: the sum's type divided by an int64 (float32 -> float64).
  if (op == "mean") return dt->kind == ir::TypeKind::Complex ? ir::complex128() : ir::float64();
  if (op == "var" || op == "std") return ir::float64();
  if (op == "nanmean") return dt->kind == ir::TypeKind::Complex ? ir::complex128() : ir::float64();
  if (op == "all" || op == "any") return ir::boolean();
  if (op == "count_nonzero") return ir::int64();
  return dt;  // min max nanmin nanmax
}

}  // namespace

bool resolve_numpy_reduction_key(const std::string& last, ExprInfo& info) {
  if (!numpy_reductions().count(last)) return false;
  info.type = ir::intrinsic("numpy." + last);
  return true;
}

bool is_reduction_method(const std::string& name) { return array_methods().count(name) > 0; }

const ir::Type* type_reduction_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  std::string op;
  const ast::Expr* array_expr = nullptr;
  if (key.rfind("numpy.", 0) == 0 && numpy_reductions().count(key.substr(6))) {
    op = key.substr(6);
    auto args = t.bind(c, "np." + op, {"a"}, 1, t.info(&c));
    array_expr = args[0];
  } else if (key.rfind("array.", 0) == 0 && array_methods().count(key.substr(6))) {
    op = key.substr(6);
    if (!c.args.empty() || !c.keywords.empty())
      t.fail(ErrorKind::UnsupportedError, c.loc,
             concat("array.", op, "() takes no arguments in kernels (axis and dtype are not supported)"));
    CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "array method without a receiver";
    array_expr = static_cast<const ast::Attribute&>(*c.func).value.get();
  } else {
    return nullptr;
  }
  if (op == "amin") op = "min";
  if (op == "amax") op = "max";
  const ir::Type* at = t.type_of(array_expr);
  if (!at->is_array()) t.typing_error(array_expr, concat("np.", op, "() in kernels needs an array, not ", display(at)));
  const ir::Type* dt = at->dtype;
  const bool number = dt->kind == ir::TypeKind::Boolean || dt->is_number();
  if (!number || ir::is_storage_float(dt))
    t.typing_error(array_expr, concat("np.", op, "() of an array of ", display(dt), " is not supported"));
  const bool ordered = op == "min" || op == "max" || op == "nanmin" || op == "nanmax";
  if (ordered && dt->kind == ir::TypeKind::Complex)
    t.fail(ErrorKind::UnsupportedError, c.loc, concat("np.", op, "() of complex arrays is not supported in kernels"));
  if (ordered) t.note_unwrap();  // an empty array raises ValueError
  ExprInfo& inf = t.info(&c);
  inf.ordered_args = {array_expr};
  inf.param_types = {at};
  inf.intrinsic = "reduce." + op;
  return result_type(op, dt);
}

}  // namespace cuhost::sema
