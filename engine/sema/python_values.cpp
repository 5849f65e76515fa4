// Python's own semantics on compile-time constants, as numba evaluates
// them while pruning branches: bool() of a constant, operators on number
// literals (unbounded integers, kept here within 64 bits), comparisons.
#include "sema/python_values.h"

#include <cmath>

namespace cuhost::sema {

namespace {

using K = ir::ConstValue::Kind;
using Value = ir::ConstValue;
using i128 = __int128;

bool is_int_like(const Value& v) { return v.kind == K::Bool || v.kind == K::Int || v.kind == K::UInt; }
bool is_number(const Value& v) { return is_int_like(v) || v.kind == K::Float; }
i128 as_int(const Value& v) {
  if (v.kind == K::Bool) return v.b ? 1 : 0;
  if (v.kind == K::UInt) return static_cast<i128>(v.u);
  return v.i;
}
long double as_real(const Value& v) {
  return v.kind == K::Float ? static_cast<long double>(v.f) : static_cast<long double>(as_int(v));
}

// An integer result as numba types the folded literal (int64, else uint64);
// CPython folds with unbounded ints, and numba refuses wider values, so
// those are left unfolded here.
std::optional<Value> int_value(i128 r) {
  if (r >= INT64_MIN && r <= INT64_MAX) return Value::integer(static_cast<std::int64_t>(r));
  if (r > INT64_MAX && r <= static_cast<i128>(UINT64_MAX))
    return Value::unsigned_integer(static_cast<std::uint64_t>(r));
  return std::nullopt;
}

i128 floor_div(i128 a, i128 b) {
  i128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::optional<bool> truth(const Value& v) {
  switch (v.kind) {
    case K::None: return false;
    case K::Bool: return v.b;
    case K::Int: return v.i != 0;
    case K::UInt: return v.u != 0;
    case K::Float: return v.f != 0.0;  // nan is true
    case K::Complex: return v.c != std::complex<double>(0, 0);
    case K::String: return !v.s.empty();
    case K::Tuple: return !v.items.empty();
  }
  return std::nullopt;
}

std::optional<Value> fold_binop(ast::BinOpKind op, const Value& a, const Value& b) {
  using B = ast::BinOpKind;
  if (!is_number(a) || !is_number(b)) return std::nullopt;
  if (is_int_like(a) && is_int_like(b)) {
    i128 x = as_int(a), y = as_int(b);
    const i128 limit = static_cast<i128>(1) << 100;  // no i128 overflow below
    switch (op) {
      case B::Add: return int_value(x + y);
      case B::Sub: return int_value(x - y);
      case B::Mult:
        if ((x > limit || x < -limit) || (y > limit || y < -limit)) return std::nullopt;
        if (x != 0 && (y > limit / (x < 0 ? -x : x) || y < -limit / (x < 0 ? -x : x))) return std::nullopt;
        return int_value(x * y);
      case B::FloorDiv:
        if (y == 0) return std::nullopt;
        return int_value(floor_div(x, y));
      case B::Mod:
        if (y == 0) return std::nullopt;
        return int_value(x - floor_div(x, y) * y);
      case B::Div:
        if (y == 0) return std::nullopt;
        return Value::floating(static_cast<double>(static_cast<long double>(x) / static_cast<long double>(y)));
      case B::BitAnd: return int_value(x & y);
      case B::BitOr: return int_value(x | y);
      case B::BitXor: return int_value(x ^ y);
      case B::LShift:
        if (y < 0 || y > 64) return std::nullopt;
        if (x > limit || x < -limit) return std::nullopt;
        return int_value(x * (static_cast<i128>(1) << static_cast<int>(y)));
      case B::RShift:
        if (y < 0) return std::nullopt;
        return int_value(y >= 120 ? (x < 0 ? -1 : 0) : (x >> static_cast<int>(y)));
      case B::Pow: {
        if (y < 0 || y > 128) return std::nullopt;  // a negative exponent gives a float: not folded here
        i128 r = 1;
        for (i128 k = 0; k < y; ++k) {
          if (r > limit || r < -limit || (x != 0 && (x > limit || x < -limit))) return std::nullopt;
          r *= x;
        }
        return int_value(r);
      }
      default: return std::nullopt;
    }
  }
  double x = static_cast<double>(as_real(a)), y = static_cast<double>(as_real(b));
  switch (op) {
    case B::Add: return Value::floating(x + y);
    case B::Sub: return Value::floating(x - y);
    case B::Mult: return Value::floating(x * y);
    case B::Div:
      if (y == 0.0) return std::nullopt;
      return Value::floating(x / y);
    default: return std::nullopt;  // float // % ** are not needed for a truth
  }
}

std::optional<Value> fold_unary(ast::UnaryOpKind op, const Value& v) {
  using U = ast::UnaryOpKind;
  if (op == U::Not) {
    auto t = truth(v);
    if (!t) return std::nullopt;
    return Value::boolean(!*t);
  }
  if (is_int_like(v)) {
    if (op == U::USub) return int_value(-as_int(v));
    if (op == U::UAdd) return int_value(as_int(v));
    if (op == U::Invert) return int_value(-as_int(v) - 1);
  }
  if (v.kind == K::Float) {
    if (op == U::USub) return Value::floating(-v.f);
    if (op == U::UAdd) return v;
  }
  return std::nullopt;
}

// Python's `a op b` of two constants where Python answers without raising
// (numba catches the exception and leaves the branch); None is numba's
// NoneType there, equal only to itself.
std::optional<bool> compare_values(const Value& a, ast::CompareOpKind op, const Value& b) {
  using C = ast::CompareOpKind;
  auto equal = [&]() -> std::optional<bool> {
    if (a.kind == K::None || b.kind == K::None) return a.kind == b.kind;
    if (is_number(a) && is_number(b)) {
      if (is_int_like(a) && is_int_like(b)) return as_int(a) == as_int(b);
      return as_real(a) == as_real(b);
    }
    if (a.kind == K::String && b.kind == K::String) return a.type == b.type && a.s == b.s;
    if (a.kind == K::Tuple && b.kind == K::Tuple) {
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i) {
        auto e = compare_values(a.items[i], C::Eq, b.items[i]);
        if (!e) return std::nullopt;
        if (!*e) return false;
      }
      return true;
    }
    if (a.kind == K::Complex || b.kind == K::Complex) return std::nullopt;
    return false;  // values of unrelated kinds are unequal
  };
  switch (op) {
    case C::Eq: return equal();
    case C::NotEq: {
      auto e = equal();
      if (!e) return std::nullopt;
      return !*e;
    }
    case C::Is:
    case C::IsNot: {
      // Constants of one code object are one object when equal and of one kind.
      auto e = a.kind == b.kind ? equal() : std::optional<bool>(false);
      if (!e) return std::nullopt;
      return op == C::Is ? *e : !*e;
    }
    case C::Lt:
    case C::LtE:
    case C::Gt:
    case C::GtE: {
      int order;
      if (is_number(a) && is_number(b)) {
        if (a.kind == K::Float && std::isnan(a.f)) return false;
        if (b.kind == K::Float && std::isnan(b.f)) return false;
        if (is_int_like(a) && is_int_like(b)) {
          order = as_int(a) < as_int(b) ? -1 : as_int(a) > as_int(b) ? 1 : 0;
        } else {
          order = as_real(a) < as_real(b) ? -1 : as_real(a) > as_real(b) ? 1 : 0;
        }
      } else if (a.kind == K::String && b.kind == K::String && a.type == b.type) {
        order = a.s.compare(b.s) < 0 ? -1 : a.s == b.s ? 0 : 1;  // UTF-8 keeps code point order
      } else {
        return std::nullopt;  // TypeError in Python (None, mixed kinds), or tuples: not decided
      }
      if (op == C::Lt) return order < 0;
      if (op == C::LtE) return order <= 0;
      if (op == C::Gt) return order > 0;
      return order >= 0;
    }
    case C::In:
    case C::NotIn: {
      std::optional<bool> found;
      if (b.kind == K::Tuple) {
        found = false;
        for (const Value& item : b.items) {
          auto e = compare_values(a, C::Eq, item);
          if (!e) return std::nullopt;
          if (*e) found = true;
        }
      } else if (a.kind == K::String && b.kind == K::String && a.type == b.type) {
        found = b.s.find(a.s) != std::string::npos;
      }
      if (!found) return std::nullopt;
      return op == C::In ? *found : !*found;
    }
  }
  return std::nullopt;
}

}  // namespace cuhost::sema
