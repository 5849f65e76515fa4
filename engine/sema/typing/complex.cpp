// Typing of the complex-number features that are not plain operators: the
// `.real` / `.imag` attributes and `.conjugate()` method of numbers, the
// two-argument `complex(re, im)` constructor and the `cmath` module
// functions numba-cuda supports on the GPU. Operators on complex values are
// typed with the other arithmetic in arith.cpp and compare.cpp.
#include <cmath>
#include <set>

#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }

// The complex type a cmath argument is converted to: complex64 stays,
// float32 widens to complex64, every other number to complex128.
const ir::Type* complex_of(const ir::Type* t) {
  if (t == ir::complex64() || t == ir::float32()) return ir::complex64();
  return ir::complex128();
}

// The real type of a complex type's components.
const ir::Type* component_of(const ir::Type* c) { return c->bits == 64 ? ir::float32() : ir::float64(); }

const ir::Type* number_arg(Typer& t, const ast::Expr* a, const std::string& fname) {
  const ir::Type* at = t.type_of(a);
  if (!num_or_bool(at)) t.typing_error(a, concat(fname, "() needs a number, not ", display(at)));
  return at;
}

const std::set<std::string>& cmath_unary() {
  static const std::set<std::string> s = {"sqrt", "exp",  "log10", "sin",  "cos",   "tan",   "sinh", "cosh",
                                          "tanh", "asin", "acos",  "atan", "asinh", "acosh", "atanh"};
  return s;
}

const ir::Type* type_cmath(Typer& t, const ast::Call& c, const std::string& name) {
  std::string fname = "cmath." + name;
  ExprInfo& inf0 = t.info(&c);
  if (cmath_unary().count(name)) {
    auto args = t.bind(c, fname, {"z"}, 1, inf0);
    const ir::Type* z = complex_of(number_arg(t, args[0], fname));
    t.info(&c).param_types = {z};
    return z;
  }
  if (name == "log") {
    auto args = t.bind(c, fname, {"z", "base"}, 1, inf0);
    const ir::Type* z = complex_of(number_arg(t, args[0], fname));
    if (args[1]) {
      const ir::Type* base = complex_of(number_arg(t, args[1], fname));
      const ir::Type* u = promote(z, base);
      t.info(&c).param_types = {u, u};
      return u;
    }
    t.info(&c).param_types = {z, nullptr};
    return z;
  }
  if (name == "phase" || name == "polar") {
    auto args = t.bind(c, fname, {"z"}, 1, inf0);
    const ir::Type* z = complex_of(number_arg(t, args[0], fname));
    t.info(&c).param_types = {z};
    const ir::Type* f = component_of(z);
    return name == "phase" ? f : ir::tuple({f, f});
  }
  if (name == "rect") {
    auto args = t.bind(c, fname, {"r", "phi"}, 2, inf0);
    const ir::Type* r = number_arg(t, args[0], fname);
    const ir::Type* p = number_arg(t, args[1], fname);
    for (int i = 0; i < 2; ++i) {
      const ir::Type* a = i == 0 ? r : p;
      if (a->kind == ir::TypeKind::Complex)
        t.typing_error(args[i], concat(fname, "() needs a real number, not ", display(a)));
    }
    bool f32 = r == ir::float32() && p == ir::float32();
    const ir::Type* f = f32 ? ir::float32() : ir::float64();
    t.info(&c).param_types = {f, f};
    return f32 ? ir::complex64() : ir::complex128();
  }
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    auto args = t.bind(c, fname, {"z"}, 1, inf0);
    return type_float_class_test(t, c, name, number_arg(t, args[0], fname));
  }
  return nullptr;
}

}  // namespace

const ir::Type* type_number_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info) {
  (void)info;
  if (!num_or_bool(base)) return nullptr;
  ExprInfo& inf = t.info(&a);
  if (a.attr == "real" || a.attr == "imag") {
    inf.intrinsic = "number." + a.attr;
    if (base->kind == ir::TypeKind::Complex) return component_of(base);
    return base;
  }
  if (a.attr == "conjugate") return ir::intrinsic("number.conjugate");
  if (a.attr == "bit_count" && base->is_integer()) return ir::intrinsic("number.bit_count");
  return nullptr;
}

// complex(*parts), complex(re, *rest): the positional arguments with each
// `*tuple` contributing its items (evaluated once, in order). The call's
// ordered_args are its arguments as written, operand_types the items' types.
const ir::Type* type_complex_unpacking(Typer& t, const ast::Call& c) {
  if (!c.keywords.empty()) t.typing_error(&c, "complex() with *arguments takes no keyword arguments in kernels");
  std::vector<const ir::Type*> items;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const ast::Expr* a = c.args[i].get();
    if (!c.is_starred(i)) {
      items.push_back(number_arg(t, a, "complex"));
      continue;
    }
    const ir::Type* tt = t.type_of(a);
    if (!tt->is_tuple()) t.typing_error(a, concat("*arguments of a call must be a tuple, not ", display(tt)));
    for (const ir::Type* e : tt->elements) {
      if (!num_or_bool(e)) t.typing_error(a, concat("complex() needs a number, not ", display(e)));
      items.push_back(e);
    }
  }
  if (items.empty() || items.size() > 2)
    t.typing_error(&c, concat("complex() takes at most 2 arguments (", items.size(), " given)"));
  const ir::Type* re = items[0];
  const ir::Type* im = items.size() == 2 ? items[1] : nullptr;
  const ir::Type* result = ir::complex128();
  if (!im && (re == ir::float32() || re == ir::complex64())) result = ir::complex64();
  if (im && re == ir::float32() && im == ir::float32()) result = ir::complex64();
  if (im && (re->kind == ir::TypeKind::Complex || im->kind == ir::TypeKind::Complex))
    t.typing_error(&c, "complex() arguments in kernels must be real numbers");
  ExprInfo& inf = t.info(&c);
  inf.intrinsic = "builtins.complex.unpacking";
  inf.ordered_args.clear();
  for (const auto& a : c.args) inf.ordered_args.push_back(a.get());
  inf.operand_types = items;
  return result;
}

const ir::Type* type_complex_ctor(Typer& t, const ast::Call& c, ExprInfo& info) {
  (void)info;
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.is_starred(i)) return type_complex_unpacking(t, c);
  auto args = t.bind(c, "complex", {"real", "imag"}, 1, t.info(&c));
  const ir::Type* re = number_arg(t, args[0], "complex");
  const ir::Type* im = args[1] ? number_arg(t, args[1], "complex") : nullptr;
  // numba: complex64 only when every argument is float32 (or complex64 for
  // a single argument), else complex128.
  const ir::Type* result = ir::complex128();
  if (!im && (re == ir::float32() || re == ir::complex64())) result = ir::complex64();
  if (im && re == ir::float32() && im == ir::float32()) result = ir::complex64();
  ExprInfo& inf = t.info(&c);
  if (!im) {
    inf.intrinsic = "cast";
    inf.param_types = {re};
    return result;
  }
  for (int i = 0; i < 2; ++i) {
    const ir::Type* x = i == 0 ? re : im;
    // numba follows Python: complex(a, b) is a + b*1j, so complex parts combine.
    if (x->kind == ir::TypeKind::Complex)
      t.typing_error(args[i], concat("complex() arguments in kernels must be real numbers, not ", display(x)));
  }
  inf.intrinsic = "builtins.complex";
  inf.param_types = {component_of(result), component_of(result)};
  return result;
}

namespace {

// NumPy ufuncs on scalars that accept complex values, and the cmath/math
// function each one means.
const std::map<std::string, std::string>& numpy_complex_functions() {
  static const std::map<std::string, std::string> m = {{"sqrt", "sqrt"},
                                                       {"exp", "exp"},
                                                       {"log", "log"},
                                                       {"log10", "log10"},
                                                       {"sin", "sin"},
                                                       {"cos", "cos"},
                                                       {"tan", "tan"},
                                                       {"sinh", "sinh"},
                                                       {"cosh", "cosh"},
                                                       {"tanh", "tanh"},
                                                       {"arcsin", "asin"},
                                                       {"arccos", "acos"},
                                                       {"arctan", "atan"},
                                                       {"arcsinh", "asinh"},
                                                       {"arccosh", "acosh"},
                                                       {"arctanh", "atanh"},
                                                       {"isnan", "isnan"},
                                                       {"isinf", "isinf"},
                                                       {"isfinite", "isfinite"},
                                                       {"abs", "abs"},
                                                       {"absolute", "abs"},
                                                       {"conj", "conjugate"},
                                                       {"conjugate", "conjugate"},
                                                       {"real", "real"},
                                                       {"imag", "imag"},
                                                       {"angle", "phase"}};
  return m;
}

// np.<f>(x): complex x goes to cmath, real x to the math/builtin function.
const ir::Type* type_numpy_call(Typer& t, const ast::Call& c, const std::string& name, ExprInfo& info) {
  const std::string& f = numpy_complex_functions().at(name);
  if (f == "abs") {
    const ir::Type* r = type_builtin_call(t, c, "builtins.abs", info);
    t.info(&c).intrinsic = "builtins.abs";
    return r;
  }
  if (f == "real" || f == "imag") {
    auto args = t.bind(c, name, {"val"}, 1, t.info(&c));
    const ir::Type* x = number_arg(t, args[0], name);
    ExprInfo& inf = t.info(&c);
    inf.param_types = {x};
    inf.intrinsic = "number." + f;
    return x->kind == ir::TypeKind::Complex ? component_of(x) : x;
  }
  if (f == "phase") {
    const ir::Type* r = type_cmath(t, c, f);
    t.info(&c).intrinsic = "cmath.phase";
    return r;
  }
  if (f == "conjugate") {
    auto args = t.bind(c, name, {"x"}, 1, t.info(&c));
    const ir::Type* x = number_arg(t, args[0], name);
    ExprInfo& inf = t.info(&c);
    inf.param_types = {x};
    inf.intrinsic = "number.conjugate";
    return x;
  }
  if (c.args.size() == 1 && c.keywords.empty() && t.type_of(c.args[0].get())->kind == ir::TypeKind::Complex) {
    const ir::Type* r = type_cmath(t, c, f);
    t.info(&c).intrinsic = "cmath." + f;
    return r;
  }
  const ir::Type* r = type_math_call(t, c, "math." + f, info);
  if (!r) t.fail(ErrorKind::UnsupportedError, c.loc, concat("np.", name, "() is not supported on real numbers"));
  t.info(&c).intrinsic = "math." + f;
  return r;
}

}  // namespace

bool resolve_numpy_complex_key(const std::string& last, ExprInfo& info) {
  if (!numpy_complex_functions().count(last)) return false;
  info.type = ir::intrinsic("numpy." + last);
  return true;
}

const ir::Type* type_complex_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key.rfind("numpy.", 0) == 0 && numpy_complex_functions().count(key.substr(6)))
    return type_numpy_call(t, c, key.substr(6), info);
  if (key == "number.conjugate") {
    if (!c.args.empty() || !c.keywords.empty())
      t.typing_error(&c, concat("conjugate() takes no arguments (", c.args.size() + c.keywords.size(), " given)"));
    CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "conjugate() without a receiver";
    const ast::Expr* receiver = static_cast<const ast::Attribute&>(*c.func).value.get();
    const ir::Type* z = t.type_of(receiver);
    ExprInfo& inf = t.info(&c);
    inf.ordered_args = {receiver};
    inf.param_types = {z};
    return z;
  }
  if (key.rfind("cmath.", 0) == 0) return type_cmath(t, c, key.substr(6));
  return nullptr;
}

bool resolve_cmath_key(const std::string& last, ExprInfo& info) {
  static const std::map<std::string, double> constants = {
      {"pi", M_PI}, {"e", M_E}, {"tau", 2 * M_PI}, {"inf", INFINITY}, {"nan", NAN}};
  auto c = constants.find(last);
  if (c != constants.end()) {
    info.type = ir::float64();
    info.constant = ir::ConstValue::floating(c->second);
    return true;
  }
  if (last == "infj" || last == "nanj") {
    info.type = ir::complex128();
    info.constant = ir::ConstValue::complex({0.0, last == "infj" ? double(INFINITY) : double(NAN)});
    return true;
  }
  static const std::set<std::string> functions = {"asin",  "acos",  "atan", "asinh", "acosh", "atanh",   "sqrt", "exp",
                                                  "log",   "log10", "sin",  "cos",   "tan",   "sinh",    "cosh", "tanh",
                                                  "phase", "polar", "rect", "isnan", "isinf", "isfinite"};
  if (!functions.count(last)) return false;
  info.type = ir::intrinsic("cmath." + last);
  return true;
}

}  // namespace cuhost::sema
