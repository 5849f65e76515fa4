// Which barrier kernels loop fission (cpu_fission.cpp) may take: a walk over
// the typed AST that accepts barriers only as whole statements in structured
// control flow and refuses everything it is not sure about, so those kernels
// keep the fiber path.
#include <cstdlib>
#include <cstring>
#include <set>

#include "codegen/cpu_fission.h"
#include "frontend/ast.h"
#include "frontend/captured.h"

namespace cuhost::codegen {
namespace {

bool is_barrier_key(const std::string& k) {
  return k == "cuda.syncthreads" || k == "cuda.syncthreads_count" || k == "cuda.syncthreads_and" ||
         k == "cuda.syncthreads_or";
}

class FissionCheck {
 public:
  explicit FissionCheck(const sema::TypedFunction& tf) : tf_(tf) {}

  bool run() {
    const ast::FunctionDef& def = *tf_.captured->def;
    return body_ok(def.body);
  }

 private:
  const std::string& intrinsic(const ast::Expr* e) const {
    static const std::string none;
    auto it = tf_.exprs.find(e);
    return it == tf_.exprs.end() ? none : it->second.intrinsic;
  }

  bool is_barrier_call(const ast::Expr* e, bool op_only) const {
    if (!e || e->kind != ast::ExprKind::Call) return false;
    const std::string& k = intrinsic(e);
    if (!is_barrier_key(k)) return false;
    return !op_only || k != "cuda.syncthreads";
  }

  // Any barrier anywhere inside e.
  bool has_barrier(const ast::Expr* e) const {
    if (!e) return false;
    if (e->kind == ast::ExprKind::Call && is_barrier_key(intrinsic(e))) return true;
    switch (e->kind) {
      case ast::ExprKind::Attribute: return has_barrier(static_cast<const ast::Attribute*>(e)->value.get());
      case ast::ExprKind::Subscript: {
        auto* s = static_cast<const ast::Subscript*>(e);
        return has_barrier(s->value.get()) || has_barrier(s->index.get());
      }
      case ast::ExprKind::Call: {
        auto* c = static_cast<const ast::Call*>(e);
        if (has_barrier(c->func.get())) return true;
        for (auto& a : c->args)
          if (has_barrier(a.get())) return true;
        for (auto& k : c->keywords)
          if (has_barrier(k.value.get())) return true;
        return false;
      }
      case ast::ExprKind::BinOp: {
        auto* b = static_cast<const ast::BinOp*>(e);
        return has_barrier(b->left.get()) || has_barrier(b->right.get());
      }
      case ast::ExprKind::UnaryOp: return has_barrier(static_cast<const ast::UnaryOp*>(e)->operand.get());
      case ast::ExprKind::BoolOp:
        for (auto& v : static_cast<const ast::BoolOp*>(e)->values)
          if (has_barrier(v.get())) return true;
        return false;
      case ast::ExprKind::Compare: {
        auto* c = static_cast<const ast::Compare*>(e);
        if (has_barrier(c->left.get())) return true;
        for (auto& v : c->comparators)
          if (has_barrier(v.get())) return true;
        return false;
      }
      case ast::ExprKind::IfExp: {
        auto* i = static_cast<const ast::IfExp*>(e);
        return has_barrier(i->test.get()) || has_barrier(i->body.get()) || has_barrier(i->orelse.get());
      }
      case ast::ExprKind::Tuple:
        for (auto& v : static_cast<const ast::Tuple*>(e)->elts)
          if (has_barrier(v.get())) return true;
        return false;
      case ast::ExprKind::Slice: {
        auto* s = static_cast<const ast::Slice*>(e);
        return has_barrier(s->lower.get()) || has_barrier(s->upper.get()) || has_barrier(s->step.get());
      }
      default: return false;
    }
  }

  bool body_has_barrier(const ast::Body& body) const {
    for (const ast::StmtPtr& s : body)
      if (stmt_has_barrier(s.get())) return true;
    return false;
  }

  bool stmt_has_barrier(const ast::Stmt* s) const {
    switch (s->kind) {
      case ast::StmtKind::Assign: {
        auto* a = static_cast<const ast::Assign*>(s);
        for (auto& t : a->targets)
          if (has_barrier(t.get())) return true;
        return has_barrier(a->value.get());
      }
      case ast::StmtKind::AugAssign: {
        auto* a = static_cast<const ast::AugAssign*>(s);
        return has_barrier(a->target.get()) || has_barrier(a->value.get());
      }
      case ast::StmtKind::If: {
        auto* i = static_cast<const ast::If*>(s);
        return has_barrier(i->test.get()) || body_has_barrier(i->body) || body_has_barrier(i->orelse);
      }
      case ast::StmtKind::While: {
        auto* w = static_cast<const ast::While*>(s);
        return has_barrier(w->test.get()) || body_has_barrier(w->body);
      }
      case ast::StmtKind::For: {
        auto* f = static_cast<const ast::For*>(s);
        return has_barrier(f->iter.get()) || body_has_barrier(f->body);
      }
      case ast::StmtKind::Return: return has_barrier(static_cast<const ast::Return*>(s)->value.get());
      case ast::StmtKind::ExprStmt: return has_barrier(static_cast<const ast::ExprStmt*>(s)->value.get());
      default: return false;
    }
  }

  // A break/continue that leaves (or restarts) the loop whose body this is,
  // not counting the bodies of nested loops.
  static bool jumps_out(const ast::Body& body) {
    for (const ast::StmtPtr& s : body) {
      switch (s->kind) {
        case ast::StmtKind::Break:
        case ast::StmtKind::Continue: return true;
        case ast::StmtKind::If: {
          auto* i = static_cast<const ast::If*>(s.get());
          if (jumps_out(i->body) || jumps_out(i->orelse)) return true;
          break;
        }
        default: break;
      }
    }
    return false;
  }

  bool body_ok(const ast::Body& body) const {
    for (const ast::StmtPtr& s : body)
      if (!stmt_ok(s.get())) return false;
    return true;
  }

  bool stmt_ok(const ast::Stmt* s) const {
    switch (s->kind) {
      case ast::StmtKind::ExprStmt: {
        auto* e = static_cast<const ast::ExprStmt*>(s)->value.get();
        if (e->kind == ast::ExprKind::Call && intrinsic(e) == "cuda.syncthreads") return true;
        return !has_barrier(e);
      }
      case ast::StmtKind::Assign: {
        auto* a = static_cast<const ast::Assign*>(s);
        if (a->targets.size() == 1 && !has_barrier(a->targets[0].get()) && is_barrier_call(a->value.get(), true)) {
          auto* c = static_cast<const ast::Call*>(a->value.get());
          for (auto& arg : c->args)
            if (has_barrier(arg.get())) return false;
          for (auto& k : c->keywords)
            if (has_barrier(k.value.get())) return false;
          return true;
        }
        return !stmt_has_barrier(s);
      }
      case ast::StmtKind::If: {
        auto* i = static_cast<const ast::If*>(s);
        return !has_barrier(i->test.get()) && body_ok(i->body) && body_ok(i->orelse);
      }
      case ast::StmtKind::While: {
        auto* w = static_cast<const ast::While*>(s);
        if (has_barrier(w->test.get()) || !body_ok(w->body)) return false;
        return !body_has_barrier(w->body) || !jumps_out(w->body);
      }
      case ast::StmtKind::For: {
        auto* f = static_cast<const ast::For*>(s);
        if (!body_has_barrier(f->body)) return !has_barrier(f->iter.get());
        if (intrinsic(f->iter.get()) != "builtins.range" || has_barrier(f->iter.get())) return false;
        return body_ok(f->body) && !jumps_out(f->body);
      }
      default: return !stmt_has_barrier(s);
    }
  }

  const sema::TypedFunction& tf_;
};

bool callees_free_of_sync(const sema::TypedFunction& tf, std::set<const sema::TypedFunction*>& seen) {
  for (const auto& c : tf.callees) {
    if (!seen.insert(c.get()).second) continue;
    if (c->uses_barriers || c->uses_warp_ops) return false;
    if (!callees_free_of_sync(*c, seen)) return false;
  }
  return true;
}

}  // namespace

bool cpu_fission_enabled() {
  const char* v = std::getenv("CUHOST_CPU_FISSION");
  return !(v && std::strcmp(v, "0") == 0);
}

bool fission_supported(const sema::TypedFunction& tf) {
  if (!tf.uses_barriers || tf.uses_warp_ops || tf.uses_grid_sync || !tf.captured || !tf.captured->def) return false;
  std::set<const sema::TypedFunction*> seen;
  if (!callees_free_of_sync(tf, seen)) return false;
  return FissionCheck(tf).run();
}

}  // namespace cuhost::codegen
