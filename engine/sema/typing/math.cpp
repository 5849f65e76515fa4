// Typing of the `math` module functions and of cuda's arithmetic intrinsics
// (fma cbrt brev clz ffs popc selp): float32 in, float32 out; integers are
// computed in float64; floor/ceil/trunc give int64 like numba.
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }
bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

const std::set<std::string>& unary_float() {
  static const std::set<std::string> s = {"sqrt",  "sin",  "cos",   "tan",    "asin",    "acos",   "atan",
                                          "sinh",  "cosh", "tanh",  "asinh",  "acosh",   "atanh",  "exp",
                                          "expm1", "exp2", "log",   "log1p",  "log2",    "log10",  "fabs",
                                          "erf",   "erfc", "gamma", "lgamma", "degrees", "radians"};
  return s;
}
const std::set<std::string>& binary_float() {
  static const std::set<std::string> s = {"atan2", "pow", "fmod", "hypot", "copysign", "nextafter", "remainder"};
  return s;
}

const ir::Type* real_arg(Typer& t, const ast::Expr* a, const std::string& fname) {
  const ir::Type* at = t.type_of(a);
  if (!num_or_bool(at) || at->kind == ir::TypeKind::Complex) {
    t.typing_error(a, concat(fname, "() needs a real number, not ", display(at)));
  }
  return at;
}

const ir::Type* float_of(const ir::Type* a) { return a == ir::float32() ? ir::float32() : ir::float64(); }

const ir::Type* int_arg(Typer& t, const ast::Expr* a, const std::string& fname) {
  const ir::Type* at = t.type_of(a);
  if (!int_like(at)) t.typing_error(a, concat(fname, "() needs an integer, not ", display(at)));
  return at;
}

const ir::Type* type_cuda_arith(Typer& t, const ast::Call& c, const std::string& name, ExprInfo& info) {
  (void)info;
  if (name == "fma") {
    auto args = t.bind(c, "fma", {"a", "b", "c"}, 3, t.info(&c));
    bool all32 = true;
    for (auto* a : args)
      if (real_arg(t, a, "fma") != ir::float32()) all32 = false;
    const ir::Type* f = all32 ? ir::float32() : ir::float64();
    t.info(&c).param_types = {f, f, f};
    return f;
  }
  if (name == "cbrt") {
    auto args = t.bind(c, "cbrt", {"x"}, 1, t.info(&c));
    const ir::Type* f = float_of(real_arg(t, args[0], "cbrt"));
    t.info(&c).param_types = {f};
    return f;
  }
  if (name == "brev") {
    auto args = t.bind(c, "brev", {"x"}, 1, t.info(&c));
    const ir::Type* x = int_arg(t, args[0], "brev");
    const ir::Type* r = (x->kind != ir::TypeKind::Boolean && x->bits == 64) ? ir::uint64() : ir::uint32();
    t.info(&c).param_types = {r};
    return r;
  }
  if (name == "clz" || name == "ffs" || name == "popc") {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* x = int_arg(t, args[0], name);
    const ir::Type* p = (x->kind == ir::TypeKind::Boolean || x->bits < 32) ? ir::int32() : x;
    t.info(&c).param_types = {p};
    return name == "ffs" ? ir::uint32() : ir::int32();
  }
  if (name == "selp") {
    auto args = t.bind(c, "selp", {"cond", "a", "b"}, 3, t.info(&c));
    const ir::Type* cond = t.type_of(args[0]);
    if (!num_or_bool(cond))
      t.typing_error(args[0], concat("selp() condition must be a number or bool, not ", display(cond)));
    const ir::Type* a = t.type_of(args[1]);
    const ir::Type* b = t.type_of(args[2]);
    const ir::Type* u = unify(a, b);
    if (!u || !u->is_scalar())
      t.typing_error(&c, concat("selp() cannot select between ", display(a), " and ", display(b)));
    t.info(&c).param_types = {ir::boolean(), u, u};
    return u;
  }
  return nullptr;
}

}  // namespace

const ir::Type* type_math_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key.rfind("cuda.", 0) == 0) return type_cuda_arith(t, c, key.substr(5), info);
  if (key == "number.bit_count") {
    // int.bit_count(): the ones in |x|, a Python int.
    if (!c.args.empty() || !c.keywords.empty())
      t.typing_error(&c, concat("bit_count() takes no arguments (", c.args.size() + c.keywords.size(), " given)"));
    CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "bit_count() without a receiver";
    const ast::Expr* receiver = static_cast<const ast::Attribute&>(*c.func).value.get();
    ExprInfo& inf = t.info(&c);
    inf.ordered_args = {receiver};
    inf.param_types = {t.type_of(receiver)};
    return ir::int64();
  }
  if (key.rfind("math.", 0) != 0) return nullptr;
  std::string name = key.substr(5);
  if (unary_float().count(name)) {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* f = float_of(real_arg(t, args[0], name));
    t.info(&c).param_types = {f};
    return f;
  }
  if (binary_float().count(name)) {
    auto args = t.bind(c, name, {"x", "y"}, 2, t.info(&c));
    const ir::Type* a = real_arg(t, args[0], name);
    const ir::Type* b = real_arg(t, args[1], name);
    const ir::Type* f = (a == ir::float32() && b == ir::float32()) ? ir::float32() : ir::float64();
    t.info(&c).param_types = {f, f};
    return f;
  }
  // frexp(x) -> (mantissa, int32 exponent); modf(x) -> (fraction, integral
  // part); ldexp(x, i): libdevice's, on both targets.
  if (name == "frexp" || name == "modf") {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* f = float_of(real_arg(t, args[0], name));
    t.info(&c).param_types = {f};
    return ir::tuple({f, name == "frexp" ? ir::int32() : f});
  }
  if (name == "ldexp") {
    auto args = t.bind(c, name, {"x", "i"}, 2, t.info(&c));
    const ir::Type* f = float_of(real_arg(t, args[0], name));
    int_arg(t, args[1], name);
    t.info(&c).param_types = {f, ir::int32()};
    return f;
  }
  if (name == "floor" || name == "ceil" || name == "trunc") {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* a = real_arg(t, args[0], name);
    // numba: uint64 stays uint64; other integers and floats give int64.
    const ir::Type* r = a == ir::uint64() ? ir::uint64() : ir::int64();
    t.info(&c).param_types = {a->is_float() ? a : r};
    return r;
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    return type_float_class_test(t, c, name, real_arg(t, args[0], name));
  }
  return nullptr;
}

const ir::Type* type_float_class_test(Typer& t, const ast::Call& c, const std::string& name, const ir::Type* arg) {
  ExprInfo& inf = t.info(&c);
  if (arg->kind == ir::TypeKind::Complex || arg->is_float()) {
    inf.param_types = {arg};
  } else {
    inf.param_types = {nullptr};
    inf.constant = ir::ConstValue::boolean(name == "isfinite");
  }
  return ir::boolean();
}

}  // namespace cuhost::sema
