// Lowering of the storage-only floats (typing/fp8.cpp): fp8_e5m2, fp8_e4m3
// and fp8_e8m0 are one byte, bfloat16_raw two, and they only convert. Every
// encoding is emitted here with integer and exact floating operations (no
// hardware cvt), so the GPU and the CPU backend give the same bits. The
// rules are CUDA's cuda_fp8.h ones: E4M3 has no infinity (overflow without
// saturation gives NaN 0x7F), E5M2 is IEEE-like (overflow gives infinity
// 0x7C), E8M0 is an exponent only (2^(c-127), 0xFF is NaN, no zero).
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

bool is(const ir::Type* t, const char* key) { return t->kind == ir::TypeKind::Float && t->key == key; }

// The float value of an fp8 / bfloat16_raw payload (exact).
llvm::Value* decode(Lowerer& l, llvm::Value* v, const ir::Type* t) {
  auto& b = l.b();
  if (is(t, "bfloat16_raw")) return bf16_to_float(l, b.CreateBitCast(v, b.getBFloatTy()));
  llvm::Value* c = b.CreateZExt(v, b.getInt32Ty());
  if (is(t, "fp8_e5m2")) {  // the upper byte of an IEEE half
    llvm::Value* h = b.CreateBitCast(b.CreateTrunc(b.CreateShl(c, 8), b.getInt16Ty()), b.getHalfTy());
    return b.CreateFPExt(h, b.getFloatTy());
  }
  if (is(t, "fp8_e8m0")) {
    llvm::Value* bits = b.CreateShl(c, 23);
    bits = b.CreateSelect(b.CreateICmpEQ(c, b.getInt32(0)), b.getInt32(0x00400000), bits);  // 2^-127
    bits = b.CreateSelect(b.CreateICmpEQ(c, b.getInt32(0xff)), b.getInt32(0x7fc00000), bits);
    return b.CreateBitCast(bits, b.getFloatTy());
  }
  // E4M3: bias 7, 3 mantissa bits, S.1111.111 is NaN.
  llvm::Value* sign = b.CreateShl(b.CreateLShr(c, 7), 31);
  llvm::Value* e = b.CreateAnd(b.CreateLShr(c, 3), 0xf);
  llvm::Value* m = b.CreateAnd(c, 7);
  llvm::Value* normal = b.CreateOr(b.CreateShl(b.CreateAdd(e, b.getInt32(127 - 7)), 23), b.CreateShl(m, 20));
  llvm::Value* sub = b.CreateFMul(b.CreateUIToFP(m, b.getFloatTy()), llvm::ConstantFP::get(b.getFloatTy(), 0x1p-9));
  llvm::Value* mag = b.CreateSelect(b.CreateICmpEQ(e, b.getInt32(0)), b.CreateBitCast(sub, b.getInt32Ty()), normal);
  llvm::Value* bits = b.CreateOr(sign, mag);
  bits = b.CreateSelect(b.CreateICmpEQ(b.CreateAnd(c, 0x7f), b.getInt32(0x7f)), b.getInt32(0x7fc00000), bits);
  return b.CreateBitCast(bits, b.getFloatTy());
}

struct Fp8Format {
  int mbits, bias;
  int max_code;       // largest finite magnitude code
  int overflow_code;  // without saturation: infinity (E5M2) or NaN (E4M3)
};
const Fp8Format kE5M2{2, 15, 0x7b, 0x7c};
const Fp8Format kE4M3{3, 7, 0x7e, 0x7f};

// Rounds double `x` to nearest even into an E4M3/E5M2 byte; `sat` (i1)
// clamps overflow and infinities to the largest finite value.
llvm::Value* encode_fp8(Lowerer& l, llvm::Value* x, const Fp8Format& f, llvm::Value* sat) {
  auto& b = l.b();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* bits = b.CreateBitCast(x, i64);
  llvm::Value* sign = b.CreateTrunc(b.CreateShl(b.CreateLShr(bits, 63), 7), b.getInt32Ty());
  llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* is_nan = b.CreateFCmpUNO(x, x);
  llvm::Value* is_inf = b.CreateFCmpOEQ(a, llvm::ConstantFP::getInfinity(b.getDoubleTy()));
  // Unbiased exponent, clamped to the format's subnormal range.
  llvm::Value* e = b.CreateSub(b.CreateAnd(b.CreateLShr(bits, 52), 0x7ff), llvm::ConstantInt::get(i64, 1023));
  llvm::Value* emin = llvm::ConstantInt::get(i64, 1 - f.bias);
  e = b.CreateSelect(b.CreateICmpSLT(e, emin), emin, e);
  // quantum = 2^(e - mbits), built from its exponent bits; a / quantum is exact.
  llvm::Value* qexp =
      b.CreateAdd(b.CreateSub(e, llvm::ConstantInt::get(i64, f.mbits)), llvm::ConstantInt::get(i64, 1023));
  llvm::Value* quantum = b.CreateBitCast(b.CreateShl(qexp, 52), b.getDoubleTy());
  llvm::Value* q =
      b.CreateFDiv(b.CreateSelect(b.CreateOr(is_nan, is_inf), llvm::ConstantFP::get(b.getDoubleTy(), 0.0), a), quantum);
  llvm::Value* n = b.CreateFPToUI(b.CreateUnaryIntrinsic(llvm::Intrinsic::rint, q), i64);
  // code = ((e + bias - 1) << mbits) + n covers subnormals, normals and the
  // carry into the next binade alike.
  llvm::Value* code = b.CreateAdd(b.CreateShl(b.CreateAdd(e, llvm::ConstantInt::get(i64, f.bias - 1)), f.mbits), n);
  llvm::Value* over = b.CreateOr(is_inf, b.CreateICmpSGT(code, llvm::ConstantInt::get(i64, f.max_code)));
  llvm::Value* mag = b.CreateTrunc(code, b.getInt32Ty());
  llvm::Value* clamp = b.CreateSelect(sat, b.getInt32(f.max_code), b.getInt32(f.overflow_code));
  mag = b.CreateSelect(over, clamp, mag);
  llvm::Value* out = b.CreateOr(sign, mag);
  out = b.CreateSelect(is_nan, b.getInt32(0x7f), out);
  return b.CreateTrunc(out, b.getInt8Ty());
}

// The E8M0 byte of double `x`: its binary exponent, rounded by `mode`
// (i32: cudaRoundMode 0 nearest, 1 toward zero, 2 up, 3 down; the magnitude
// is rounded), `sat` clamping overflow to 0xFE instead of NaN 0xFF.
llvm::Value* encode_e8m0(Lowerer& l, llvm::Value* x, llvm::Value* sat, llvm::Value* mode) {
  auto& b = l.b();
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* bits = b.CreateBitCast(x, i64);
  llvm::Value* is_nan = b.CreateFCmpUNO(x, x);
  llvm::Value* expf = b.CreateAnd(b.CreateLShr(bits, 52), 0x7ff);
  llvm::Value* mant = b.CreateAnd(bits, llvm::ConstantInt::get(i64, (std::uint64_t(1) << 52) - 1));
  llvm::Value* is_inf = b.CreateAnd(b.CreateICmpEQ(expf, llvm::ConstantInt::get(i64, 0x7ff)), b.CreateNot(is_nan));
  llvm::Value* code = b.CreateSub(expf, llvm::ConstantInt::get(i64, 1023 - 127));
  llvm::Value* inexact = b.CreateICmpNE(mant, llvm::ConstantInt::get(i64, 0));
  llvm::Value* half_up = b.CreateICmpUGE(mant, llvm::ConstantInt::get(i64, std::uint64_t(1) << 51));
  llvm::Value* neg = b.CreateICmpSLT(bits, llvm::ConstantInt::get(i64, 0));
  llvm::Value* up_for_mode = b.CreateSelect(
      b.CreateICmpEQ(mode, b.getInt32(0)), half_up,
      b.CreateSelect(b.CreateICmpEQ(mode, b.getInt32(2)), b.CreateAnd(inexact, b.CreateNot(neg)),
                     b.CreateSelect(b.CreateICmpEQ(mode, b.getInt32(3)), b.CreateAnd(inexact, neg), b.getFalse())));
  code = b.CreateAdd(code, b.CreateZExt(up_for_mode, i64));
  code = b.CreateSelect(b.CreateICmpSLT(code, llvm::ConstantInt::get(i64, 0)), llvm::ConstantInt::get(i64, 0), code);
  llvm::Value* over = b.CreateOr(is_inf, b.CreateICmpSGT(code, llvm::ConstantInt::get(i64, 0xfe)));
  llvm::Value* out = b.CreateTrunc(code, b.getInt32Ty());
  out = b.CreateSelect(over, b.CreateSelect(sat, b.getInt32(0xfe), b.getInt32(0xff)), out);
  out = b.CreateSelect(is_nan, b.getInt32(0xff), out);
  return b.CreateTrunc(out, b.getInt8Ty());
}

// The double value of any number (exact for floats and integers up to 53 bits).
llvm::Value* as_double(Lowerer& l, Val v) {
  if (ir::is_storage_float(v.t)) return l.b().CreateFPExt(decode(l, v.v, v.t), l.b().getDoubleTy());
  return l.convert(v, ir::float64()).v;
}

llvm::Value* encode(Lowerer& l, llvm::Value* x, const ir::Type* to, llvm::Value* sat, llvm::Value* interp_e5m2,
                    llvm::Value* mode) {
  auto& b = l.b();
  if (is(to, "fp8_e8m0")) return encode_e8m0(l, x, sat, mode);
  if (is(to, "bfloat16_raw")) return b.CreateBitCast(bf16_from_float(l, x, 'n'), b.getInt16Ty());
  if (is(to, "fp8_e5m2")) return encode_fp8(l, x, kE5M2, sat);
  if (is(to, "fp8_e4m3")) return encode_fp8(l, x, kE4M3, sat);
  // A uint8 storage byte: the interpretation is chosen at run time.
  return b.CreateSelect(interp_e5m2, encode_fp8(l, x, kE5M2, sat), encode_fp8(l, x, kE4M3, sat));
}

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

}  // namespace

Val storage_float_convert(Lowerer& l, Val v, const ir::Type* to) {
  auto& b = l.b();
  if (ir::is_storage_float(v.t)) {
    if (ir::is_storage_float(to)) return {encode(l, as_double(l, v), to, b.getTrue(), nullptr, b.getInt32(1)), to};
    Val f{decode(l, v.v, v.t), ir::float32()};
    if (to->kind == ir::TypeKind::Integer) {  // toward zero, saturating, NaN to 0 (cvt.rzi)
      auto sat = to->is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      return {b.CreateIntrinsic(sat, {llvm_type_of(l.ctx(), to), f.v->getType()}, {f.v}), to};
    }
    return l.convert(f, to);
  }
  // Constructing fp8 values (cuda_fp8.h's constructors): saturate to the
  // largest finite value; E8M0 rounds toward zero.
  return {encode(l, as_double(l, v), to, b.getTrue(), nullptr, b.getInt32(1)), to};
}

void register_fp8(std::map<std::string, IntrinsicFn>& table) {
  table["bfloat16_raw.x"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    const auto* a = static_cast<const ast::Attribute*>(e);
    return {l.expr(a->value.get()).v, inf.type};  // the raw bits are the value
  };
  table["cuda.fp8."] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    std::string name = inf.intrinsic.substr(9);
    if (name == "cvt_e8m0_to_bf16raw") {  // 2^(c-127) as bfloat16 bits (0xFF: NaN)
      Val c = arg(l, inf, 0);
      llvm::Value* x = b.CreateZExt(c.v, b.getInt16Ty());
      llvm::Value* bits = b.CreateShl(x, 7);
      bits = b.CreateSelect(b.CreateICmpEQ(x, b.getInt16(0)), b.getInt16(0x0040), bits);
      bits = b.CreateSelect(b.CreateICmpEQ(x, b.getInt16(0xff)), b.getInt16(0x7fc0), bits);
      return {bits, inf.type};
    }
    llvm::Value* x = as_double(l, arg(l, inf, 0));
    llvm::Value* sat = b.CreateICmpNE(l.convert(arg(l, inf, 1), ir::int32()).v, b.getInt32(0));
    llvm::Value* third = l.convert(arg(l, inf, 2), ir::int32()).v;
    if (name.size() > 8 && name.compare(name.size() - 8, 8, "_to_e8m0") == 0)
      return {encode(l, x, ir::storage_float("fp8_e8m0"), sat, nullptr, third), inf.type};
    if (name.size() > 7 && name.compare(name.size() - 7, 7, "_to_fp8") == 0) {
      llvm::Value* e5m2 = b.CreateICmpEQ(third, b.getInt32(1));  // __NV_E5M2 == 1
      return {encode(l, x, ir::uint8(), sat, e5m2, nullptr), inf.type};
    }
    l.unsupported(e->loc, concat(inf.intrinsic, "() is not supported in kernels"));
  };
}

}  // namespace cuhost::codegen
