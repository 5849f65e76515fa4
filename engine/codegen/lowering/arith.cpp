// Arithmetic with Python's semantics as numba implements them: floor
// division and modulo that follow the sign of the divisor (ints and floats),
// integer division by zero guarded so LLVM sees no undefined behaviour (the
// result is 0, or a report + return in debug mode), integer power by
// repeated squaring, shifts, bitwise ops and unary operators.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

// int64 ** int64 as numba computes it: repeated squaring; a negative
// exponent gives 0 unless the base is 1 or -1, and 0 ** negative gives
// INT64_MIN (numba's numpy error model, the CUDA default without debug).
llvm::Function* ipow_function(Lowerer& l, llvm::Type* ty) {
  std::string name = "cuhost.ipow.i" + std::to_string(ty->getIntegerBitWidth());
  if (llvm::Function* f = l.module().getFunction(name)) return f;
  auto* fty = llvm::FunctionType::get(ty, {ty, ty}, false);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, l.module());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(l.ctx(), "entry", f));
  llvm::Value* base = f->getArg(0);
  llvm::Value* exp = f->getArg(1);
  auto* neg = llvm::BasicBlock::Create(l.ctx(), "neg", f);
  auto* loop = llvm::BasicBlock::Create(l.ctx(), "loop", f);
  auto* done = llvm::BasicBlock::Create(l.ctx(), "done", f);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::Value *zero = llvm::ConstantInt::get(ty, 0), *one = llvm::ConstantInt::get(ty, 1);
  b.CreateCondBr(b.CreateICmpSLT(exp, zero), neg, loop);
  b.SetInsertPoint(neg);
  llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(exp, one), zero);
  llvm::Value* minus_one = llvm::ConstantInt::getSigned(ty, -1);
  llvm::Value* int_min = llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(ty->getIntegerBitWidth()));
  llvm::Value* neg_result =
      b.CreateSelect(b.CreateICmpEQ(base, one), one,
                     b.CreateSelect(b.CreateICmpEQ(base, minus_one), b.CreateSelect(odd, minus_one, one),
                                    b.CreateSelect(b.CreateICmpEQ(base, zero), int_min, zero)));
  b.CreateRet(neg_result);
  b.SetInsertPoint(loop);
  llvm::PHINode* acc = b.CreatePHI(ty, 2);
  llvm::PHINode* bb = b.CreatePHI(ty, 2);
  llvm::PHINode* e = b.CreatePHI(ty, 2);
  acc->addIncoming(one, entry);
  bb->addIncoming(base, entry);
  e->addIncoming(exp, entry);
  llvm::Value* take = b.CreateICmpNE(b.CreateAnd(e, one), zero);
  llvm::Value* acc2 = b.CreateSelect(take, b.CreateMul(acc, bb), acc);
  llvm::Value* b2 = b.CreateMul(bb, bb);
  llvm::Value* e2 = b.CreateLShr(e, one);
  acc->addIncoming(acc2, loop);
  bb->addIncoming(b2, loop);
  e->addIncoming(e2, loop);
  b.CreateCondBr(b.CreateICmpEQ(e2, zero), done, loop);
  b.SetInsertPoint(done);
  b.CreateRet(acc2);
  return f;
}

// float ** int as numba's int_power: repeated squaring in the float type
// (float32 stays float32), 1/r for a negative exponent, and math.pow in
// double precision once the exponent's magnitude passes 65536.
llvm::Value* float_int_power(Lowerer& l, llvm::Value* base, llvm::Value* exp) {
  auto& b = l.b();
  llvm::Type* ft = base->getType();
  llvm::Value* zero = l.i64(0);
  llvm::Value* invert = b.CreateICmpSLT(exp, zero);
  llvm::Value* mag = b.CreateSelect(invert, b.CreateNeg(exp), exp);
  // INT64_MIN stays negative after negation: it takes the pow path too.
  llvm::Value* big = b.CreateOr(b.CreateICmpSGT(mag, l.i64(0x10000)), b.CreateICmpSLT(mag, zero));
  llvm::Function* fn = l.function();
  auto* slow = llvm::BasicBlock::Create(l.ctx(), "fpow.pow", fn);
  auto* header = llvm::BasicBlock::Create(l.ctx(), "fpow.loop", fn);
  auto* body = llvm::BasicBlock::Create(l.ctx(), "fpow.body", fn);
  auto* exit = llvm::BasicBlock::Create(l.ctx(), "fpow.exit", fn);
  auto* join = llvm::BasicBlock::Create(l.ctx(), "fpow.end", fn);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  b.CreateCondBr(big, slow, header);
  b.SetInsertPoint(slow);
  llvm::Value* as_double = ft->isDoubleTy() ? base : b.CreateFPExt(base, b.getDoubleTy());
  llvm::Value* p = l.hooks().math(l, "pow", {as_double, b.CreateSIToFP(exp, b.getDoubleTy())});
  if (!ft->isDoubleTy()) p = b.CreateFPTrunc(p, ft);
  llvm::BasicBlock* slow_end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(header);
  llvm::PHINode* r = b.CreatePHI(ft, 2);
  llvm::PHINode* a = b.CreatePHI(ft, 2);
  llvm::PHINode* e = b.CreatePHI(b.getInt64Ty(), 2);
  r->addIncoming(llvm::ConstantFP::get(ft, 1.0), entry);
  a->addIncoming(base, entry);
  e->addIncoming(mag, entry);
  b.CreateCondBr(b.CreateICmpNE(e, zero), body, exit);
  b.SetInsertPoint(body);
  llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(e, l.i64(1)), zero);
  r->addIncoming(b.CreateSelect(odd, b.CreateFMul(r, a), r), body);
  a->addIncoming(b.CreateFMul(a, a), body);
  e->addIncoming(b.CreateLShr(e, l.i64(1)), body);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  llvm::Value* fast = b.CreateSelect(invert, b.CreateFDiv(llvm::ConstantFP::get(ft, 1.0), r), r);
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode* out = b.CreatePHI(ft, 2);
  out->addIncoming(p, slow_end);
  out->addIncoming(fast, exit);
  return out;
}

// Reports integer division by zero in debug mode and ends the thread.
void check_divisor(Lowerer& l, llvm::Value* divisor) {
  if (!l.options().checks_divisors()) return;
  auto& b = l.b();
  llvm::Value* is_zero = b.CreateICmpEQ(divisor, llvm::ConstantInt::get(divisor->getType(), 0));
  l.fail_if(is_zero, [&] { report_exception(l, "builtins.ZeroDivisionError", "integer division or modulo by zero"); });
}

// Integer a // b and a % b with Python's rounding, no UB for b == 0 or
// INT_MIN / -1. Returns {quotient, remainder}.
std::pair<llvm::Value*, llvm::Value*> int_divmod(Lowerer& l, llvm::Value* a, llvm::Value* d, bool is_signed) {
  auto& b = l.b();
  check_divisor(l, d);
  llvm::Type* ty = a->getType();
  llvm::Value* zero = llvm::ConstantInt::get(ty, 0);
  llvm::Value* one = llvm::ConstantInt::get(ty, 1);
  llvm::Value* d_zero = b.CreateICmpEQ(d, zero);
  if (!is_signed) {
    llvm::Value* safe = b.CreateSelect(d_zero, one, d);
    llvm::Value* q = b.CreateSelect(d_zero, zero, b.CreateUDiv(a, safe));
    llvm::Value* r = b.CreateSelect(d_zero, zero, b.CreateURem(a, safe));
    return {q, r};
  }
  llvm::Value* minus_one = llvm::ConstantInt::getSigned(ty, -1);
  llvm::Value* d_m1 = b.CreateICmpEQ(d, minus_one);
  llvm::Value* safe = b.CreateSelect(b.CreateOr(d_zero, d_m1), one, d);
  llvm::Value* q = b.CreateSDiv(a, safe);
  llvm::Value* r = b.CreateSRem(a, safe);
  // Floor: when the remainder is non-zero and its sign differs from the divisor's.
  llvm::Value* adjust = b.CreateAnd(b.CreateICmpNE(r, zero), b.CreateICmpSLT(b.CreateXor(r, d), zero));
  q = b.CreateSelect(adjust, b.CreateSub(q, one), q);
  r = b.CreateSelect(adjust, b.CreateAdd(r, d), r);
  q = b.CreateSelect(d_m1, b.CreateSub(zero, a), q);
  r = b.CreateSelect(d_m1, zero, r);
  q = b.CreateSelect(d_zero, zero, q);
  r = b.CreateSelect(d_zero, zero, r);
  return {q, r};
}

llvm::Value* intrinsic1(Lowerer& l, llvm::Intrinsic::ID id, llvm::Value* x) {
  return l.b().CreateUnaryIntrinsic(id, x);
}

// Python's float divmod (CPython's float_divmod), fmod based.
std::pair<llvm::Value*, llvm::Value*> float_divmod(Lowerer& l, llvm::Value* vx, llvm::Value* wx) {
  auto& b = l.b();
  llvm::Type* ty = vx->getType();
  llvm::Value* zero = llvm::ConstantFP::get(ty, 0.0);
  // fmod through the target's math library: NVPTX lowers LLVM's frem to
  // x - trunc(x / y) * y, which is not exact; libdevice's fmod is.
  llvm::Value* mod = l.hooks().math(l, "fmod", {vx, wx});
  llvm::Value* div = b.CreateFDiv(b.CreateFSub(vx, mod), wx);
  llvm::Value* mod_nz = b.CreateFCmpUNE(mod, zero);
  llvm::Value* signs_differ = b.CreateXor(b.CreateFCmpOLT(wx, zero), b.CreateFCmpOLT(mod, zero));
  llvm::Value* fix = b.CreateAnd(mod_nz, signs_differ);
  llvm::Value* mod2 = b.CreateSelect(fix, b.CreateFAdd(mod, wx), mod);
  llvm::Value* div2 = b.CreateSelect(fix, b.CreateFSub(div, llvm::ConstantFP::get(ty, 1.0)), div);
  llvm::Value* copysign_zero = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, wx);
  mod2 = b.CreateSelect(mod_nz, mod2, copysign_zero);
  llvm::Value* fl = intrinsic1(l, llvm::Intrinsic::floor, div2);
  llvm::Value* bump = b.CreateFCmpOGT(b.CreateFSub(div2, fl), llvm::ConstantFP::get(ty, 0.5));
  fl = b.CreateSelect(bump, b.CreateFAdd(fl, llvm::ConstantFP::get(ty, 1.0)), fl);
  llvm::Value* div_nz = b.CreateFCmpUNE(div2, zero);
  llvm::Value* zero_q = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, b.CreateFDiv(vx, wx));
  llvm::Value* q = b.CreateSelect(div_nz, fl, zero_q);
  // A zero divisor (no exception: numba's numpy error model) gives x / y
  // for the quotient (+-inf or nan), as numba's real_floordiv_impl; the
  // remainder is already fmod's nan.
  q = b.CreateSelect(b.CreateFCmpOEQ(wx, zero), b.CreateFDiv(vx, wx), q);
  return {q, mod2};
}

}  // namespace

Val binary_op(Lowerer& l, ast::BinOpKind op, Val a, Val c, const ir::Type* result, const ast::SourceLoc& loc) {
  auto& b = l.b();
  using K = ast::BinOpKind;
  const ir::Type* ot = a.t;
  bool is_float = ot->kind == ir::TypeKind::Float;
  bool is_bool = ot->kind == ir::TypeKind::Boolean;
  bool is_signed = ot->kind == ir::TypeKind::Integer && ot->is_signed;
  if (ot->kind == ir::TypeKind::Complex) return complex_binary(l, op, a, c, result, loc);
  if (ir::is_datetime_like(a.t) || ir::is_datetime_like(c.t)) return datetime_binary(l, op, a, c, result);
  // bfloat16 arithmetic, and the float16 operations PTX has no instruction
  // for, are done in float and rounded once into the 16-bit type.
  if (is_float && ir::is_bfloat16(ot) && c.t == ot) {
    if (llvm::Value* r = bf16_binary_sm90(l, op, a.v, c.v)) return l.convert({r, ot}, result);
  }
  if (is_float && ot->bits == 16 &&
      (ir::is_bfloat16(ot) || op == K::FloorDiv || op == K::Mod ||
       (op == K::Pow && c.t->kind == ir::TypeKind::Float))) {
    Val fa = l.convert(a, ir::float32());
    Val fc = c.t == ot ? l.convert(c, ir::float32()) : c;
    Val r = binary_op(l, op, fa, fc, ir::float32(), loc);
    return l.convert(l.convert(r, ot), result);
  }
  if (ot->kind == ir::TypeKind::Tuple || ot->kind == ir::TypeKind::Array)
    l.unsupported(loc, concat("operator '", ast::to_string(op), "' on ", ot->str(), " is not supported"));
  llvm::Value* x = a.v;
  llvm::Value* y = c.v;
  llvm::Value* r = nullptr;
  switch (op) {
    case K::Add: r = is_float ? b.CreateFAdd(x, y) : b.CreateAdd(x, y); break;
    case K::Sub: r = is_float ? b.CreateFSub(x, y) : b.CreateSub(x, y); break;
    case K::Mult: r = is_float ? b.CreateFMul(x, y) : b.CreateMul(x, y); break;
    case K::Div:
      if (is_float) {
        // numba's Python error model (debug=True) raises on a zero divisor;
        // fastmath division is never checked.
        if (l.options().checks_divisors() && !l.options().fastmath) {
          l.fail_if(b.CreateFCmpOEQ(y, llvm::ConstantFP::get(y->getType(), 0.0)),
                    [&] { report_exception(l, "builtins.ZeroDivisionError", "division by zero", loc.line); });
        }
        r = b.CreateFDiv(x, y);
      } else {
        // Typing converts int operands of `/` to float; be safe anyway.
        Val fx = l.convert(a, ir::float64()), fy = l.convert(c, ir::float64());
        r = b.CreateFDiv(fx.v, fy.v);
        return l.convert({r, ir::float64()}, result);
      }
      break;
    case K::FloorDiv:
    case K::Mod:
      if (is_float) {
        auto [q, m] = float_divmod(l, x, y);
        r = op == K::FloorDiv ? q : m;
      } else {
        auto [q, m] = int_divmod(l, x, y, is_signed);
        r = op == K::FloorDiv ? q : m;
      }
      break;
    case K::Pow:
      if (is_float) {
        if (c.t->kind == ir::TypeKind::Float) {
          r = l.hooks().math(l, "pow", {x, y});
        } else {
          r = float_int_power(l, x, l.convert(c, ir::int64()).v);
        }
      } else {
        Val xi = l.convert(a, ir::int64()), yi = l.convert(c, ir::int64());
        if (l.options().checks_divisors()) {  // numba's python error model raises here
          l.fail_if(b.CreateAnd(b.CreateICmpEQ(xi.v, l.i64(0)), b.CreateICmpSLT(yi.v, l.i64(0))), [&] {
            report_exception(l, "builtins.ZeroDivisionError", "0 cannot be raised to a negative power", loc.line);
          });
        }
        r = b.CreateCall(ipow_function(l, b.getInt64Ty()), {xi.v, yi.v});
        return l.convert({r, ir::int64()}, result);
      }
      break;
    case K::LShift: r = b.CreateShl(x, y); break;
    case K::RShift: r = is_signed ? b.CreateAShr(x, y) : b.CreateLShr(x, y); break;
    case K::BitOr: r = b.CreateOr(x, y); break;
    case K::BitXor: r = b.CreateXor(x, y); break;
    case K::BitAnd: r = b.CreateAnd(x, y); break;
    case K::MatMult: l.unsupported(loc, "the @ operator is not supported in kernels");
  }
  (void)is_bool;
  return l.convert({r, ot}, result);
}

Val lower_binop(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& inf) {
  if (inf.intrinsic.rfind("extension.", 0) == 0) return lower_intrinsic(l, e, inf);  // @overload(operator.add)
  if (inf.intrinsic == "tuple.concat") return lower_tuple_concat(l, e, inf);
  if (inf.intrinsic == "tuple.repeat") return lower_tuple_repeat(l, e, inf);
  CUHOST_CHECK(inf.operand_types.size() == 2) << "binary operation without operand types";
  Val a = l.expr_as(e->left.get(), inf.operand_types[0]);
  Val c = l.expr_as(e->right.get(), inf.operand_types[1]);
  return binary_op(l, e->op, a, c, inf.type, e->loc);
}

Val lower_unaryop(Lowerer& l, const ast::UnaryOp* e, const sema::ExprInfo& inf) {
  if (inf.intrinsic.rfind("extension.", 0) == 0) return lower_intrinsic(l, e, inf);  // @overload(operator.neg)
  auto& b = l.b();
  if (e->op == ast::UnaryOpKind::Not) return {b.CreateNot(l.truth(l.expr(e->operand.get()))), ir::boolean()};
  const ir::Type* ot = !inf.operand_types.empty() && inf.operand_types[0] ? inf.operand_types[0] : inf.type;
  Val v = l.expr_as(e->operand.get(), ot);
  switch (e->op) {
    case ast::UnaryOpKind::UAdd: return l.convert(v, inf.type);
    case ast::UnaryOpKind::USub:
      if (ot->kind == ir::TypeKind::Complex) return l.convert(complex_negate(l, v), inf.type);
      if (ot->kind == ir::TypeKind::Float) return l.convert({float_negate(l, v.v), ot}, inf.type);
      if (ot->kind == ir::TypeKind::Boolean) v = l.convert(v, inf.type);
      return l.convert({b.CreateNeg(v.v), v.t}, inf.type);
    case ast::UnaryOpKind::Invert:
      if (ot->kind == ir::TypeKind::Boolean) return l.convert({b.CreateNot(v.v), ot}, inf.type);
      return l.convert({b.CreateNot(v.v), ot}, inf.type);
    default: break;
  }
  CUHOST_CHECK(false) << "unary operator";
  return {};
}

void register_arith(std::map<std::string, IntrinsicFn>& table) {
  table["cast"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    CUHOST_CHECK(!inf.ordered_args.empty()) << "cast without argument";
    return l.convert(l.expr(inf.ordered_args[0]), inf.type);
  };
}

}  // namespace cuhost::codegen
