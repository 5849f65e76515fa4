// Factories and Python-like repr() of compile-time constants. The repr is
// what error messages and dumps show, so it follows Python's spelling.
#include "ir/constant.h"

#include "support/python_repr.h"

namespace cuhost::ir {

ConstValue ConstValue::none() {
  ConstValue v;
  v.kind = Kind::None;
  v.type = none_type();
  return v;
}

ConstValue ConstValue::boolean(bool b) {
  ConstValue v;
  v.kind = Kind::Bool;
  v.b = b;
  v.type = ir::boolean();
  return v;
}

ConstValue ConstValue::integer(std::int64_t i, const Type* t) {
  ConstValue v;
  v.kind = Kind::Int;
  v.i = i;
  v.u = static_cast<std::uint64_t>(i);
  v.type = t ? t : int64();
  return v;
}

ConstValue ConstValue::unsigned_integer(std::uint64_t u, const Type* t) {
  ConstValue v;
  v.kind = Kind::UInt;
  v.u = u;
  v.i = static_cast<std::int64_t>(u);
  v.type = t ? t : uint64();
  return v;
}

ConstValue ConstValue::floating(double f, const Type* t) {
  ConstValue v;
  v.kind = Kind::Float;
  v.f = f;
  v.type = t ? t : float64();
  return v;
}

ConstValue ConstValue::complex(std::complex<double> c, const Type* t) {
  ConstValue v;
  v.kind = Kind::Complex;
  v.c = c;
  v.type = t ? t : complex128();
  return v;
}

ConstValue ConstValue::string(std::string s) {
  ConstValue v;
  v.kind = Kind::String;
  v.type = string_literal(s);
  v.s = std::move(s);
  return v;
}

ConstValue ConstValue::bytes(std::string s) {
  ConstValue v;
  v.kind = Kind::String;
  v.type = bytes_literal(s);
  v.s = std::move(s);
  return v;
}

ConstValue ConstValue::tuple(std::vector<ConstValue> items) {
  ConstValue v;
  v.kind = Kind::Tuple;
  std::vector<const Type*> types;
  for (const ConstValue& item : items) types.push_back(item.type);
  v.type = ir::tuple(types);
  v.items = std::move(items);
  return v;
}

std::string ConstValue::repr() const {
  switch (kind) {
    case Kind::None: return "None";
    case Kind::Bool: return b ? "True" : "False";
    case Kind::Int: return std::to_string(i);
    case Kind::UInt: return std::to_string(u);
    case Kind::Float: return python_float_repr(f);
    case Kind::Complex:
      return "(" + python_float_repr(c.real()) + (c.imag() < 0 ? "" : "+") + python_float_repr(c.imag()) + "j)";
    case Kind::String: {
      std::string out = "'";
      for (char ch : s) {
        if (ch == '\'' || ch == '\\') out += '\\';
        out += ch;
      }
      return out + "'";
    }
    case Kind::Tuple: {
      std::string out = "(";
      for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + items[k].repr();
      if (items.size() == 1) out += ",";
      return out + ")";
    }
  }
  return "?";
}

}  // namespace cuhost::ir
