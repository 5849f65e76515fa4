// Lowering of datetime64/timedelta64 values (typing: sema/typing/datetime.cpp):
// int64 counts of their unit with NaT = INT64_MIN, as NumPy stores them.
// Operands arrive in their common unit (datetime_convert rescales: exact
// multiplication toward a finer unit, floor division toward a coarser one);
// every arithmetic result is NaT when an operand is NaT (or a float scale
// is NaN, or a divisor is zero), as in numba's npdatetime; comparisons with
// NaT are false except !=.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "ir/datetime.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

llvm::Value* nat(Lowerer& l) { return l.i64(ir::kNaT); }
llvm::Value* is_nat(Lowerer& l, llvm::Value* v) { return l.b().CreateICmpEQ(v, nat(l)); }

// Floor division of two int64 (Python's //), b != 0.
llvm::Value* floor_div(Lowerer& l, llvm::Value* a, llvm::Value* d) {
  auto& b = l.b();
  llvm::Value* q = b.CreateSDiv(a, d);
  llvm::Value* r = b.CreateSRem(a, d);
  llvm::Value* adjust = b.CreateAnd(b.CreateICmpNE(r, l.i64(0)),
                                    b.CreateICmpNE(b.CreateICmpSLT(r, l.i64(0)), b.CreateICmpSLT(d, l.i64(0))));
  return b.CreateSelect(adjust, b.CreateSub(q, l.i64(1)), q);
}

}  // namespace

Val datetime_convert(Lowerer& l, Val v, const ir::Type* to) {
  auto& b = l.b();
  const ir::Type* from = v.t;
  CUHOST_CHECK(from->kind == to->kind) << "conversion from " << from->str() << " to " << to->str();
  if (auto f = ir::unit_factor(from->key, to->key)) {
    if (*f == 1) return {v.v, to};
    return {b.CreateSelect(is_nat(l, v.v), nat(l), b.CreateMul(v.v, l.i64(*f))), to};
  }
  auto f = ir::unit_factor(to->key, from->key);
  CUHOST_CHECK(f) << "no exact unit between " << from->str() << " and " << to->str();
  return {b.CreateSelect(is_nat(l, v.v), nat(l), floor_div(l, v.v, l.i64(*f))), to};
}

Val datetime_binary(Lowerer& l, ast::BinOpKind op, Val a, Val c, const ir::Type* result) {
  auto& b = l.b();
  using K = ast::BinOpKind;
  const bool a_time = ir::is_datetime_like(a.t), c_time = ir::is_datetime_like(c.t);
  if (a_time && c_time) {
    llvm::Value* any_nat = b.CreateOr(is_nat(l, a.v), is_nat(l, c.v));
    llvm::Value* zero = b.CreateICmpEQ(c.v, l.i64(0));
    switch (op) {
      case K::Add: return {b.CreateSelect(any_nat, nat(l), b.CreateAdd(a.v, c.v)), result};
      case K::Sub: return {b.CreateSelect(any_nat, nat(l), b.CreateSub(a.v, c.v)), result};
      case K::Div: {  // timedelta / timedelta: a float64 ratio, NaN with NaT
        llvm::Value* q = b.CreateFDiv(b.CreateSIToFP(a.v, b.getDoubleTy()), b.CreateSIToFP(c.v, b.getDoubleTy()));
        return {b.CreateSelect(any_nat, llvm::ConstantFP::getNaN(b.getDoubleTy()), q), result};
      }
      case K::FloorDiv: {  // an int64; 0 where NumPy has no answer (NaT, zero divisor)
        llvm::Value* bad = b.CreateOr(any_nat, zero);
        llvm::Value* safe = b.CreateSelect(bad, l.i64(1), c.v);
        return {b.CreateSelect(bad, l.i64(0), floor_div(l, a.v, safe)), result};
      }
      case K::Mod: {
        llvm::Value* bad = b.CreateOr(any_nat, zero);
        llvm::Value* safe = b.CreateSelect(bad, l.i64(1), c.v);
        llvm::Value* r = b.CreateSub(a.v, b.CreateMul(floor_div(l, a.v, safe), safe));
        return {b.CreateSelect(bad, nat(l), r), result};
      }
      default: break;
    }
    CUHOST_CHECK(false) << "datetime operator " << ast::to_string(op);
  }
  // A timedelta scaled by a number (int64 or float64).
  Val td = a_time ? a : c;
  Val num = a_time ? c : a;
  llvm::Value* td_nat = is_nat(l, td.v);
  if (num.t->kind == ir::TypeKind::Float) {
    llvm::Value* x = b.CreateSIToFP(td.v, b.getDoubleTy());
    llvm::Value* y = op == K::Mult ? b.CreateFMul(x, num.v) : b.CreateFDiv(x, num.v);
    if (op == K::FloorDiv) y = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, y);
    // NaN (a NaN scale, 0/0) and infinities have no count: NaT.
    llvm::Value* finite = b.CreateFCmpOLT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y),
                                          llvm::ConstantFP::get(b.getDoubleTy(), 9.2233720368547758e18));
    llvm::Value* r = b.CreateSelect(finite, b.CreateFPToSI(y, b.getInt64Ty()), nat(l));
    return {b.CreateSelect(td_nat, nat(l), r), result};
  }
  llvm::Value* n = l.convert(num, ir::int64()).v;
  if (op == K::Mult) return {b.CreateSelect(td_nat, nat(l), b.CreateMul(td.v, n)), result};
  // timedelta / int and // int truncate toward zero, as NumPy's loops and
  // numba's sdiv; NaT for a zero divisor.
  llvm::Value* zero = b.CreateICmpEQ(n, l.i64(0));
  llvm::Value* safe = b.CreateSelect(zero, l.i64(1), n);
  return {b.CreateSelect(b.CreateOr(td_nat, zero), nat(l), b.CreateSDiv(td.v, safe)), result};
}

llvm::Value* datetime_compare(Lowerer& l, ast::CompareOpKind op, Val a, Val c) {
  auto& b = l.b();
  using K = ast::CompareOpKind;
  llvm::Value* any_nat = b.CreateOr(is_nat(l, a.v), is_nat(l, c.v));
  llvm::Value* r = nullptr;
  switch (op) {
    case K::Eq:
    case K::Is: r = b.CreateICmpEQ(a.v, c.v); break;
    case K::NotEq:
    case K::IsNot: return b.CreateOr(any_nat, b.CreateICmpNE(a.v, c.v));
    case K::Lt: r = b.CreateICmpSLT(a.v, c.v); break;
    case K::LtE: r = b.CreateICmpSLE(a.v, c.v); break;
    case K::Gt: r = b.CreateICmpSGT(a.v, c.v); break;
    case K::GtE: r = b.CreateICmpSGE(a.v, c.v); break;
    default: CUHOST_CHECK(false) << "datetime comparison " << ast::to_string(op);
  }
  return b.CreateAnd(b.CreateNot(any_nat), r);
}

}  // namespace cuhost::codegen
