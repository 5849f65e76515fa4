// Accessors of a typed specialization: lowering asks info() for every
// expression, and a missing entry is an engine bug, not a user error.
#include "sema/typed_function.h"

namespace cuhost::sema {

std::optional<bool> constant_truth(const std::optional<ir::ConstValue>& c) {
  if (!c) return std::nullopt;
  using K = ir::ConstValue::Kind;
  switch (c->kind) {
    case K::Bool: return c->b;
    case K::Int: return c->i != 0;
    case K::UInt: return c->u != 0;
    case K::None: return false;
    case K::Float: return c->f != 0.0;  // nan is true, as in Python
    case K::Complex: return c->c != std::complex<double>(0, 0);
    case K::String: return !c->s.empty();
    case K::Tuple: return !c->items.empty();
  }
  return std::nullopt;
}

const ExprInfo& TypedFunction::info(const ast::Expr* e) const {
  auto it = exprs.find(e);
  CUHOST_CHECK(it != exprs.end()) << "expression at line " << (e ? e->loc.line : 0) << ":" << (e ? e->loc.column : 0)
                                  << " of '" << (captured ? captured->name : std::string("?")) << "' was not typed";
  return it->second;
}

std::string TypedFunction::signature() const {
  std::string out = "(";
  for (size_t i = 0; i < arg_types.size(); ++i) {
    if (i) out += ", ";
    out += arg_types[i]->str();
  }
  out += ") -> ";
  out += return_type ? return_type->str() : "none";
  return out;
}

}  // namespace cuhost::sema
