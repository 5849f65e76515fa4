// Which locals a function may read before every path assigned them. Only
// those are zeroed at entry (numba's behaviour for such reads); a store of
// zero to every local would make each one look defined before the first
// barrier, so the CPU backend's loop fission (cpu_fission.cpp) would keep
// every local of every thread alive across every barrier.
//
// A forward pass over the structured AST with the set of names definitely
// assigned: `if` joins by intersection; a loop's body starts from the set at
// loop entry (a name assigned later in the body is not yet assigned at its
// first iteration) and adds nothing after the loop, which may run zero times
// (a `for` target included); `break`, `continue` and `return` end a path,
// which then takes no part in the join.
#include "codegen/lowering/definite_assignment.h"

#include "codegen/lowering/ast_walk.h"

namespace cuhost::codegen {
namespace {

class Walker {
 public:
  std::set<std::string> unsafe;  // names read where not definitely assigned

  // Walks `body` from the assigned set `in`; returns false when no path
  // falls through its end (then `in` is meaningless).
  bool block(const ast::Body& body, std::set<std::string>& in) {
    for (const ast::StmtPtr& s : body)
      if (!stmt(s.get(), in)) return false;
    return true;
  }

 private:
  // Every name `e` reads that is not assigned yet.
  void reads(const ast::Expr* e, const std::set<std::string>& in) {
    walk_expr(e, [&](const ast::Expr* x) {
      if (x->kind != ast::ExprKind::Name) return;
      const std::string& id = static_cast<const ast::Name*>(x)->id;
      if (!in.count(id)) unsafe.insert(id);
    });
  }

  // An assignment target: names are assigned; subscripts read their parts.
  void target(const ast::Expr* t, std::set<std::string>& in) {
    if (t->kind == ast::ExprKind::Name) {
      in.insert(static_cast<const ast::Name*>(t)->id);
    } else if (t->kind == ast::ExprKind::Tuple) {
      for (const auto& el : static_cast<const ast::Tuple*>(t)->elts) target(el.get(), in);
    } else {
      reads(t, in);
    }
  }

  bool stmt(const ast::Stmt* s, std::set<std::string>& in) {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        auto* a = static_cast<const ast::Assign*>(s);
        reads(a->value.get(), in);
        for (const auto& t : a->targets) target(t.get(), in);
        return true;
      }
      case ast::StmtKind::AugAssign: {
        auto* a = static_cast<const ast::AugAssign*>(s);
        reads(a->value.get(), in);
        reads(a->target.get(), in);  // x += v reads x
        target(a->target.get(), in);
        return true;
      }
      case ast::StmtKind::If: {
        auto* i = static_cast<const ast::If*>(s);
        reads(i->test.get(), in);
        std::set<std::string> then_set = in, else_set = in;
        const bool then_falls = block(i->body, then_set);
        const bool else_falls = block(i->orelse, else_set);
        if (!then_falls && !else_falls) return false;
        if (!then_falls) {
          in = else_set;
        } else if (!else_falls) {
          in = then_set;
        } else {
          std::set<std::string> both;
          for (const std::string& n : then_set)
            if (else_set.count(n)) both.insert(n);
          in = both;
        }
        return true;
      }
      case ast::StmtKind::While: {
        auto* w = static_cast<const ast::While*>(s);
        reads(w->test.get(), in);
        std::set<std::string> body_set = in;
        block(w->body, body_set);
        return true;
      }
      case ast::StmtKind::For: {
        auto* f = static_cast<const ast::For*>(s);
        reads(f->iter.get(), in);
        std::set<std::string> body_set = in;
        target(f->target.get(), body_set);
        block(f->body, body_set);
        return true;
      }
      case ast::StmtKind::Return: reads(static_cast<const ast::Return*>(s)->value.get(), in); return false;
      case ast::StmtKind::Break:
      case ast::StmtKind::Continue: return false;
      case ast::StmtKind::ExprStmt: reads(static_cast<const ast::ExprStmt*>(s)->value.get(), in); return true;
      case ast::StmtKind::Pass: return true;
      case ast::StmtKind::Raise: reads(static_cast<const ast::Raise*>(s)->exc.get(), in); return false;
    }
    return true;
  }
};

}  // namespace

std::set<std::string> possibly_unassigned_reads(const ast::FunctionDef& def) {
  Walker w;
  std::set<std::string> assigned;
  for (const ast::Param& p : def.params) assigned.insert(p.name);
  w.block(def.body, assigned);
  return w.unsafe;
}

}  // namespace cuhost::codegen
