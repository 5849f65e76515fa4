// Lowering of half precision (typing/half.cpp): float16 is LLVM `half`
// (native f16 instructions on sm_53+; on the CPU LLVM promotes through
// float with correct rounding), bfloat16 is LLVM `bfloat` in memory and in
// registers, but every rounding into it is emitted here with integer
// operations (round to nearest even, toward zero, down or up), so both
// targets give the same bits and the CPU needs no bfloat16 runtime
// (libgcc 12 has none). bfloat16 arithmetic is done in float and rounded
// once: exact, since float holds more than twice bfloat16's precision.
#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// Rounds the magnitude bits `abs` (i32) of a float to its upper 16 bits in
// `mode`; `neg` is the sign (i1).
llvm::Value* round_upper16(Lowerer& l, llvm::Value* abs, llvm::Value* neg, char mode) {
  auto& b = l.b();
  llvm::Value* trunc = b.CreateLShr(abs, 16);
  llvm::Value* low = b.CreateAnd(abs, 0xffff);
  llvm::Value* inexact = b.CreateICmpNE(low, b.getInt32(0));
  llvm::Value* up = nullptr;
  switch (mode) {
    case 'n': {
      llvm::Value* above = b.CreateICmpUGT(low, b.getInt32(0x8000));
      llvm::Value* tie = b.CreateICmpEQ(low, b.getInt32(0x8000));
      llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(trunc, 1), b.getInt32(0));
      up = b.CreateOr(above, b.CreateAnd(tie, odd));
      break;
    }
    case 'z': up = b.getFalse(); break;
    case 'u': up = b.CreateAnd(inexact, b.CreateNot(neg)); break;
    case 'd': up = b.CreateAnd(inexact, neg); break;
  }
  return b.CreateAdd(trunc, b.CreateZExt(up, b.getInt32Ty()));
}

}  // namespace

llvm::Value* bf16_to_float(Lowerer& l, llvm::Value* v) {
  auto& b = l.b();
  llvm::Value* bits = b.CreateZExt(b.CreateBitCast(v, b.getInt16Ty()), b.getInt32Ty());
  return b.CreateBitCast(b.CreateShl(bits, 16), b.getFloatTy());
}

llvm::Value* bf16_from_float(Lowerer& l, llvm::Value* v, char mode) {
  auto& b = l.b();
  if (v->getType()->isDoubleTy()) {
    // Round to odd into float first (truncate, then mark inexactness in the
    // last bit): rounding that once more to 8 bits is then exact.
    llvm::Value* f = b.CreateFPTrunc(v, b.getFloatTy());
    llvm::Value* fbits = b.CreateBitCast(f, b.getInt32Ty());
    llvm::Value* back = b.CreateFPExt(f, b.getDoubleTy());
    llvm::Value* too_big = b.CreateFCmpOGT(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, back),
                                           b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v));
    fbits = b.CreateSelect(too_big, b.CreateSub(fbits, b.getInt32(1)), fbits);
    llvm::Value* inexact = b.CreateAnd(b.CreateFCmpONE(back, v), b.CreateFCmpOEQ(v, v));
    fbits = b.CreateSelect(inexact, b.CreateOr(fbits, b.getInt32(1)), fbits);
    v = b.CreateBitCast(fbits, b.getFloatTy());
  } else if (!v->getType()->isFloatTy()) {
    v = b.CreateFPExt(v, b.getFloatTy());
  }
  llvm::Value* bits = b.CreateBitCast(v, b.getInt32Ty());
  llvm::Value* sign = b.CreateAnd(bits, 0x80000000u);
  llvm::Value* abs = b.CreateAnd(bits, 0x7fffffff);
  llvm::Value* neg = b.CreateICmpNE(sign, b.getInt32(0));
  llvm::Value* rounded = round_upper16(l, abs, neg, mode);
  llvm::Value* is_nan = b.CreateICmpUGT(abs, b.getInt32(0x7f800000));
  rounded = b.CreateSelect(is_nan, b.getInt32(0x7fc0), rounded);
  llvm::Value* out = b.CreateOr(b.CreateLShr(sign, 16), rounded);
  return b.CreateBitCast(b.CreateTrunc(out, b.getInt16Ty()), b.getBFloatTy());
}

// Conversions where either side is bfloat16 (Lowerer::convert defers here).
Val bf16_convert(Lowerer& l, Val v, const ir::Type* to, char mode) {
  auto& b = l.b();
  if (ir::is_bfloat16(v.t)) {
    Val f{bf16_to_float(l, v.v), ir::float32()};
    if (to->kind == ir::TypeKind::Integer) {
      // Rounded in `mode`, saturating, NaN to 0 (PTX cvt semantics).
      llvm::Intrinsic::ID id = mode == 'n'   ? llvm::Intrinsic::rint
                               : mode == 'd' ? llvm::Intrinsic::floor
                               : mode == 'u' ? llvm::Intrinsic::ceil
                                             : llvm::Intrinsic::trunc;
      llvm::Value* r = b.CreateUnaryIntrinsic(id, f.v);
      auto sat = to->is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      llvm::Type* it = llvm_type_of(l.ctx(), to);
      return {b.CreateIntrinsic(sat, {it, f.v->getType()}, {r}), to};
    }
    return l.convert(f, to);
  }
  // Into bfloat16: through float, or double where float would round first.
  const ir::Type* from = v.t;
  llvm::Value* x;
  if (from->kind == ir::TypeKind::Float) {
    x = from->bits == 64 ? v.v : l.convert(v, ir::float32()).v;
  } else if (from->kind == ir::TypeKind::Integer && from->bits <= 16) {
    x = l.convert(v, ir::float32()).v;  // exact
  } else {
    x = l.convert(v, ir::float64()).v;  // exact up to 53 bits
  }
  return {bf16_from_float(l, x, mode), to};
}

llvm::Value* float_negate(Lowerer& l, llvm::Value* v) {
  auto& b = l.b();
  if (!v->getType()->isBFloatTy()) return b.CreateFNeg(v);
  // x86 widens a bfloat fneg and rounds back through a libcall: flip the sign bit.
  return b.CreateBitCast(b.CreateXor(b.CreateBitCast(v, b.getInt16Ty()), 0x8000), v->getType());
}

llvm::Value* half_abs(Lowerer& l, llvm::Value* v) {
  auto& b = l.b();
  if (v->getType()->isBFloatTy())  // clear the sign bit (no libcall round trip on x86)
    return b.CreateBitCast(b.CreateAnd(b.CreateBitCast(v, b.getInt16Ty()), 0x7fff), v->getType());
  if (!l.hooks().is_gpu()) return l.b().CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  // LLVM 19 widens fabs.f16 to f32; PTX has abs.f16 (sm_53+), as numba-cuda emits.
  auto* fty = llvm::FunctionType::get(v->getType(), {v->getType()}, false);
  return l.b().CreateCall(llvm::InlineAsm::get(fty, "abs.f16 $0, $1;", "=h,h", false), {v});
}

llvm::Value* bf16_binary_sm90(Lowerer& l, ast::BinOpKind op, llvm::Value* x, llvm::Value* y) {
  if (!l.hooks().is_gpu() || l.options().cc < 90) return nullptr;
  auto& b = l.b();
  llvm::Type* bf = x->getType();
  // add/sub/mul.bf16 without a rounding modifier, as cuda_bf16.hpp writes
  // them: ptxas may fuse a multiply and an add into one fma.rn.bf16, as it
  // does for numba-cuda, so a*b + c rounds as numba-cuda's does. (LLVM's
  // own bfloat arithmetic is add.rn.bf16, which ptxas never fuses.)
  const char* text = op == ast::BinOpKind::Add    ? "add.bf16 $0, $1, $2;"
                     : op == ast::BinOpKind::Sub  ? "sub.bf16 $0, $1, $2;"
                     : op == ast::BinOpKind::Mult ? "mul.bf16 $0, $1, $2;"
                                                  : nullptr;
  if (text) {
    auto* fty = llvm::FunctionType::get(bf, {bf, bf}, false);
    return b.CreateCall(llvm::InlineAsm::get(fty, text, "=h,h,h", false), {x, y});
  }
  if (op != ast::BinOpKind::Div) return nullptr;
  // cuda_bf16.hpp's __hdiv: the float quotient by div.approx.f32 (which is
  // exact enough for a correctly rounded bfloat16), with a divisor of 2^126
  // or more scaled by 1/4 first and the quotient by 1/4 after (div.approx
  // flushes such quotients), then rounded to nearest.
  llvm::Type* f32 = b.getFloatTy();
  llvm::Value* fa = bf16_to_float(l, x);
  llvm::Value* fb = bf16_to_float(l, y);
  llvm::Value* big =
      b.CreateFCmpOGE(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, fb), llvm::ConstantFP::get(f32, 0x1p126));
  llvm::Value* quarter = llvm::ConstantFP::get(f32, 0.25);
  fb = b.CreateSelect(big, b.CreateFMul(fb, quarter), fb);
  auto* fty = llvm::FunctionType::get(f32, {f32, f32}, false);
  llvm::Value* q = b.CreateCall(llvm::InlineAsm::get(fty, "div.approx.f32 $0, $1, $2;", "=f,f,f", false), {fa, fb});
  llvm::Value* scaled = b.CreateIntrinsic(llvm::Intrinsic::fma, {f32}, {q, quarter, llvm::ConstantFP::get(f32, -0.0)});
  q = b.CreateSelect(big, scaled, q);
  return bf16_from_float(l, q, 'n');
}

Val half_int_convert(Lowerer& l, Val v, const ir::Type* to) {
  auto& b = l.b();
  const bool gpu = l.hooks().is_gpu();
  if (v.t->kind == ir::TypeKind::Integer) {
    // Integer -> float16 rounds to nearest even (cvt.rn.f16.<int>).
    if (!gpu) {
      llvm::Type* h = llvm_type_of(l.ctx(), to);
      return {v.t->is_signed ? b.CreateSIToFP(v.v, h) : b.CreateUIToFP(v.v, h), to};
    }
    llvm::Value* x = v.v;
    const char* reg = "h";
    if (v.t->bits == 8) x = v.t->is_signed ? b.CreateSExt(x, b.getInt16Ty()) : b.CreateZExt(x, b.getInt16Ty());
    if (v.t->bits == 32) reg = "r";
    if (v.t->bits == 64) reg = "l";
    std::string text = concat("cvt.rn.f16.", v.t->is_signed ? "s" : "u", v.t->bits, " $0, $1;");
    auto* fty = llvm::FunctionType::get(b.getHalfTy(), {x->getType()}, false);
    return {b.CreateCall(llvm::InlineAsm::get(fty, text, std::string("=h,") + reg, false), {x}), to};
  }
  // float16 -> integer: numba-cuda rounds to the nearest integer (cvt.rni,
  // saturating, NaN to 0), unlike the truncation of float32/float64.
  if (!gpu) {
    llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, b.CreateFPExt(v.v, b.getFloatTy()));
    auto sat = to->is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return {b.CreateIntrinsic(sat, {llvm_type_of(l.ctx(), to), r->getType()}, {r}), to};
  }
  llvm::Type* rt = to->bits == 8 ? b.getInt16Ty() : llvm_type_of(l.ctx(), to);
  const char* reg = to->bits <= 16 ? "h" : to->bits == 32 ? "r" : "l";
  std::string text = concat("cvt.rni.", to->is_signed ? "s" : "u", to->bits, ".f16 $0, $1;");
  auto* fty = llvm::FunctionType::get(rt, {v.v->getType()}, false);
  llvm::Value* r = b.CreateCall(llvm::InlineAsm::get(fty, text, std::string("=") + reg + ",h", false), {v.v});
  if (to->bits == 8) r = b.CreateTrunc(r, b.getInt8Ty());
  return {r, to};
}

namespace {

const ir::Type* elem_of(const std::string& key) {
  return starts_with(key, "cuda.bf16.") ? ir::bfloat16() : ir::float16();
}

// Widens a 16-bit float to float (exact).
llvm::Value* widen(Lowerer& l, Val v) { return l.convert(v, ir::float32()).v; }

// Rounds a float/double result into the 16-bit type `elem`.
Val narrow(Lowerer& l, llvm::Value* v, const ir::Type* elem) {
  return l.convert({v, v->getType()->isDoubleTy() ? ir::float64() : ir::float32()}, elem);
}

llvm::Value* clamp01(Lowerer& l, llvm::Value* f) {
  auto& b = l.b();
  llvm::Value* zero = llvm::ConstantFP::get(f->getType(), 0.0);
  llvm::Value* one = llvm::ConstantFP::get(f->getType(), 1.0);
  // .sat: NaN becomes +0.
  llvm::Value* r = b.CreateSelect(b.CreateFCmpOGT(f, one), one, f);
  return b.CreateSelect(b.CreateFCmpOGT(r, zero), r, zero);
}

llvm::Value* float_math(Lowerer& l, const std::string& f, std::vector<llvm::Value*> args) {
  auto& b = l.b();
  if (f == "floor") return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, args[0]);
  if (f == "ceil") return b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, args[0]);
  if (f == "trunc") return b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, args[0]);
  if (f == "rint") return b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, args[0]);
  if (f == "fabs") return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, args[0]);
  if (f == "sqrt") return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, args[0]);
  if (f == "fmod") return b.CreateFRem(args[0], args[1]);
  std::string name = f == "gamma" ? "tgamma" : f;
  return l.hooks().math(l, name, args);
}

Val lower_op(Lowerer& l, const sema::ExprInfo& inf, const std::string& name) {
  auto& b = l.b();
  const ir::Type* elem = elem_of(inf.intrinsic);
  const bool bf = ir::is_bfloat16(elem);
  // float16 add/sub/mul/div/neg/abs/fma stay native half operations (PTX
  // add.f16, ...); the rest computes in float and rounds once.
  auto x = [&](size_t i) { return arg(l, inf, i); };
  if (name == "hneg") return {float_negate(l, x(0).v), elem};
  if (name == "habs") {
    return {half_abs(l, x(0).v), elem};
  }
  static const std::map<std::string, ast::BinOpKind> arith = {
      {"hadd", ast::BinOpKind::Add},     {"hsub", ast::BinOpKind::Sub},     {"hmul", ast::BinOpKind::Mult},
      {"hdiv", ast::BinOpKind::Div},     {"hadd_rn", ast::BinOpKind::Add},  {"hsub_rn", ast::BinOpKind::Sub},
      {"hmul_rn", ast::BinOpKind::Mult}, {"hadd_sat", ast::BinOpKind::Add}, {"hsub_sat", ast::BinOpKind::Sub},
      {"hmul_sat", ast::BinOpKind::Mult}};
  if (auto it = arith.find(name); it != arith.end()) {
    Val a = x(0), c = x(1);
    if (name.size() > 4 && name.substr(name.size() - 4) == "_sat") {
      Val f = binary_op(l, it->second, {widen(l, a), ir::float32()}, {widen(l, c), ir::float32()}, ir::float32(), {});
      return narrow(l, clamp01(l, f.v), elem);
    }
    return binary_op(l, it->second, a, c, elem, {});
  }
  if (name == "hfma" || name == "hfma_sat" || name == "hfma_relu") {
    Val a = x(0), c = x(1), d = x(2);
    if (!bf && name == "hfma" && l.hooks().is_gpu()) {
      return {b.CreateIntrinsic(llvm::Intrinsic::fma, {a.v->getType()}, {a.v, c.v, d.v}), elem};
    }
    // The product of two 16-bit floats is exact in double; one rounding of
    // the sum there, then into the 16-bit type.
    auto dbl = [&](Val v) { return l.convert(v, ir::float64()).v; };
    llvm::Value* r = b.CreateIntrinsic(llvm::Intrinsic::fma, {b.getDoubleTy()}, {dbl(a), dbl(c), dbl(d)});
    if (name == "hfma_sat") r = clamp01(l, r);
    if (name == "hfma_relu") {
      llvm::Value* zero = llvm::ConstantFP::get(r->getType(), 0.0);
      r = b.CreateSelect(b.CreateFCmpOLT(r, zero), zero, r);
    }
    return narrow(l, r, elem);
  }
  static const std::map<std::string, ast::CompareOpKind> cmp = {
      {"heq", ast::CompareOpKind::Eq},  {"hne", ast::CompareOpKind::NotEq}, {"hgt", ast::CompareOpKind::Gt},
      {"hge", ast::CompareOpKind::GtE}, {"hlt", ast::CompareOpKind::Lt},    {"hle", ast::CompareOpKind::LtE}};
  if (auto it = cmp.find(name); it != cmp.end()) {
    Val a = x(0), c = x(1);
    if (name == "hne") {  // __hne: false when either side is NaN
      Val fa{widen(l, a), ir::float32()}, fc{widen(l, c), ir::float32()};
      return {b.CreateFCmpONE(fa.v, fc.v), ir::boolean()};
    }
    return {compare_values(l, it->second, a, c), ir::boolean()};
  }
  if (name == "hmax" || name == "hmin" || name == "hmax_nan" || name == "hmin_nan") {
    llvm::Value *a = widen(l, x(0)), *c = widen(l, x(1));
    llvm::Intrinsic::ID id = name == "hmax"       ? llvm::Intrinsic::maxnum
                             : name == "hmin"     ? llvm::Intrinsic::minnum
                             : name == "hmax_nan" ? llvm::Intrinsic::maximum
                                                  : llvm::Intrinsic::minimum;
    return narrow(l, b.CreateBinaryIntrinsic(id, a, c), elem);
  }
  if (name == "hisnan") {
    llvm::Value* a = widen(l, x(0));
    return {b.CreateFCmpUNO(a, a), ir::boolean()};
  }
  if (name == "hisinf") {  // -1 for -inf, 1 for +inf, else 0
    llvm::Value* a = widen(l, x(0));
    llvm::Value* inf = llvm::ConstantFP::getInfinity(a->getType());
    llvm::Value* r = b.CreateSelect(b.CreateFCmpOEQ(a, inf), b.getInt32(1), b.getInt32(0));
    r = b.CreateSelect(b.CreateFCmpOEQ(a, b.CreateFNeg(inf)), b.getInt32(-1), r);
    return {r, ir::int32()};
  }
  static const std::map<std::string, std::string> unary = {
      {"hsin", "sin"},     {"hcos", "cos"},     {"hexp", "exp"},     {"hexp2", "exp2"}, {"hexp10", "exp10"},
      {"hlog", "log"},     {"hlog2", "log2"},   {"hlog10", "log10"}, {"hsqrt", "sqrt"}, {"hceil", "ceil"},
      {"hfloor", "floor"}, {"htrunc", "trunc"}, {"hrint", "rint"},   {"htanh", "tanh"}, {"htanh_approx", "tanh"}};
  if (auto it = unary.find(name); it != unary.end()) {
    return narrow(l, float_math(l, it->second, {widen(l, x(0))}), elem);
  }
  if (name == "hrsqrt" || name == "hrcp") {
    llvm::Value* a = widen(l, x(0));
    if (name == "hrsqrt") a = b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a);
    return narrow(l, b.CreateFDiv(llvm::ConstantFP::get(a->getType(), 1.0), a), elem);
  }
  return {};
}

Val lower_bf16_conversion(Lowerer& l, const sema::ExprInfo& inf, const std::string& name) {
  auto& b = l.b();
  Val v = arg(l, inf, 0);
  if (name.find("_as_") != std::string::npos) {
    llvm::Type* to = llvm_type_of(l.ctx(), inf.type);
    return {b.CreateBitCast(v.v, to), inf.type};
  }
  char mode = 'n';
  if (name.size() > 3 && name[name.size() - 3] == '_' && name[name.size() - 2] == 'r') mode = name.back();
  return bf16_convert(l, v, inf.type, mode);
}

}  // namespace

void register_half(std::map<std::string, IntrinsicFn>& table) {
  auto op = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    std::string name = inf.intrinsic.substr(10);  // after "cuda.fp16." / "cuda.bf16."
    if (Val r = lower_op(l, inf, name); r.v) return l.convert(r, inf.type);
    if (starts_with(inf.intrinsic, "cuda.bf16.")) return lower_bf16_conversion(l, inf, name);
    l.unsupported(e->loc, concat(inf.intrinsic, "() is not supported in kernels"));
  };
  table["cuda.fp16."] = op;
  table["cuda.bf16."] = op;
  table["half.math."] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    std::string f = inf.intrinsic.substr(10);
    if (f == "isnan" || f == "isinf" || f == "isfinite") {
      llvm::Value* x = widen(l, arg(l, inf, 0));
      if (f == "isnan") return {b.CreateFCmpUNO(x, x), ir::boolean()};
      llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      llvm::Value* inf_c = llvm::ConstantFP::getInfinity(x->getType());
      return {f == "isinf" ? b.CreateFCmpOEQ(a, inf_c) : b.CreateFCmpOLT(a, inf_c), ir::boolean()};
    }
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < inf.ordered_args.size(); ++i) args.push_back(widen(l, arg(l, inf, i)));
    return narrow(l, float_math(l, f, args), inf.type);
  };
}

}  // namespace cuhost::codegen
