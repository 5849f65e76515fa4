// Typing of arithmetic, bitwise and unary operators (numba's rules: integer
// arithmetic on int64/uint64 machine integers, float32 kept only when both
// sides fit it, true division, Python floor division and modulo), with
// folding of integer constants so literal shapes like `N * 2` stay literal.
#include "sema/extension_typing.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }
bool int_like(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_integer(); }

const char* op_word(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add: return "add";
    case ast::BinOpKind::Sub: return "subtract";
    case ast::BinOpKind::Mult: return "multiply";
    case ast::BinOpKind::Div: return "divide";
    case ast::BinOpKind::FloorDiv: return "floor-divide";
    case ast::BinOpKind::Mod: return "take the modulo of";
    case ast::BinOpKind::Pow: return "raise to the power";
    case ast::BinOpKind::LShift: return "left-shift";
    case ast::BinOpKind::RShift: return "right-shift";
    case ast::BinOpKind::BitOr: return "bitwise-or";
    case ast::BinOpKind::BitXor: return "bitwise-xor";
    case ast::BinOpKind::BitAnd: return "bitwise-and";
    case ast::BinOpKind::MatMult: return "matrix-multiply";
  }
  return "combine";
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t floor_mod(std::int64_t a, std::int64_t b) {
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Folds int64 constant arithmetic when it cannot overflow or trap.
std::optional<ir::ConstValue> fold(ast::BinOpKind op, const std::optional<ir::ConstValue>& l,
                                   const std::optional<ir::ConstValue>& r) {
  if (!l || !r || l->kind != ir::ConstValue::Kind::Int || r->kind != ir::ConstValue::Kind::Int) return std::nullopt;
  if (l->type != ir::int64() || r->type != ir::int64()) return std::nullopt;
  std::int64_t a = l->i, b = r->i, out = 0;
  switch (op) {
    case ast::BinOpKind::Add:
      if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
      break;
    case ast::BinOpKind::Sub:
      if (__builtin_sub_overflow(a, b, &out)) return std::nullopt;
      break;
    case ast::BinOpKind::Mult:
      if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
      break;
    case ast::BinOpKind::FloorDiv:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      out = floor_div(a, b);
      break;
    case ast::BinOpKind::Mod:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      out = floor_mod(a, b);
      break;
    case ast::BinOpKind::BitAnd: out = a & b; break;
    case ast::BinOpKind::BitOr: out = a | b; break;
    case ast::BinOpKind::BitXor: out = a ^ b; break;
    case ast::BinOpKind::LShift:
      if (b < 0 || b > 62 || a < 0 || (a >> (62 - b)) != 0) return std::nullopt;
      out = a << b;
      break;
    case ast::BinOpKind::RShift:
      if (b < 0 || b > 63) return std::nullopt;
      out = a >> b;
      break;
    case ast::BinOpKind::Pow: {
      if (b < 0) return std::nullopt;
      if (a == 0 || a == 1) {
        out = b == 0 ? 1 : a;
      } else if (a == -1) {
        out = (b & 1) ? -1 : 1;
      } else {
        out = 1;  // |a| >= 2 overflows within 63 steps
        for (std::int64_t k = 0; k < b; ++k)
          if (__builtin_mul_overflow(out, a, &out)) return std::nullopt;
      }
      break;
    }
    default: return std::nullopt;
  }
  return ir::ConstValue::integer(out);
}

}  // namespace

const ir::Type* type_binop_types(Typer& t, ast::BinOpKind op, const ir::Type* l, const ir::Type* r, const ast::Expr* at,
                                 std::vector<const ir::Type*>* operand_types) {
  auto bad = [&]() -> const ir::Type* {
    t.typing_error(at, concat("cannot ", op_word(op), " ", display(l), " and ", display(r)));
  };
  if (ir::is_datetime_like(l) || ir::is_datetime_like(r)) return type_datetime_binop(t, op, l, r, at, operand_types);
  if (!num_or_bool(l) || !num_or_bool(r) || ir::is_storage_float(l) || ir::is_storage_float(r)) bad();
  bool ints = int_like(l) && int_like(r);
  bool complex = l->kind == ir::TypeKind::Complex || r->kind == ir::TypeKind::Complex;
  const ir::Type* operand = nullptr;
  const ir::Type* result = nullptr;
  switch (op) {
    case ast::BinOpKind::Add:
    case ast::BinOpKind::Sub:
    case ast::BinOpKind::Mult: operand = result = arith(l, r); break;
    case ast::BinOpKind::Pow:
      if (l->is_float() && int_like(r)) {
        // numba's BinOpPower: float32|float64 ** (int32|int64|uint64) keeps the
        // float type (float32 stays single precision) and is computed by
        // repeated squaring; the first matching exponent type is taken.
        const ir::Type* e = ir::int64();
        if (r->is_integer() && r->is_signed && r->bits <= 32) e = ir::int32();
        if (r->is_integer() && !r->is_signed) e = r->bits <= 16 ? ir::int32() : ir::uint64();
        if (operand_types) *operand_types = {l, e};
        return l;
      }
      if (complex && int_like(r)) {
        // complex ** int: repeated squaring (exact for small exponents like NumPy).
        result = arith(l, r);
        if (operand_types) *operand_types = {result, ir::int64()};
        return result;
      }
      operand = result = arith(l, r);
      break;
    case ast::BinOpKind::Div: operand = result = ints ? ir::float64() : float_arith(l, r); break;
    case ast::BinOpKind::FloorDiv:
    case ast::BinOpKind::Mod:
      if (complex) bad();
      operand = result = arith(l, r);
      break;
    case ast::BinOpKind::LShift:
    case ast::BinOpKind::RShift:
      if (!ints) bad();
      // numba: the result has the left operand's signedness, at least 64 bits.
      operand = result = (l->is_integer() && !l->is_signed) ? ir::uint64() : ir::int64();
      break;
    case ast::BinOpKind::BitAnd:
    case ast::BinOpKind::BitOr:
    case ast::BinOpKind::BitXor:
      if (!ints) bad();
      if (l->kind == ir::TypeKind::Boolean && r->kind == ir::TypeKind::Boolean) {
        operand = result = ir::boolean();
      } else {
        operand = result = int_arith(l, r);
        if (!result->is_integer()) bad();
      }
      break;
    case ast::BinOpKind::MatMult: bad();
  }
  if (operand_types) *operand_types = {operand, operand};
  return result;
}

const ir::Type* type_arith(Typer& t, const ast::BinOp& e, ExprInfo& info) {
  (void)info;
  const ir::Type* l = t.type_of(e.left.get());
  const ir::Type* r = t.type_of(e.right.get());
  // Operators on extension types come from the extension API (@overload(operator.add)).
  if (has_extension_operand({l, r})) {
    std::string key = "operator." + operator_name(e.op);
    if (const ir::Type* x = type_builtin_extension(t, &e, key, {e.left.get(), e.right.get()})) return x;
  }
  if (const ir::Type* tt = type_tuple_binop(t, e, l, r)) return tt;
  std::vector<const ir::Type*> operands;
  const ir::Type* result = type_binop_types(t, e.op, l, r, &e, &operands);
  ExprInfo& inf = t.info(&e);
  inf.operand_types = operands;
  if (result == ir::int64()) {
    if (auto folded = fold(e.op, t.constant(e.left.get()), t.constant(e.right.get()))) inf.constant = folded;
  }
  return result;
}

const ir::Type* type_unary(Typer& t, const ast::UnaryOp& e, ExprInfo& info) {
  (void)info;
  const ir::Type* v = t.type_of(e.operand.get());
  if (has_extension_operand({v})) {
    std::string key = "operator." + operator_name(e.op);
    if (const ir::Type* x = type_builtin_extension(t, &e, key, {e.operand.get()})) return x;
  }
  ExprInfo& inf = t.info(&e);
  const auto& c = t.constant(e.operand.get());
  if (e.op == ast::UnaryOpKind::Not) {
    if (!num_or_bool(v) && v->kind != ir::TypeKind::NoneType) {
      t.typing_error(&e, concat("cannot apply 'not' to ", display(v)));
    }
    inf.operand_types = {v};
    if (c && c->kind == ir::ConstValue::Kind::Bool) inf.constant = ir::ConstValue::boolean(!c->b);
    return ir::boolean();
  }
  if (v->kind == ir::TypeKind::NPTimedelta && (e.op == ast::UnaryOpKind::USub || e.op == ast::UnaryOpKind::UAdd)) {
    inf.operand_types = {v};
    return v;
  }
  if (!num_or_bool(v) || ir::is_storage_float(v)) {
    t.typing_error(&e, concat("cannot apply unary '", ast::to_string(e.op), "' to ", display(v)));
  }
  const ir::Type* result;
  if (v->kind == ir::TypeKind::Boolean) {
    result = e.op == ast::UnaryOpKind::Invert ? ir::boolean() : ir::int64();
  } else if (v->is_integer()) {
    result = v->is_signed ? ir::int64() : ir::uint64();
  } else {
    if (e.op == ast::UnaryOpKind::Invert) t.typing_error(&e, concat("cannot apply unary '~' to ", display(v)));
    result = v;
  }
  // numba inverts and negates in the operand's own width, then widens
  // (~uint8(0) is 255, -uint8(215) is 41, -int8(-128) is -128).
  bool in_own_width = (e.op == ast::UnaryOpKind::Invert || e.op == ast::UnaryOpKind::USub) && v->is_integer();
  inf.operand_types = {in_own_width ? v : result};
  if (c && c->kind == ir::ConstValue::Kind::Int && result == ir::int64() && c->type == ir::int64()) {
    if (e.op == ast::UnaryOpKind::USub && c->i != INT64_MIN) inf.constant = ir::ConstValue::integer(-c->i);
    if (e.op == ast::UnaryOpKind::UAdd) inf.constant = *c;
    if (e.op == ast::UnaryOpKind::Invert) inf.constant = ir::ConstValue::integer(~c->i);
  }
  if (c && c->kind == ir::ConstValue::Kind::Float && e.op == ast::UnaryOpKind::USub && c->type == v)
    inf.constant = ir::ConstValue::floating(-c->f, v);
  return result;
}

}  // namespace cuhost::sema
