// Facts the lowering needs before emitting code: which array parameters of a
// kernel are only ever read (noalias + readonly + !invariant.load,
// ld.global.nc on the GPU) and which integer locals can never be negative (no wraparound select
// when they index an array: cuda.grid, threadIdx, range(n) counters, ...).
#include <functional>

#include "codegen/lowering/ast_walk.h"
#include "codegen/lowering/definite_assignment.h"
#include "codegen/lowering/lowerer.h"

namespace cuhost::codegen {

void walk_expr(const ast::Expr* e, const ExprVisitor& f) {
  if (!e) return;
  f(e);
  switch (e->kind) {
    case ast::ExprKind::Attribute: walk_expr(static_cast<const ast::Attribute*>(e)->value.get(), f); break;
    case ast::ExprKind::Subscript: {
      auto* s = static_cast<const ast::Subscript*>(e);
      walk_expr(s->value.get(), f);
      walk_expr(s->index.get(), f);
      break;
    }
    case ast::ExprKind::Call: {
      auto* c = static_cast<const ast::Call*>(e);
      walk_expr(c->func.get(), f);
      for (auto& a : c->args) walk_expr(a.get(), f);
      for (auto& k : c->keywords) walk_expr(k.value.get(), f);
      break;
    }
    case ast::ExprKind::BinOp: {
      auto* b = static_cast<const ast::BinOp*>(e);
      walk_expr(b->left.get(), f);
      walk_expr(b->right.get(), f);
      break;
    }
    case ast::ExprKind::UnaryOp: walk_expr(static_cast<const ast::UnaryOp*>(e)->operand.get(), f); break;
    case ast::ExprKind::BoolOp:
      for (auto& v : static_cast<const ast::BoolOp*>(e)->values) walk_expr(v.get(), f);
      break;
    case ast::ExprKind::Compare: {
      auto* c = static_cast<const ast::Compare*>(e);
      walk_expr(c->left.get(), f);
      for (auto& v : c->comparators) walk_expr(v.get(), f);
      break;
    }
    case ast::ExprKind::IfExp: {
      auto* i = static_cast<const ast::IfExp*>(e);
      walk_expr(i->test.get(), f);
      walk_expr(i->body.get(), f);
      walk_expr(i->orelse.get(), f);
      break;
    }
    case ast::ExprKind::Tuple:
      for (auto& v : static_cast<const ast::Tuple*>(e)->elts) walk_expr(v.get(), f);
      break;
    case ast::ExprKind::Slice: {
      auto* s = static_cast<const ast::Slice*>(e);
      walk_expr(s->lower.get(), f);
      walk_expr(s->upper.get(), f);
      walk_expr(s->step.get(), f);
      break;
    }
    default: break;
  }
}

namespace {

using StmtVisitor = std::function<void(const ast::Stmt*)>;

void walk_stmts(const ast::Body& body, const StmtVisitor& f) {
  for (const ast::StmtPtr& s : body) {
    f(s.get());
    switch (s->kind) {
      case ast::StmtKind::If: {
        auto* i = static_cast<const ast::If*>(s.get());
        walk_stmts(i->body, f);
        walk_stmts(i->orelse, f);
        break;
      }
      case ast::StmtKind::While: walk_stmts(static_cast<const ast::While*>(s.get())->body, f); break;
      case ast::StmtKind::For: walk_stmts(static_cast<const ast::For*>(s.get())->body, f); break;
      default: break;
    }
  }
}

// Every expression directly held by a statement (not nested statements).
void stmt_exprs(const ast::Stmt* s, const std::function<void(const ast::Expr*)>& f) {
  switch (s->kind) {
    case ast::StmtKind::Assign: {
      auto* a = static_cast<const ast::Assign*>(s);
      for (auto& t : a->targets) f(t.get());
      f(a->value.get());
      break;
    }
    case ast::StmtKind::AugAssign: {
      auto* a = static_cast<const ast::AugAssign*>(s);
      f(a->target.get());
      f(a->value.get());
      break;
    }
    case ast::StmtKind::If: f(static_cast<const ast::If*>(s)->test.get()); break;
    case ast::StmtKind::While: f(static_cast<const ast::While*>(s)->test.get()); break;
    case ast::StmtKind::For: {
      auto* fo = static_cast<const ast::For*>(s);
      f(fo->target.get());
      f(fo->iter.get());
      break;
    }
    case ast::StmtKind::Return: f(static_cast<const ast::Return*>(s)->value.get()); break;
    case ast::StmtKind::ExprStmt: f(static_cast<const ast::ExprStmt*>(s)->value.get()); break;
    default: break;
  }
}

bool nonneg_intrinsic(const std::string& k) {
  static const char* prefixes[] = {"cuda.threadIdx.", "cuda.blockIdx.", "cuda.blockDim.", "cuda.gridDim."};
  for (const char* p : prefixes)
    if (k.rfind(p, 0) == 0) return true;
  return k == "cuda.laneid" || k == "cuda.warpsize" || k == "cuda.grid" || k == "cuda.gridsize" ||
         k == "builtins.len" || k == "array.size" || k == "array.shape" || k == "cuda.popc" || k == "cuda.clz" ||
         k == "cuda.ffs";
}

}  // namespace

std::string Lowerer::array_name(const ast::Expr* e) const {
  // A view (a[i][j], a[1:][k]) is reported under the array it was cut from.
  while (e && e->kind == ast::ExprKind::Subscript) e = static_cast<const ast::Subscript*>(e)->value.get();
  if (e && e->kind == ast::ExprKind::Name) return static_cast<const ast::Name*>(e)->id;
  return "array";
}

bool Lowerer::is_readonly_array(const ast::Expr* base) const {
  // Only a kernel's parameters: !invariant.load says the memory holds the same
  // value wherever it is readable, and a device function's array (a local
  // array, or a kernel argument the kernel writes) may be written by its
  // caller before and after the call; once inlined, the loads would be
  // assumed to see none of those stores.
  if (!is_kernel_body_ || !base || base->kind != ast::ExprKind::Name) return false;
  const std::string& id = static_cast<const ast::Name*>(base)->id;
  const ast::FunctionDef& def = *tf_.captured->def;
  bool is_param = false;
  for (const ast::Param& p : def.params) is_param |= p.name == id;
  return is_param && !written_names_.count(id);
}

bool Lowerer::is_nonnegative(const ast::Expr* e) const {
  if (!e) return false;
  auto it = tf_.exprs.find(e);
  if (it == tf_.exprs.end()) return false;
  const sema::ExprInfo& inf = it->second;
  if (inf.constant) {
    const ir::ConstValue& c = *inf.constant;
    using CK = ir::ConstValue::Kind;
    if (c.kind == CK::Int) return c.i >= 0;
    if (c.kind == CK::UInt || c.kind == CK::Bool) return true;
    if (c.kind == CK::Tuple) {
      for (const ir::ConstValue& item : c.items)
        if (item.kind == CK::Int && item.i < 0) return false;
      return true;
    }
    return false;
  }
  if (inf.type &&
      (inf.type->kind == ir::TypeKind::Boolean || (inf.type->kind == ir::TypeKind::Integer && !inf.type->is_signed)))
    return true;
  if (!inf.intrinsic.empty() && nonneg_intrinsic(inf.intrinsic)) return true;
  if (inf.intrinsic.rfind("extension.", 0) == 0) return false;  // an overload: nothing known of its result
  switch (e->kind) {
    case ast::ExprKind::Name: return nonneg_locals_.count(static_cast<const ast::Name*>(e)->id) > 0;
    case ast::ExprKind::Subscript: {
      auto* s = static_cast<const ast::Subscript*>(e);
      return inf.intrinsic == "tuple.getitem" && is_nonnegative(s->value.get());
    }
    case ast::ExprKind::BinOp: {
      auto* b = static_cast<const ast::BinOp*>(e);
      if (inf.type && inf.type->kind != ir::TypeKind::Integer) return false;
      switch (b->op) {
        case ast::BinOpKind::Add:
        case ast::BinOpKind::Mult:
        case ast::BinOpKind::FloorDiv:
        case ast::BinOpKind::RShift:
        case ast::BinOpKind::BitOr:
        case ast::BinOpKind::BitXor: return is_nonnegative(b->left.get()) && is_nonnegative(b->right.get());
        case ast::BinOpKind::Mod: return is_nonnegative(b->right.get());
        case ast::BinOpKind::BitAnd: return is_nonnegative(b->left.get()) || is_nonnegative(b->right.get());
        default: return false;
      }
    }
    case ast::ExprKind::Call:
      if (inf.intrinsic == "cast" || inf.intrinsic == "builtins.abs")
        return inf.type && inf.type->kind == ir::TypeKind::Integer && !inf.ordered_args.empty() &&
               (inf.intrinsic == "builtins.abs" || is_nonnegative(inf.ordered_args[0]));
      if (inf.intrinsic == "builtins.min")
        for (const ast::Expr* a : inf.ordered_args)
          if (!is_nonnegative(a)) return false;
      if (inf.intrinsic == "builtins.min") return true;
      if (inf.intrinsic == "builtins.max")
        for (const ast::Expr* a : inf.ordered_args)
          if (is_nonnegative(a)) return true;
      return false;
    case ast::ExprKind::IfExp: {
      auto* i = static_cast<const ast::IfExp*>(e);
      return is_nonnegative(i->body.get()) && is_nonnegative(i->orelse.get());
    }
    case ast::ExprKind::Tuple:
      for (auto& v : static_cast<const ast::Tuple*>(e)->elts)
        if (!is_nonnegative(v.get())) return false;
      return true;
    default: return false;
  }
}

void Lowerer::analyze() {
  const ast::FunctionDef& def = *tf_.captured->def;
  zero_at_entry_ = possibly_unassigned_reads(def);
  // --- arrays written or escaping ---
  std::set<const ast::Expr*> safe_uses;
  std::vector<const ast::Name*> array_names;
  walk_stmts(def.body, [&](const ast::Stmt* s) {
    stmt_exprs(s, [&](const ast::Expr* root) {
      walk_expr(root, [&](const ast::Expr* e) {
        auto it = tf_.exprs.find(e);
        const std::string key = it != tf_.exprs.end() ? it->second.intrinsic : std::string();
        // An element of a record array is a reference the code may write through.
        if (e->kind == ast::ExprKind::Subscript && key == "array.getitem" && it->second.type &&
            it->second.type->kind != ir::TypeKind::Record)
          safe_uses.insert(static_cast<const ast::Subscript*>(e)->value.get());
        // Attributes read the array (a.shape, a.sum()), except those that
        // make a view of its memory the code may write through, and those the
        // extension API implements or provides as methods: those get the array.
        if (e->kind == ast::ExprKind::Attribute) {
          const ir::Type* at = it != tf_.exprs.end() ? it->second.type : nullptr;
          bool extension = key.rfind("extension.", 0) == 0 || (at && at->kind == ir::TypeKind::ExtensionMethod);
          bool aliases =
              key == "array.real" || key == "array.imag" || key == "array.record_field" ||
              (at && at->kind == ir::TypeKind::Intrinsic &&
               (at->key == "array.method.view" || at->key == "array.method.reshape" || at->key == "array.ctypes"));
          if (!aliases && !extension) safe_uses.insert(static_cast<const ast::Attribute*>(e)->value.get());
        }
        if (e->kind == ast::ExprKind::Call && key == "builtins.len")
          for (const ast::Expr* a : it->second.ordered_args) safe_uses.insert(a);
        if (e->kind == ast::ExprKind::Name && it != tf_.exprs.end() && it->second.type &&
            it->second.type->kind == ir::TypeKind::Array)
          array_names.push_back(static_cast<const ast::Name*>(e));
        // Array names used as assignment targets are Name nodes too.
        if (e->kind == ast::ExprKind::Name && tf_.locals.count(static_cast<const ast::Name*>(e)->id) &&
            tf_.locals.at(static_cast<const ast::Name*>(e)->id)->kind == ir::TypeKind::Array)
          array_names.push_back(static_cast<const ast::Name*>(e));
      });
    });
  });
  for (const ast::Name* n : array_names)
    if (!safe_uses.count(n)) written_names_.insert(n->id);
  for (size_t p = 0; p < def.params.size() && p < tf_.arg_types.size(); ++p) {
    const ir::Type* t = tf_.arg_types[p];
    if (t->kind == ir::TypeKind::Array && t->readonly) written_names_.erase(def.params[p].name);
  }

  // --- non-negative integer locals: optimistic fixed point ---
  std::set<std::string> params;
  for (const ast::Param& p : def.params) params.insert(p.name);
  for (auto& [name, t] : tf_.locals) {
    if (params.count(name)) continue;
    if (t->kind == ir::TypeKind::Integer || t->kind == ir::TypeKind::Tuple) nonneg_locals_.insert(name);
  }
  for (bool changed = true; changed;) {
    changed = false;
    auto kill = [&](const std::string& name) { changed |= nonneg_locals_.erase(name) > 0; };
    std::function<void(const ast::Expr*, bool)> assign = [&](const ast::Expr* target, bool nonneg) {
      if (target->kind == ast::ExprKind::Name) {
        if (!nonneg) kill(static_cast<const ast::Name*>(target)->id);
      } else if (target->kind == ast::ExprKind::Tuple) {
        for (auto& t : static_cast<const ast::Tuple*>(target)->elts) assign(t.get(), nonneg);
      }
    };
    walk_stmts(def.body, [&](const ast::Stmt* s) {
      switch (s->kind) {
        case ast::StmtKind::Assign: {
          auto* a = static_cast<const ast::Assign*>(s);
          for (auto& t : a->targets) {
            if (t->kind == ast::ExprKind::Tuple && a->value->kind == ast::ExprKind::Tuple) {
              auto* tt = static_cast<const ast::Tuple*>(t.get());
              auto* vt = static_cast<const ast::Tuple*>(a->value.get());
              for (size_t i = 0; i < tt->elts.size() && i < vt->elts.size(); ++i)
                assign(tt->elts[i].get(), is_nonnegative(vt->elts[i].get()));
            } else {
              assign(t.get(), is_nonnegative(a->value.get()));
            }
          }
          break;
        }
        case ast::StmtKind::AugAssign: {
          auto* a = static_cast<const ast::AugAssign*>(s);
          bool keeps =
              (a->op == ast::BinOpKind::Add || a->op == ast::BinOpKind::Mult || a->op == ast::BinOpKind::FloorDiv ||
               a->op == ast::BinOpKind::RShift || a->op == ast::BinOpKind::BitOr) &&
              is_nonnegative(a->value.get());
          if (a->op == ast::BinOpKind::BitAnd && is_nonnegative(a->value.get())) keeps = true;
          assign(a->target.get(), keeps);
          break;
        }
        case ast::StmtKind::For: {
          auto* f = static_cast<const ast::For*>(s);
          auto it = tf_.exprs.find(f->iter.get());
          bool ok = false;
          if (it != tf_.exprs.end() && it->second.intrinsic == "builtins.range") {
            const auto& args = it->second.ordered_args;
            const ast::Expr* start = args.size() > 0 ? args[0] : nullptr;
            const ast::Expr* step = args.size() > 2 ? args[2] : nullptr;
            ok = (!start || is_nonnegative(start)) && (!step || is_nonnegative(step));
          }
          assign(f->target.get(), ok);
          break;
        }
        default: break;
      }
    });
  }
}

}  // namespace cuhost::codegen
