// Python builtins inside kernels: abs, pow, min, max (pairwise from the left like
// Python, so NaN handling matches), round (half to even).
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

Val min_max(Lowerer& l, const sema::ExprInfo& inf, bool is_max) {
  auto& b = l.b();
  Val acc = l.convert(arg(l, inf, 0), inf.type);
  for (size_t i = 1; i < inf.ordered_args.size(); ++i) {
    Val x = l.convert(arg(l, inf, i), inf.type);
    llvm::Value* better = compare_values(l, is_max ? ast::CompareOpKind::Gt : ast::CompareOpKind::Lt, x, acc);
    acc = {b.CreateSelect(better, x.v, acc.v), inf.type};
  }
  return acc;
}

}  // namespace

void register_builtins(std::map<std::string, IntrinsicFn>& table) {
  table["builtins.abs"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val z = arg(l, inf, 0);
    if (z.t->kind == ir::TypeKind::Complex) return l.convert({complex_abs(l, z), inf.type}, inf.type);
    Val x = l.convert(z, inf.type);
    if (inf.type->kind == ir::TypeKind::Float) return {b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v), inf.type};
    if (!inf.type->is_signed) return x;
    llvm::Value* neg = b.CreateICmpSLT(x.v, llvm::ConstantInt::get(x.v->getType(), 0));
    return {b.CreateSelect(neg, b.CreateNeg(x.v), x.v), inf.type};
  };
  table["builtins.min"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
    return min_max(l, inf, false);
  };
  table["builtins.max"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) { return min_max(l, inf, true); };
  table["number.bit_count"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val x = arg(l, inf, 0);
    llvm::Value* v = x.v;
    if (x.t->is_signed) {
      llvm::Value* neg = b.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0));
      v = b.CreateSelect(neg, b.CreateNeg(v), v);
    }
    llvm::Value* n = b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, v);
    return l.convert({b.CreateZExtOrTrunc(n, b.getInt64Ty()), ir::int64()}, inf.type);
  };
  table["builtins.pow"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
    return binary_op(l, ast::BinOpKind::Pow, arg(l, inf, 0), arg(l, inf, 1), inf.type, e->loc);
  };
  table["builtins.round"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val x = arg(l, inf, 0);
    if (x.t->kind != ir::TypeKind::Float) return l.convert(x, inf.type);
    if (inf.ordered_args.size() < 2 || !inf.ordered_args[1]) {
      llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, x.v);
      return l.convert({r, x.t}, inf.type);
    }
    // round(x, n): scale by 10**|n|, round half to even, scale back.
    Val n = l.convert(arg(l, inf, 1), ir::int64());
    llvm::Type* ft = x.v->getType();
    llvm::Value* neg = b.CreateICmpSLT(n.v, l.i64(0));
    llvm::Value* absn = b.CreateSelect(neg, b.CreateNeg(n.v), n.v);
    llvm::Value* p10 = l.hooks().math(l, "pow", {llvm::ConstantFP::get(ft, 10.0), b.CreateSIToFP(absn, ft)});
    llvm::Value* scaled = b.CreateSelect(neg, b.CreateFDiv(x.v, p10), b.CreateFMul(x.v, p10));
    llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, scaled);
    llvm::Value* back = b.CreateSelect(neg, b.CreateFMul(r, p10), b.CreateFDiv(r, p10));
    // Infinite or NaN inputs come back unchanged.
    llvm::Value* finite =
        b.CreateFCmpOLT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v), llvm::ConstantFP::getInfinity(ft));
    return l.convert({b.CreateSelect(finite, back, x.v), x.t}, inf.type);
  };
}

}  // namespace cuhost::codegen
