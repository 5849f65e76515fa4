// Typing of Python builtins inside kernels: abs min max round len range pow and
// the casts int() float() bool() (and type objects called as casts).
#include <map>

#include "sema/intrinsics.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }
bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

const ir::Type* type_range(Typer& t, const ast::Call& c, ExprInfo& info) {
  if (!c.keywords.empty()) t.fail(ErrorKind::TypingError, c.keywords[0].loc, "range() takes no keyword arguments");
  size_t n = c.args.size();
  if (n < 1 || n > 3) {
    t.fail(ErrorKind::TypingError, c.loc, concat("range() takes from 1 to 3 arguments (", n, " given)"));
  }
  std::vector<const ast::Expr*> ordered(3, nullptr);
  if (n == 1) {
    ordered[1] = c.args[0].get();
  } else {
    ordered[0] = c.args[0].get();
    ordered[1] = c.args[1].get();
    if (n == 3) ordered[2] = c.args[2].get();
  }
  // numba's range signatures: all arguments fit int32 -> range_state32
  // (int32 loop variable), any uint64 -> unsigned 64-bit, else int64.
  bool any_u64 = false, all_32 = true;
  for (const ast::Expr* a : ordered) {
    if (!a) continue;
    const ir::Type* at = t.type_of(a);
    if (!int_like(at)) t.typing_error(a, concat("range() arguments must be integers, not ", display(at)));
    if (at == ir::uint64()) any_u64 = true;
    bool fits32 =
        at->kind == ir::TypeKind::Boolean || (at->is_signed && at->bits <= 32) || (!at->is_signed && at->bits <= 16);
    all_32 = all_32 && fits32;
  }
  const ir::Type* index = any_u64 ? ir::uint64() : all_32 ? ir::int32() : ir::int64();
  if (ordered[2]) {
    if (auto step = t.literal_int(ordered[2]); step && *step == 0) {
      t.fail(ErrorKind::ValueError, ordered[2]->loc, "range() arg 3 must not be zero");
    }
  }
  ExprInfo& inf = t.info(&c);
  inf.ordered_args = ordered;
  inf.param_types = {index, index, index};
  inf.intrinsic = "builtins.range";
  (void)info;
  return ir::range(index);
}

}  // namespace

const ir::Type* type_cast_call(Typer& t, const ast::Call& c, const ir::Type* target, const std::string& fname,
                               ExprInfo& info) {
  (void)info;
  if (!target->is_scalar() && !ir::is_datetime_like(target))
    t.typing_error(&c, concat("cannot call ", fname, " as a function in a kernel"));
  auto args = t.bind(c, fname, {"value"}, 1, t.info(&c));
  const ir::Type* from = t.type_of(args[0]);
  if (ir::is_datetime_like(target) || ir::is_datetime_like(from)) {
    // datetime64[u](x) / timedelta64[u](x): a value of the same kind, rescaled.
    if (from->kind != target->kind || !can_convert(from, target))
      t.typing_error(&c, concat("cannot convert ", display(from), " to ", display(target)));
    ExprInfo& inf = t.info(&c);
    inf.intrinsic = "cast";
    inf.param_types = {from};
    return target;
  }
  if (from->kind == ir::TypeKind::TypeRef) {
    t.typing_error(
        &c, concat("signatures such as ", fname, "(", display(from->pointee), ") cannot be built inside a kernel"));
  }
  if (!num_or_bool(from)) t.typing_error(&c, concat("cannot convert ", display(from), " to ", display(target)));
  if (from->kind == ir::TypeKind::Complex && target->kind != ir::TypeKind::Complex &&
      target->kind != ir::TypeKind::Boolean) {
    t.typing_error(&c, concat("cannot convert ", display(from), " to ", display(target)));
  }
  ExprInfo& inf = t.info(&c);
  inf.intrinsic = "cast";
  inf.param_types = {from};
  return target;
}

// The operator module's binary arithmetic functions: operator.add(a, b) is a + b.
const ast::BinOpKind* operator_binop(const std::string& name) {
  using K = ast::BinOpKind;
  static const std::map<std::string, K> ops = {{"add", K::Add},     {"sub", K::Sub},           {"mul", K::Mult},
                                               {"truediv", K::Div}, {"floordiv", K::FloorDiv}, {"mod", K::Mod},
                                               {"pow", K::Pow},     {"lshift", K::LShift},     {"rshift", K::RShift},
                                               {"and_", K::BitAnd}, {"or_", K::BitOr},         {"xor", K::BitXor}};
  auto it = ops.find(name);
  return it == ops.end() ? nullptr : &it->second;
}

namespace {

const ir::Type* type_operator_call(Typer& t, const ast::Call& c, const std::string& name) {
  const ast::BinOpKind* op = operator_binop(name);
  auto args = t.bind(c, name, {"a", "b"}, 2, t.info(&c));
  std::vector<const ir::Type*> operands;
  const ir::Type* r = type_binop_types(t, *op, t.type_of(args[0]), t.type_of(args[1]), &c, &operands);
  t.info(&c).param_types = operands;
  return r;
}

}  // namespace

const ir::Type* type_builtin_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key.rfind("operator.", 0) == 0 && operator_binop(key.substr(9))) return type_operator_call(t, c, key.substr(9));
  if (key.rfind("builtins.", 0) != 0) return nullptr;
  std::string name = key.substr(9);
  // numba: int() keeps an integer's type, float() keeps a float's type.
  if (name == "complex") return type_complex_ctor(t, c, info);
  if (name == "tuple") {  // tuple() and tuple(a_tuple): tuples are the only iterables it takes in kernels
    auto args = t.bind(c, "tuple", {"iterable"}, 0, t.info(&c));
    if (!args[0]) return ir::tuple({});
    const ir::Type* tt = t.type_of(args[0]);
    if (!tt->is_tuple()) t.typing_error(args[0], concat("tuple() in kernels takes a tuple, not ", display(tt)));
    t.info(&c).param_types = {tt};
    return tt;
  }
  if (name == "float" && c.args.size() == 1 && c.keywords.empty()) {
    // float("nan"), float("inf"), float("-1.5"): folded like Python parses them.
    const ir::Type* a = t.type_of(c.args[0].get());
    if (a->kind == ir::TypeKind::StringLiteral) {
      std::string s = a->key;
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
      size_t start = 0;
      while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
      s = s.substr(start);
      char* end = nullptr;
      double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size())
        t.typing_error(&c, concat("could not convert string to float: '", a->key, "'"));
      t.info(&c).constant = ir::ConstValue::floating(v);
      return ir::float64();
    }
  }
  if (name == "int" || name == "float") {
    const ir::Type* target = name == "int" ? ir::int64() : ir::float64();
    if (c.args.size() == 1 && c.keywords.empty()) {
      const ir::Type* a = t.type_of(c.args[0].get());
      if (name == "int" && a->is_integer()) target = a;
      if (name == "float" && a->is_float()) target = a;
    }
    return type_cast_call(t, c, target, name, info);
  }
  if (name == "bool") return type_cast_call(t, c, ir::boolean(), "bool", info);
  if (name == "isinstance") {
    // Folded from the argument's type (numba: isinstance on compile-time types).
    auto args = t.bind(c, "isinstance", {"obj", "classinfo"}, 2, t.info(&c));
    const ir::Type* v = t.type_of(args[0]);
    const ir::Type* cls = t.type_of(args[1]);
    std::vector<const ir::Type*> classes = cls->is_tuple() ? cls->elements : std::vector<const ir::Type*>{cls};
    bool result = false;
    for (const ir::Type* k : classes) {
      if (k->kind == ir::TypeKind::TypeRef) {
        result = result || k->pointee == v;
      } else if (k->kind == ir::TypeKind::Intrinsic && (k->key == "builtins.int" || k->key == "builtins.float" ||
                                                        k->key == "builtins.bool" || k->key == "builtins.complex")) {
        const std::string& p = k->key;
        result = result || (p == "builtins.int" && v->is_integer()) ||
                 (p == "builtins.float" && v->is_float() && !ir::is_storage_float(v)) ||
                 (p == "builtins.bool" && v->kind == ir::TypeKind::Boolean) ||
                 (p == "builtins.complex" && v->kind == ir::TypeKind::Complex);
      } else {
        t.typing_error(args[1], concat("isinstance() arg 2 must be a type or a tuple of types, not ", display(k)));
      }
    }
    t.info(&c).constant = ir::ConstValue::boolean(result);
    return ir::boolean();
  }
  if (name == "range") return type_range(t, c, info);
  if (name == "abs") {
    auto args = t.bind(c, "abs", {"x"}, 1, t.info(&c));
    const ir::Type* x = t.type_of(args[0]);
    if (!num_or_bool(x)) t.typing_error(&c, concat("bad operand type for abs(): ", display(x)));
    const ir::Type* param = x->kind == ir::TypeKind::Boolean ? ir::int64() : x;
    const ir::Type* result = x->kind == ir::TypeKind::Complex ? (x->bits == 64 ? ir::float32() : ir::float64()) : param;
    t.info(&c).param_types = {param};
    return result;
  }
  if (name == "pow") {
    // pow(base, exp) is base ** exp; the three-argument (modular) form is not.
    auto args = t.bind(c, "pow", {"base", "exp", "mod"}, 2, t.info(&c));
    if (args.size() > 2 && args[2])
      t.fail(ErrorKind::UnsupportedError, c.loc, "pow() with a modulus (three arguments) is not supported in kernels");
    std::vector<const ir::Type*> operands;
    const ir::Type* r = type_binop_types(t, ast::BinOpKind::Pow, t.type_of(args[0]), t.type_of(args[1]), &c, &operands);
    t.info(&c).param_types = operands;
    return r;
  }
  if (name == "min" || name == "max") {
    if (!c.keywords.empty())
      t.fail(ErrorKind::TypingError, c.keywords[0].loc, name + "() takes no keyword arguments in kernels");
    if (c.args.size() < 2) {
      t.typing_error(&c, concat(name, "() in kernels takes at least 2 scalar arguments (", c.args.size(), " given)"));
    }
    const ir::Type* u = nullptr;
    std::vector<const ast::Expr*> ordered;
    for (const auto& a : c.args) {
      const ir::Type* at = t.type_of(a.get());
      if (!num_or_bool(at) || at->kind == ir::TypeKind::Complex) {
        t.typing_error(a.get(), concat(name, "() arguments must be real numbers, not ", display(at)));
      }
      u = u ? promote(u, at) : at;
      ordered.push_back(a.get());
    }
    ExprInfo& inf = t.info(&c);
    inf.ordered_args = ordered;
    inf.param_types.assign(ordered.size(), u);
    return u;
  }
  if (name == "round") {
    auto args = t.bind(c, "round", {"number", "ndigits"}, 1, t.info(&c));
    const ir::Type* x = t.type_of(args[0]);
    if (!num_or_bool(x) || x->kind == ir::TypeKind::Complex) {
      t.typing_error(&c, concat("type ", display(x), " doesn't define __round__"));
    }
    ExprInfo* inf = &t.info(&c);
    if (args[1]) {
      const ir::Type* n = t.type_of(args[1]);
      if (!int_like(n)) t.typing_error(args[1], concat("round() ndigits must be an integer, not ", display(n)));
      inf = &t.info(&c);
      if (x->is_float()) {
        inf->param_types = {x, ir::int64()};
        return x;
      }
      inf->param_types = {ir::int64(), ir::int64()};
      return ir::int64();
    }
    inf->param_types = {x->is_float() ? x : ir::int64()};
    return ir::int64();
  }
  if (name == "len") {
    auto args = t.bind(c, "len", {"obj"}, 1, t.info(&c));
    const ir::Type* x = t.type_of(args[0]);
    ExprInfo& inf = t.info(&c);
    if (x->is_array()) {
      inf.param_types = {x};
      return ir::int64();
    }
    if (x->is_tuple()) {
      inf.param_types = {nullptr};
      inf.constant = ir::ConstValue::integer(static_cast<std::int64_t>(x->elements.size()));
      return ir::int64();
    }
    t.typing_error(&c, concat("len() of unsized object of type ", display(x)));
  }
  return nullptr;
}

}  // namespace cuhost::sema
