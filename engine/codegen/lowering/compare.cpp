// Comparisons, chained ones included (each middle operand evaluated once,
// later comparisons short-circuited like Python), with both sides converted
// to the type typing chose for each link of the chain.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

llvm::Value* compare_values(Lowerer& l, ast::CompareOpKind op, Val a, Val c) {
  auto& b = l.b();
  using K = ast::CompareOpKind;
  const ir::Type* t = a.t;
  if (t->kind == ir::TypeKind::Optional) return optional_is(l, op, a, c);
  if (t->kind == ir::TypeKind::EnumMember) {  // members of one class: their values (typing/compare.cpp)
    if (op == K::Is) op = K::Eq;
    if (op == K::IsNot) op = K::NotEq;
    return compare_values(l, op, {a.v, t->pointee}, {c.v, t->pointee});
  }
  if (t->kind == ir::TypeKind::Tuple && (op == K::Eq || op == K::NotEq)) {  // an enum's tuple value: itemwise
    llvm::Value* all = b.getTrue();
    for (unsigned k = 0; k < t->elements.size(); ++k) {
      const ir::Type* et = t->elements[k];
      all = b.CreateAnd(
          all, compare_values(l, K::Eq, {b.CreateExtractValue(a.v, {k}), et}, {b.CreateExtractValue(c.v, {k}), et}));
    }
    return op == K::Eq ? all : b.CreateNot(all);
  }
  if (ir::is_datetime_like(t)) return datetime_compare(l, op, a, c);
  if (ir::is_bfloat16(t)) {  // compared in float (exact)
    return compare_values(l, op, l.convert(a, ir::float32()), l.convert(c, ir::float32()));
  }
  if (t->kind == ir::TypeKind::Float) {
    switch (op) {
      case K::Eq:
      case K::Is: return b.CreateFCmpOEQ(a.v, c.v);
      case K::NotEq:
      case K::IsNot: return b.CreateFCmpUNE(a.v, c.v);
      case K::Lt: return b.CreateFCmpOLT(a.v, c.v);
      case K::LtE: return b.CreateFCmpOLE(a.v, c.v);
      case K::Gt: return b.CreateFCmpOGT(a.v, c.v);
      case K::GtE: return b.CreateFCmpOGE(a.v, c.v);
      default: break;
    }
  } else if (t->kind == ir::TypeKind::Integer || t->kind == ir::TypeKind::Boolean) {
    bool s = t->kind == ir::TypeKind::Integer && t->is_signed;
    switch (op) {
      case K::Eq:
      case K::Is: return b.CreateICmpEQ(a.v, c.v);
      case K::NotEq:
      case K::IsNot: return b.CreateICmpNE(a.v, c.v);
      case K::Lt: return s ? b.CreateICmpSLT(a.v, c.v) : b.CreateICmpULT(a.v, c.v);
      case K::LtE: return s ? b.CreateICmpSLE(a.v, c.v) : b.CreateICmpULE(a.v, c.v);
      case K::Gt: return s ? b.CreateICmpSGT(a.v, c.v) : b.CreateICmpUGT(a.v, c.v);
      case K::GtE: return s ? b.CreateICmpSGE(a.v, c.v) : b.CreateICmpUGE(a.v, c.v);
      default: break;
    }
  } else if (t->kind == ir::TypeKind::Complex) {
    return complex_compare(l, op, a, c);
  } else if (t->kind == ir::TypeKind::NoneType) {
    return b.getInt1(op == K::Eq || op == K::Is || op == K::LtE || op == K::GtE);
  }
  CUHOST_CHECK(false) << "comparison '" << ast::to_string(op) << "' on " << t->str();
  return nullptr;
}

Val lower_compare(Lowerer& l, const ast::Compare* e, const sema::ExprInfo& inf) {
  if (inf.intrinsic.rfind("extension.", 0) == 0) return lower_intrinsic(l, e, inf);  // @overload(operator.eq)
  auto& b = l.b();
  if (inf.intrinsic == "tuple.contains") {  // x in tup: any item equal (typing/compare.cpp)
    Val x = l.expr_as(e->left.get(), inf.operand_types.at(0));
    Val tup = l.expr(e->comparators[0].get());
    llvm::Value* found = b.getFalse();
    for (unsigned k = 0; k < inf.param_types.size(); ++k) {
      Val item{b.CreateExtractValue(tup.v, {k}), tup.t->elements[k]};
      const ir::Type* ct = inf.param_types[k];
      found = b.CreateOr(found, compare_values(l, ast::CompareOpKind::Eq, l.convert(x, ct), l.convert(item, ct)));
    }
    if (e->ops[0] == ast::CompareOpKind::NotIn) found = b.CreateNot(found);
    return {found, ir::boolean()};
  }
  CUHOST_CHECK(inf.operand_types.size() == e->ops.size()) << "comparison without operand types";
  if (e->ops.size() == 1) {
    Val a = l.expr_as(e->left.get(), inf.operand_types[0]);
    Val c = l.expr_as(e->comparators[0].get(), inf.operand_types[0]);
    return {compare_values(l, e->ops[0], a, c), ir::boolean()};
  }
  llvm::BasicBlock* done = llvm::BasicBlock::Create(l.ctx(), "cmp.end", l.function());
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  Val left = l.expr(e->left.get());
  for (size_t i = 0; i < e->ops.size(); ++i) {
    Val right = l.expr(e->comparators[i].get());
    llvm::Value* r =
        compare_values(l, e->ops[i], l.convert(left, inf.operand_types[i]), l.convert(right, inf.operand_types[i]));
    incoming.push_back({r, b.GetInsertBlock()});
    if (i + 1 == e->ops.size()) {
      b.CreateBr(done);
      break;
    }
    llvm::BasicBlock* next = llvm::BasicBlock::Create(l.ctx(), "cmp.next", l.function());
    b.CreateCondBr(r, next, done);
    b.SetInsertPoint(next);
    left = right;
  }
  b.SetInsertPoint(done);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), unsigned(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  return {phi, ir::boolean()};
}

}  // namespace cuhost::codegen
