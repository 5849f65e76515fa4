// Typing of Python builtins inside kernels: abs min max round len range pow and
// the casts int() float() bool() (and type objects called as casts).
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
  if (!target->is_scalar()) t.typing_error(&c, concat("cannot call ", fname, " as a function in a kernel"));
  auto args = t.bind(c, fname, {"value"}, 1, t.info(&c));
  const ir::Type* from = t.type_of(args[0]);
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

const ir::Type* type_builtin_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key == "number.bit_count") {  // int.bit_count(): ones in |x|, an int64 as in numba
    if (!c.args.empty() || !c.keywords.empty())
      t.typing_error(&c, concat("bit_count() takes no arguments (", c.args.size() + c.keywords.size(), " given)"));
    CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "bit_count() without a receiver";
    const ast::Expr* receiver = static_cast<const ast::Attribute&>(*c.func).value.get();
    ExprInfo& inf = t.info(&c);
    inf.ordered_args = {receiver};
    inf.param_types = {t.type_of(receiver)};
    return ir::int64();
  }
  if (key.rfind("builtins.", 0) != 0) return nullptr;
  std::string name = key.substr(9);
  // numba: int() keeps an integer's type, float() keeps a float's type.
  if (name == "complex") return type_complex_ctor(t, c, info);
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
  if (name == "range") return type_range(t, c, info);
  if (name == "pow") {  // numba types pow(x, y) as x ** y
    auto args = t.bind(c, "pow", {"base", "exp"}, 2, t.info(&c));
    const ir::Type* x = t.type_of(args[0]);
    const ir::Type* y = t.type_of(args[1]);
    std::vector<const ir::Type*> operands;
    const ir::Type* result = type_binop_types(t, ast::BinOpKind::Pow, x, y, &c, &operands);
    t.info(&c).param_types = operands;
    return result;
  }
  if (name == "abs") {
    auto args = t.bind(c, "abs", {"x"}, 1, t.info(&c));
    const ir::Type* x = t.type_of(args[0]);
    if (!num_or_bool(x)) t.typing_error(&c, concat("bad operand type for abs(): ", display(x)));
    const ir::Type* param = x->kind == ir::TypeKind::Boolean ? ir::int64() : x;
    const ir::Type* result = x->kind == ir::TypeKind::Complex ? (x->bits == 64 ? ir::float32() : ir::float64()) : param;
    t.info(&c).param_types = {param};
    return result;
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
