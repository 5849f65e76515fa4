// loop_jumps: the live `break`/`continue` statements of a while loop's body
// (loop_jumps.h says why numba's types depend on them).
#include "frontend/loop_jumps.h"

#include <optional>

namespace cuhost::frontend {

namespace {

std::optional<double> literal_number(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::UnaryOp) {  // `-1` is a UnaryOp unless folded
    const auto& u = static_cast<const ast::UnaryOp&>(e);
    auto v = literal_number(*u.operand);
    if (!v) return std::nullopt;
    if (u.op == ast::UnaryOpKind::USub) return -*v;
    if (u.op == ast::UnaryOpKind::UAdd) return *v;
    return std::nullopt;
  }
  if (e.kind != ast::ExprKind::Constant) return std::nullopt;
  const auto& c = static_cast<const ast::Constant&>(e).value;
  switch (c.kind) {
    case ir::ConstValue::Kind::Bool: return c.b ? 1.0 : 0.0;
    case ir::ConstValue::Kind::Int: return double(c.i);
    case ir::ConstValue::Kind::UInt: return double(c.u);
    case ir::ConstValue::Kind::Float: return c.f;
    default: return std::nullopt;
  }
}

bool is_none(const ast::Expr& e) {
  return e.kind == ast::ExprKind::Constant &&
         static_cast<const ast::Constant&>(e).value.kind == ir::ConstValue::Kind::None;
}

// The truth of a condition made of literals only, as CPython's compiler or
// numba's first pruning (both before SSA) decides it; nullopt otherwise.
std::optional<bool> literal_truth(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Constant: {
      if (is_none(e)) return false;
      auto v = literal_number(e);
      if (!v) return std::nullopt;
      return *v != 0.0;
    }
    case ast::ExprKind::UnaryOp: {
      const auto& u = static_cast<const ast::UnaryOp&>(e);
      if (u.op != ast::UnaryOpKind::Not) {
        auto v = literal_number(e);
        if (!v) return std::nullopt;
        return *v != 0.0;
      }
      auto v = literal_truth(*u.operand);
      if (!v) return std::nullopt;
      return !*v;
    }
    case ast::ExprKind::BoolOp: {
      const auto& b = static_cast<const ast::BoolOp&>(e);
      for (const auto& v : b.values) {
        auto t = literal_truth(*v);
        if (!t) return std::nullopt;
        if (b.op == ast::BoolOpKind::And && !*t) return false;
        if (b.op == ast::BoolOpKind::Or && *t) return true;
      }
      return b.op == ast::BoolOpKind::And;
    }
    case ast::ExprKind::Compare: {
      const auto& c = static_cast<const ast::Compare&>(e);
      const ast::Expr* left = c.left.get();
      for (size_t k = 0; k < c.ops.size(); ++k) {
        const ast::Expr* right = c.comparators[k].get();
        bool r;
        const auto op = c.ops[k];
        if (op == ast::CompareOpKind::Is || op == ast::CompareOpKind::IsNot) {
          if (!is_none(*left) || !is_none(*right)) return std::nullopt;
          r = op == ast::CompareOpKind::Is;
        } else {
          auto l = literal_number(*left), rv = literal_number(*right);
          if (!l || !rv) return std::nullopt;
          switch (op) {
            case ast::CompareOpKind::Eq: r = *l == *rv; break;
            case ast::CompareOpKind::NotEq: r = *l != *rv; break;
            case ast::CompareOpKind::Lt: r = *l < *rv; break;
            case ast::CompareOpKind::LtE: r = *l <= *rv; break;
            case ast::CompareOpKind::Gt: r = *l > *rv; break;
            case ast::CompareOpKind::GtE: r = *l >= *rv; break;
            default: return std::nullopt;
          }
        }
        if (!r) return false;
        left = right;
      }
      return true;
    }
    default: return std::nullopt;
  }
}

// Counts the live jumps of `body` into `out`; returns whether its end is
// reached.
bool walk(const ast::Body& body, LoopJumps& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Break: ++out.breaks; return false;
      case ast::StmtKind::Continue: ++out.continues; return false;
      case ast::StmtKind::Return:
      case ast::StmtKind::Raise: return false;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        if (auto t = literal_truth(*i.test)) {
          if (!walk(*t ? i.body : i.orelse, out)) return false;
          break;
        }
        const bool a = walk(i.body, out);
        const bool b = walk(i.orelse, out);
        if (!a && !b) return false;
        break;
      }
      default: break;  // nested loops own their jumps
    }
  }
  return true;
}

}  // namespace

LoopJumps loop_jumps(const ast::Body& body) {
  LoopJumps j;
  j.falls_through = walk(body, j);
  return j;
}

}  // namespace cuhost::frontend
