// loop_jumps: the live `break`/`continue` statements of a while loop's body
// (loop_jumps.h says why numba's types depend on them).
#include "frontend/loop_jumps.h"

#include <optional>

#include "frontend/ssa_versions.h"

namespace cuhost::frontend {

namespace {

std::optional<double> literal_number(const ast::Expr& e, const SingleConstants& k) {
  if (e.kind == ast::ExprKind::UnaryOp) {  // `-1` is a UnaryOp unless folded
    const auto& u = static_cast<const ast::UnaryOp&>(e);
    auto v = literal_number(*u.operand, k);
    if (!v) return std::nullopt;
    if (u.op == ast::UnaryOpKind::USub) return -*v;
    if (u.op == ast::UnaryOpKind::UAdd) return *v;
    return std::nullopt;
  }
  const ir::ConstValue* cv = nullptr;
  if (e.kind == ast::ExprKind::Constant) cv = &static_cast<const ast::Constant&>(e).value;
  if (e.kind == ast::ExprKind::Name) {
    auto it = k.find(static_cast<const ast::Name&>(e).id);
    if (it != k.end()) cv = &it->second;
  }
  if (!cv) return std::nullopt;
  const ir::ConstValue& c = *cv;
  switch (c.kind) {
    case ir::ConstValue::Kind::Bool: return c.b ? 1.0 : 0.0;
    case ir::ConstValue::Kind::Int: return double(c.i);
    case ir::ConstValue::Kind::UInt: return double(c.u);
    case ir::ConstValue::Kind::Float: return c.f;
    default: return std::nullopt;
  }
}

bool is_none(const ast::Expr& e, const SingleConstants& k) {
  if (e.kind == ast::ExprKind::Name) {
    auto it = k.find(static_cast<const ast::Name&>(e).id);
    return it != k.end() && it->second.kind == ir::ConstValue::Kind::None;
  }
  return e.kind == ast::ExprKind::Constant &&
         static_cast<const ast::Constant&>(e).value.kind == ir::ConstValue::Kind::None;
}

// The truth of a condition made of literals only, as CPython's compiler or
// numba's first pruning (both before SSA) decides it; nullopt otherwise.
std::optional<bool> literal_truth(const ast::Expr& e, const SingleConstants& k) {
  switch (e.kind) {
    case ast::ExprKind::Constant:
    case ast::ExprKind::Name: {
      if (is_none(e, k)) return false;
      auto v = literal_number(e, k);
      if (!v) return std::nullopt;
      return *v != 0.0;
    }
    case ast::ExprKind::UnaryOp: {
      const auto& u = static_cast<const ast::UnaryOp&>(e);
      if (u.op != ast::UnaryOpKind::Not) {
        auto v = literal_number(e, k);
        if (!v) return std::nullopt;
        return *v != 0.0;
      }
      auto v = literal_truth(*u.operand, k);
      if (!v) return std::nullopt;
      return !*v;
    }
    case ast::ExprKind::BoolOp: {
      const auto& b = static_cast<const ast::BoolOp&>(e);
      for (const auto& v : b.values) {
        auto t = literal_truth(*v, k);
        if (!t) return std::nullopt;
        if (b.op == ast::BoolOpKind::And && !*t) return false;
        if (b.op == ast::BoolOpKind::Or && *t) return true;
      }
      return b.op == ast::BoolOpKind::And;
    }
    case ast::ExprKind::Compare: {
      const auto& c = static_cast<const ast::Compare&>(e);
      const ast::Expr* left = c.left.get();
      for (size_t n = 0; n < c.ops.size(); ++n) {
        const ast::Expr* right = c.comparators[n].get();
        bool r;
        const auto op = c.ops[n];
        if (op == ast::CompareOpKind::Is || op == ast::CompareOpKind::IsNot) {
          if (!is_none(*left, k) || !is_none(*right, k)) return std::nullopt;
          r = op == ast::CompareOpKind::Is;
        } else {
          auto l = literal_number(*left, k), rv = literal_number(*right, k);
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
bool walk(const ast::Body& body, const SingleConstants& k, LoopJumps& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Break: ++out.breaks; return false;
      case ast::StmtKind::Continue: ++out.continues; return false;
      case ast::StmtKind::Return:
      case ast::StmtKind::Raise: return false;
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(*s);
        if (auto t = literal_truth(*i.test, k)) {
          if (!walk(*t ? i.body : i.orelse, k, out)) return false;
          break;
        }
        const bool a = walk(i.body, k, out);
        const bool b = walk(i.orelse, k, out);
        if (!a && !b) return false;
        break;
      }
      default: break;  // nested loops own their jumps
    }
  }
  return true;
}

void literal_assignments(const ast::Body& body, SingleConstants& out) {
  for (const auto& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        const auto& a = static_cast<const ast::Assign&>(*s);
        if (a.value->kind != ast::ExprKind::Constant) break;
        for (const auto& t : a.targets)
          if (t->kind == ast::ExprKind::Name)
            out[static_cast<const ast::Name&>(*t).id] = static_cast<const ast::Constant&>(*a.value).value;
        break;
      }
      case ast::StmtKind::If:
        literal_assignments(static_cast<const ast::If&>(*s).body, out);
        literal_assignments(static_cast<const ast::If&>(*s).orelse, out);
        break;
      case ast::StmtKind::While: literal_assignments(static_cast<const ast::While&>(*s).body, out); break;
      case ast::StmtKind::For: literal_assignments(static_cast<const ast::For&>(*s).body, out); break;
      default: break;
    }
  }
}

}  // namespace

SingleConstants single_definition_constants(const ast::FunctionDef& def) {
  std::map<std::string, int> counts;
  count_assignments(def.body, counts);
  for (const auto& p : def.params) ++counts[p.name];
  SingleConstants all, out;
  literal_assignments(def.body, all);
  for (auto& [id, value] : all) {
    if (counts[id] != 1) continue;
    bool other_versions = false;
    for (const auto& [name, n] : counts)
      if (name != id && source_variable_name(name) == id) other_versions = true;
    if (!other_versions) out.emplace(id, value);
  }
  return out;
}

LoopJumps loop_jumps(const ast::Body& body, const SingleConstants& constants) {
  LoopJumps j;
  j.falls_through = walk(body, constants, j);
  return j;
}

}  // namespace cuhost::frontend
