// Recognition of grid-stride loops (see grid_stride.h) from the typed AST.
#include "codegen/lowering/grid_stride.h"

#include <llvm/IR/Instruction.h>
#include <llvm/IR/Metadata.h>

#include "codegen/lowering/lowerer.h"

namespace cuhost::codegen {
namespace {

bool is_name(const ast::Expr* e, const std::string& id) {
  return e && e->kind == ast::ExprKind::Name && static_cast<const ast::Name*>(e)->id == id;
}

// An array's size, one of its shape entries, or len() of it.
bool is_array_extent(Lowerer& l, const ast::Expr* e) {
  if (!e) return false;
  const sema::ExprInfo& inf = l.info(e);
  if (inf.intrinsic == "array.size") return true;
  if (e->kind == ast::ExprKind::Subscript)
    return l.info(static_cast<const ast::Subscript*>(e)->value.get()).intrinsic == "array.shape";
  if (e->kind == ast::ExprKind::Call && inf.param_types.size() == 1 && inf.param_types[0] &&
      inf.param_types[0]->is_array()) {
    auto* c = static_cast<const ast::Call*>(e);
    return c->func->kind == ast::ExprKind::Name && static_cast<const ast::Name*>(c->func.get())->id == "len";
  }
  return false;
}

// Whether `body` (recursively) assigns `id` or leaves the loop early.
bool disturbs(const ast::Body& body, const std::string& id, const ast::Stmt* allowed) {
  for (const ast::StmtPtr& sp : body) {
    const ast::Stmt* s = sp.get();
    switch (s->kind) {
      case ast::StmtKind::Break:
      case ast::StmtKind::Continue:
      case ast::StmtKind::Return: return true;
      case ast::StmtKind::Assign: {
        std::vector<const ast::Expr*> targets;
        for (const ast::ExprPtr& t : static_cast<const ast::Assign*>(s)->targets) targets.push_back(t.get());
        while (!targets.empty()) {
          const ast::Expr* t = targets.back();
          targets.pop_back();
          if (is_name(t, id)) return true;
          if (t->kind == ast::ExprKind::Tuple)
            for (const ast::ExprPtr& el : static_cast<const ast::Tuple*>(t)->elts) targets.push_back(el.get());
        }
        break;
      }
      case ast::StmtKind::AugAssign:
        if (s != allowed && is_name(static_cast<const ast::AugAssign*>(s)->target.get(), id)) return true;
        break;
      case ast::StmtKind::If: {
        auto* i = static_cast<const ast::If*>(s);
        if (disturbs(i->body, id, allowed) || disturbs(i->orelse, id, allowed)) return true;
        break;
      }
      case ast::StmtKind::While:
        if (disturbs(static_cast<const ast::While*>(s)->body, id, allowed)) return true;
        break;
      case ast::StmtKind::For: {
        auto* f = static_cast<const ast::For*>(s);
        if (is_name(f->target.get(), id) || disturbs(f->body, id, allowed)) return true;
        break;
      }
      default: break;
    }
  }
  return false;
}

}  // namespace

bool is_grid_size(Lowerer& l, const ast::Expr* e) {
  if (!e || e->kind != ast::ExprKind::Call) return false;
  const sema::ExprInfo& inf = l.info(e);
  return inf.intrinsic == "cuda.gridsize" && inf.shape.size() == 1 && inf.shape[0] == 1;
}

const ast::AugAssign* grid_stride_increment(Lowerer& l, const ast::While* w) {
  if (w->test->kind != ast::ExprKind::Compare || w->body.empty()) return nullptr;
  auto* cmp = static_cast<const ast::Compare*>(w->test.get());
  if (cmp->ops.size() != 1 || cmp->ops[0] != ast::CompareOpKind::Lt || cmp->left->kind != ast::ExprKind::Name)
    return nullptr;
  const std::string& id = static_cast<const ast::Name*>(cmp->left.get())->id;
  const ir::Type* it = l.info(cmp->left.get()).type;
  if (!it || it != ir::int64() || !is_array_extent(l, cmp->comparators[0].get())) return nullptr;
  const ast::Stmt* last = w->body.back().get();
  if (last->kind != ast::StmtKind::AugAssign) return nullptr;
  auto* inc = static_cast<const ast::AugAssign*>(last);
  if (inc->op != ast::BinOpKind::Add || !is_name(inc->target.get(), id) || !is_grid_size(l, inc->value.get()))
    return nullptr;
  if (disturbs(w->body, id, inc)) return nullptr;
  return inc;
}

bool is_grid_stride_range(Lowerer& l, const ast::Expr* stop, const ast::Expr* step) {
  return is_array_extent(l, stop) && is_grid_size(l, step);
}

void request_unroll(llvm::Instruction* backedge, unsigned count) {
  llvm::LLVMContext& ctx = backedge->getContext();
  llvm::Metadata* count_md[] = {
      llvm::MDString::get(ctx, "llvm.loop.unroll.count"),
      llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), count))};
  llvm::Metadata* ops[] = {nullptr, llvm::MDNode::get(ctx, count_md)};
  llvm::MDNode* loop = llvm::MDNode::getDistinct(ctx, ops);
  loop->replaceOperandWith(0, loop);
  backedge->setMetadata(llvm::LLVMContext::MD_loop, loop);
}

}  // namespace cuhost::codegen
