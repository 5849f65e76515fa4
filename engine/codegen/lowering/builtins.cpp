// Python builtins inside kernels: abs, min, max (of two floats fmin/fmax as
// numba-cuda; otherwise pairwise from the left like Python, so NaN handling
// matches), round (half to even).
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "sema/intrinsics.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

Val min_max(Lowerer& l, const sema::ExprInfo& inf, bool is_max) {
  auto& b = l.b();
  std::vector<Val> xs;
  for (size_t i = 0; i < inf.ordered_args.size(); ++i) xs.push_back(arg(l, inf, i));
  // Two floats: numba-cuda's fmin/fmax (a NaN operand yields the other),
  // PTX's min/max.f32/f64 on the GPU. The arguments' own types decide (they
  // arrive converted to the result's): a float with an integer takes
  // numba's generic path, Python's order (max(nan, 5) is nan).
  auto own_float = [&](size_t i) {
    const ast::Expr* e = inf.ordered_args[i];
    return e && l.info(e).type && l.info(e).type->kind == ir::TypeKind::Float;
  };
  if (xs.size() == 2 && inf.type->kind == ir::TypeKind::Float && own_float(0) && own_float(1)) {
    auto id = is_max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum;
    return {b.CreateBinaryIntrinsic(id, l.convert(xs[0], inf.type).v, l.convert(xs[1], inf.type).v), inf.type};
  }
  Val acc = l.convert(xs[0], inf.type);
  for (size_t i = 1; i < xs.size(); ++i) {
    Val x = l.convert(xs[i], inf.type);
    llvm::Value* better = compare_values(l, is_max ? ast::CompareOpKind::Gt : ast::CompareOpKind::Lt, x, acc);
    acc = {b.CreateSelect(better, x.v, acc.v), inf.type};
  }
  return acc;
}

}  // namespace

void register_builtins(std::map<std::string, IntrinsicFn>& table) {
  // literal_unroll(t) is t; its loops were unrolled before typing (sema/unroll.h).
  table["cuda.literal_unroll"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    return arg(l, inf, 0);
  };
  table["builtins.tuple"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    if (inf.ordered_args.empty() || !inf.ordered_args[0])
      return {llvm::UndefValue::get(l.llvm_type(inf.type)), inf.type};
    return l.convert(arg(l, inf, 0), inf.type);
  };
  table["builtins.abs"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val z = arg(l, inf, 0);
    if (z.t->kind == ir::TypeKind::Complex) return l.convert({complex_abs(l, z), inf.type}, inf.type);
    Val x = l.convert(z, inf.type);
    if (inf.type == ir::float16() || ir::is_bfloat16(inf.type)) return {half_abs(l, x.v), inf.type};
    if (inf.type->kind == ir::TypeKind::Float) return {b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v), inf.type};
    if (!inf.type->is_signed) return x;
    llvm::Value* neg = b.CreateICmpSLT(x.v, llvm::ConstantInt::get(x.v->getType(), 0));
    return {b.CreateSelect(neg, b.CreateNeg(x.v), x.v), inf.type};
  };
  table["builtins.min"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
    return min_max(l, inf, false);
  };
  table["builtins.max"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) { return min_max(l, inf, true); };
  table["operator."] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
    const ast::BinOpKind* op = sema::operator_binop(inf.intrinsic.substr(9));
    CUHOST_CHECK(op) << "operator function " << inf.intrinsic;
    return binary_op(l, *op, arg(l, inf, 0), arg(l, inf, 1), inf.type, e->loc);
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
    // round(x, n), as numba-cuda (CPython's fallback double_round): in
    // float64 whatever x's type, scaling by 10**n split in two factors past
    // 1e22 so the scale itself cannot overflow; x comes back unchanged when
    // it is infinite or NaN or the scaled value overflows.
    Val n = l.convert(arg(l, inf, 1), ir::int64());
    llvm::Type* d = b.getDoubleTy();
    auto c = [&](double v) { return llvm::ConstantFP::get(d, v); };
    auto pow10 = [&](llvm::Value* e) { return l.hooks().math(l, "pow", {c(10.0), b.CreateSIToFP(e, d)}); };
    llvm::Value* xd = l.convert(x, ir::float64()).v;
    llvm::Value* neg = b.CreateICmpSLT(n.v, l.i64(0));
    llvm::Value* big = b.CreateICmpSGT(n.v, l.i64(22));
    llvm::Value* e1 = b.CreateSelect(neg, b.CreateNeg(n.v), b.CreateSelect(big, b.CreateSub(n.v, l.i64(22)), n.v));
    llvm::Value* pow1 = pow10(e1);
    llvm::Value* pow2 = b.CreateSelect(big, c(1e22), c(1.0));
    llvm::Value* y = b.CreateSelect(neg, b.CreateFDiv(xd, pow1), b.CreateFMul(b.CreateFMul(xd, pow1), pow2));
    auto rint = [&](llvm::Value* v) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, v); };
    llvm::Value* z = rint(y);
    llvm::Value* halfway = b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, b.CreateFSub(y, z)), c(0.5));
    z = b.CreateSelect(halfway, b.CreateFMul(c(2.0), rint(b.CreateFDiv(y, c(2.0)))), z);
    llvm::Value* back = b.CreateSelect(neg, b.CreateFMul(z, pow1), b.CreateFDiv(b.CreateFDiv(z, pow2), pow1));
    auto infinite = [&](llvm::Value* v) {
      return b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v), llvm::ConstantFP::getInfinity(d));
    };
    llvm::Value* keep = b.CreateOr(b.CreateOr(infinite(xd), b.CreateFCmpUNO(xd, xd)), infinite(y));
    Val r = l.convert({back, ir::float64()}, x.t);
    return l.convert({b.CreateSelect(keep, x.v, r.v), x.t}, inf.type);
  };
}

}  // namespace cuhost::codegen
