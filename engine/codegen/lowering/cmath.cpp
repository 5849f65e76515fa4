// The cmath module in kernels: CPython's results, special values included.
//
// numba-cuda's tests (and users porting host code) compare kernel results
// with CPython's cmath, which follows C99's Annex G: infinities and NaNs in
// either component give the answers of fixed tables (read off CPython by
// gen_cmath_special_values.py into cmath_special_values.inc), signed zeros
// pick the side of each branch cut, and large or tiny arguments are scaled
// so that nothing overflows on the way. Finite arguments use the same
// algorithms as CPython's cmathmodule.c (Kahan's for the inverse functions:
// "Branch Cuts for Complex Elementary Functions", 1987), so results agree
// with CPython to a few ulps and exactly on every signed zero.
//
// Each function is emitted once per module and precision as an internal
// LLVM function on the parts (`cuhost.cmath.<name>.f32|f64`): complex64
// stays in single precision, as in numba (the thresholds are float's), so
// a GPU never pays for double arithmetic it was not asked for. The
// trigonometric functions are the hyperbolic ones rotated by i, as in
// CPython, which also carries the special values over.
// Both targets run the same IR over their math hooks (libdevice on the GPU).
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cfloat>
#include <cmath>
#include <functional>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

struct SpecialEntry {
  double re, im;
};
#include "codegen/lowering/cmath_special_values.inc"

// CPython's thresholds (cmathmodule.c), for the precision in use: beyond
// them intermediate results would overflow, below them they would be
// subnormal.
struct Limits {
  double large;       // MAX / 4
  double sqrt_large;  // sqrt(large)
  double log_large;   // log(large)
  double min;         // smallest normal number
  double sqrt_min;    // sqrt(min)
  int mant_dig;       // significand bits
  int scale_up;       // subnormal arguments of sqrt are scaled by 2**scale_up
  int scale_down;     // and the root by 2**scale_down
};

Limits limits_of(bool f32) {
  Limits m{};
  m.large = (f32 ? double(FLT_MAX) : DBL_MAX) / 4.0;
  m.sqrt_large = std::sqrt(m.large);
  m.log_large = std::log(m.large);
  m.min = f32 ? double(FLT_MIN) : DBL_MIN;
  m.sqrt_min = std::sqrt(m.min);
  m.mant_dig = f32 ? FLT_MANT_DIG : DBL_MANT_DIG;
  m.scale_up = 2 * (m.mant_dig / 2) + 1;
  m.scale_down = -(m.scale_up + 1) / 2;
  return m;
}

const double kLn2 = 0.6931471805599453094;
const double kLn10 = 2.302585092994045684;

struct Z {
  llvm::Value* re;
  llvm::Value* im;
};

// Emits one function body on parts of type `ft` (float or double); the
// helpers name the operations as the C they come from reads.
class Emit {
 public:
  Emit(Lowerer& l, llvm::Type* ft) : l_(l), b_(l.b()), d_(ft), lim(limits_of(ft->isFloatTy())) {}

  llvm::Value* k(double v) { return llvm::ConstantFP::get(d_, v); }
  llvm::Value* add(llvm::Value* x, llvm::Value* y) { return b_.CreateFAdd(x, y); }
  llvm::Value* sub(llvm::Value* x, llvm::Value* y) { return b_.CreateFSub(x, y); }
  llvm::Value* mul(llvm::Value* x, llvm::Value* y) { return b_.CreateFMul(x, y); }
  llvm::Value* div(llvm::Value* x, llvm::Value* y) { return b_.CreateFDiv(x, y); }
  llvm::Value* neg(llvm::Value* x) { return b_.CreateFNeg(x); }
  llvm::Value* fabs(llvm::Value* x) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  llvm::Value* copysign(llvm::Value* x, llvm::Value* y) {
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, x, y);
  }
  llvm::Value* m(const char* name, llvm::Value* x) { return l_.hooks().math(l_, name, {x}); }
  llvm::Value* m(const char* name, llvm::Value* x, llvm::Value* y) { return l_.hooks().math(l_, name, {x, y}); }

  llvm::Value* lt(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpOLT(x, y); }
  llvm::Value* le(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpOLE(x, y); }
  llvm::Value* gt(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpOGT(x, y); }
  llvm::Value* ge(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpOGE(x, y); }
  llvm::Value* eq(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpOEQ(x, y); }
  llvm::Value* ne(llvm::Value* x, llvm::Value* y) { return b_.CreateFCmpUNE(x, y); }
  llvm::Value* both(llvm::Value* p, llvm::Value* q) { return b_.CreateAnd(p, q); }
  llvm::Value* either(llvm::Value* p, llvm::Value* q) { return b_.CreateOr(p, q); }
  llvm::Value* sel(llvm::Value* c, llvm::Value* x, llvm::Value* y) { return b_.CreateSelect(c, x, y); }
  Z sel(llvm::Value* c, Z x, Z y) { return {sel(c, x.re, y.re), sel(c, x.im, y.im)}; }

  llvm::Value* is_finite(llvm::Value* x) { return lt(fabs(x), k(INFINITY)); }
  llvm::Value* is_inf(llvm::Value* x) { return eq(fabs(x), k(INFINITY)); }
  llvm::Value* ldexp(llvm::Value* x, int e) { return mul(x, k(std::ldexp(1.0, e))); }  // exact: no over/underflow here

  // The class of a component: 0 -inf, 1 negative, 2 -0, 3 +0, 4 positive, 5 +inf, 6 nan.
  llvm::Value* special_class(llvm::Value* x) {
    auto* i32 = b_.getInt32Ty();
    llvm::Type* bits = b_.getIntNTy(d_->getPrimitiveSizeInBits());
    llvm::Value* sign = b_.CreateICmpSLT(b_.CreateBitCast(x, bits), llvm::ConstantInt::get(bits, 0));
    llvm::Value* zero = sel(sign, llvm::ConstantInt::get(i32, 2), llvm::ConstantInt::get(i32, 3));
    llvm::Value* nonzero = sel(sign, llvm::ConstantInt::get(i32, 1), llvm::ConstantInt::get(i32, 4));
    llvm::Value* inf = sel(sign, llvm::ConstantInt::get(i32, 0), llvm::ConstantInt::get(i32, 5));
    llvm::Value* c = sel(eq(x, k(0.0)), zero, nonzero);
    c = sel(is_inf(x), inf, c);
    return sel(b_.CreateFCmpUNO(x, x), llvm::ConstantInt::get(i32, 6), c);
  }

  // table[class(z.re)][class(z.im)], from a constant array in the module.
  Z lookup(const char* name, const SpecialEntry (&table)[7][7], Z z) {
    std::string gname = concat("cuhost.cmath.special.", name, d_->isFloatTy() ? ".f32" : ".f64");
    llvm::GlobalVariable* g = l_.module().getGlobalVariable(gname, true);
    auto* pair = llvm::StructType::get(d_, d_);
    auto* arr = llvm::ArrayType::get(pair, 49);
    if (!g) {
      std::vector<llvm::Constant*> items;
      for (const auto& row : table)
        for (const SpecialEntry& e : row)
          items.push_back(
              llvm::ConstantStruct::get(pair, {llvm::ConstantFP::get(d_, e.re), llvm::ConstantFP::get(d_, e.im)}));
      g = new llvm::GlobalVariable(l_.module(), arr, true, llvm::GlobalValue::InternalLinkage,
                                   llvm::ConstantArray::get(arr, items), gname);
      g->setAlignment(llvm::Align(16));
    }
    llvm::Value* index = b_.CreateAdd(b_.CreateMul(special_class(z.re), b_.getInt32(7)), special_class(z.im));
    llvm::Value* p = b_.CreateInBoundsGEP(arr, g, {b_.getInt32(0), index});
    llvm::Value* v = b_.CreateLoad(pair, p);
    return {b_.CreateExtractValue(v, {0}), b_.CreateExtractValue(v, {1})};
  }

  // (am-1)(am+1) + an*an, computed in double for float parts.
  llvm::Value* near_one_arg(llvm::Value* am, llvm::Value* an) {
    llvm::Type* wide = b_.getDoubleTy();
    llvm::Value* x = d_ == wide ? am : b_.CreateFPExt(am, wide);
    llvm::Value* y = d_ == wide ? an : b_.CreateFPExt(an, wide);
    llvm::Value* one = llvm::ConstantFP::get(wide, 1.0);
    llvm::Value* s = b_.CreateFAdd(b_.CreateFMul(b_.CreateFSub(x, one), b_.CreateFAdd(x, one)), b_.CreateFMul(y, y));
    return d_ == wide ? s : b_.CreateFPTrunc(s, d_);
  }

  llvm::Value* not_finite(Z z) { return b_.CreateNot(both(is_finite(z.re), is_finite(z.im))); }

  // Calls (emitting on first use) the module's function `cuhost.cmath.<name>`.
  Z call(const std::string& name, Z z);

 private:
  Lowerer& l_;
  llvm::IRBuilder<>& b_;
  llvm::Type* d_;

 public:
  const Limits lim;
};

using Body = std::function<Z(Emit&, Z)>;
const std::map<std::string, Body>& bodies();

Z Emit::call(const std::string& name, Z z) {
  std::string fname = concat("cuhost.cmath.", name, d_->isFloatTy() ? ".f32" : ".f64");
  auto* pair = llvm::StructType::get(d_, d_);
  llvm::Function* f = l_.module().getFunction(fname);
  if (!f) {
    auto* fty = llvm::FunctionType::get(pair, {d_, d_}, false);
    f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, fname, l_.module());
    f->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilderBase::InsertPointGuard guard(b_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(l_.ctx(), "entry", f));
    Emit e(l_, d_);
    Z r = bodies().at(name)(e, {f->getArg(0), f->getArg(1)});
    llvm::Value* agg = llvm::UndefValue::get(pair);
    agg = b_.CreateInsertValue(agg, r.re, {0});
    b_.CreateRet(b_.CreateInsertValue(agg, r.im, {1}));
  }
  llvm::Value* v = b_.CreateCall(f, {z.re, z.im});
  return {b_.CreateExtractValue(v, {0}), b_.CreateExtractValue(v, {1})};
}

// i*z and -i*z: the rotations that turn sin into sinh and back.
Z times_i(Emit& e, Z z) { return {e.neg(z.im), z.re}; }
Z times_minus_i(Emit& e, Z z) { return {z.im, e.neg(z.re)}; }

Z sqrt_body(Emit& e, Z z) {
  llvm::Value* ax = e.fabs(z.re);
  llvm::Value* ay = e.fabs(z.im);
  // Both parts subnormal (or zero): scale up so hypot keeps its precision.
  llvm::Value* tiny = e.both(e.lt(ax, e.k(e.lim.min)), e.lt(ay, e.k(e.lim.min)));
  llvm::Value* sx = e.ldexp(ax, e.lim.scale_up);
  llvm::Value* s_tiny =
      e.ldexp(e.m("sqrt", e.add(sx, e.m("hypot", sx, e.ldexp(ay, e.lim.scale_up)))), e.lim.scale_down);
  llvm::Value* ax8 = e.div(ax, e.k(8.0));
  llvm::Value* s_normal = e.mul(e.k(2.0), e.m("sqrt", e.add(ax8, e.m("hypot", ax8, e.div(ay, e.k(8.0))))));
  llvm::Value* s = e.sel(tiny, s_tiny, s_normal);
  llvm::Value* d = e.div(ay, e.mul(e.k(2.0), s));
  llvm::Value* right = e.ge(z.re, e.k(0.0));
  Z r{e.sel(right, s, d), e.sel(right, e.copysign(d, z.im), e.copysign(s, z.im))};
  llvm::Value* zero = e.both(e.eq(z.re, e.k(0.0)), e.eq(z.im, e.k(0.0)));
  r = e.sel(zero, Z{e.k(0.0), z.im}, r);
  return e.sel(e.not_finite(z), e.lookup("sqrt", k_sqrt, z), r);
}

// An infinite real part with a finite non-zero imaginary part: the signs
// come from cos(y) and sin(y) (exp, cosh, sinh and rect compute these).
struct InfCase {
  llvm::Value* when;
  llvm::Value* cos_y;
  llvm::Value* sin_y;
};
InfCase inf_real_case(Emit& e, Z z) {
  llvm::Value* when = e.both(e.is_inf(z.re), e.both(e.is_finite(z.im), e.ne(z.im, e.k(0.0))));
  return {when, e.m("cos", z.im), e.m("sin", z.im)};
}

Z exp_body(Emit& e, Z z) {
  InfCase c = inf_real_case(e, z);
  llvm::Value* pos = e.gt(z.re, e.k(0.0));
  Z inf_r = e.sel(pos, Z{e.copysign(e.k(INFINITY), c.cos_y), e.copysign(e.k(INFINITY), c.sin_y)},
                  Z{e.copysign(e.k(0.0), c.cos_y), e.copysign(e.k(0.0), c.sin_y)});
  Z special = e.sel(c.when, inf_r, e.lookup("exp", k_exp, z));
  // exp(x) overflows before exp(x)*cos(y) does: take e out of it.
  llvm::Value* large = e.gt(z.re, e.k(e.lim.log_large));
  llvm::Value* l = e.m("exp", e.sel(large, e.sub(z.re, e.k(1.0)), z.re));
  llvm::Value* re = e.mul(l, c.cos_y);
  llvm::Value* im = e.mul(l, c.sin_y);
  re = e.sel(large, e.mul(re, e.k(M_E)), re);
  im = e.sel(large, e.mul(im, e.k(M_E)), im);
  // A zero imaginary part stays exact even where e**x overflows (C99).
  im = e.sel(e.eq(z.im, e.k(0.0)), z.im, im);
  return e.sel(e.not_finite(z), special, Z{re, im});
}

// cosh (is_sinh false) and sinh, which share their large-argument scaling.
Z cosh_sinh_body(Emit& e, Z z, bool is_sinh) {
  InfCase c = inf_real_case(e, z);
  llvm::Value* inf = e.k(INFINITY);
  llvm::Value* pos = e.gt(z.re, e.k(0.0));
  Z inf_r;
  if (is_sinh) {
    inf_r = e.sel(pos, Z{e.copysign(inf, c.cos_y), e.copysign(inf, c.sin_y)},
                  Z{e.neg(e.copysign(inf, c.cos_y)), e.copysign(inf, c.sin_y)});
  } else {
    inf_r = e.sel(pos, Z{e.copysign(inf, c.cos_y), e.copysign(inf, c.sin_y)},
                  Z{e.copysign(inf, c.cos_y), e.neg(e.copysign(inf, c.sin_y))});
  }
  Z special = e.sel(c.when, inf_r, is_sinh ? e.lookup("sinh", k_sinh, z) : e.lookup("cosh", k_cosh, z));
  llvm::Value* large = e.gt(e.fabs(z.re), e.k(e.lim.log_large));
  llvm::Value* x = e.sel(large, e.sub(z.re, e.copysign(e.k(1.0), z.re)), z.re);
  llvm::Value* ch = e.m("cosh", x);
  llvm::Value* sh = e.m("sinh", x);
  llvm::Value* re = e.mul(c.cos_y, is_sinh ? sh : ch);
  llvm::Value* im = e.mul(c.sin_y, is_sinh ? ch : sh);
  re = e.sel(large, e.mul(re, e.k(M_E)), re);
  im = e.sel(large, e.mul(im, e.k(M_E)), im);
  return e.sel(e.not_finite(z), special, Z{re, im});
}

Z tanh_body(Emit& e, Z z) {
  llvm::Value* sin_y = e.m("sin", z.im);
  llvm::Value* cos_y = e.m("cos", z.im);
  llvm::Value* when = e.both(e.is_inf(z.re), e.both(e.is_finite(z.im), e.ne(z.im, e.k(0.0))));
  Z inf_r{e.sel(e.gt(z.re, e.k(0.0)), e.k(1.0), e.k(-1.0)), e.copysign(e.k(0.0), e.mul(e.mul(e.k(2.0), sin_y), cos_y))};
  Z special = e.sel(when, inf_r, e.lookup("tanh", k_tanh, z));
  // Large |x|: tanh is +-1 and the imaginary part decays as exp(-2|x|).
  llvm::Value* large = e.gt(e.fabs(z.re), e.k(e.lim.log_large));
  Z big{e.copysign(e.k(1.0), z.re),
        e.mul(e.mul(e.mul(e.k(4.0), sin_y), cos_y), e.m("exp", e.mul(e.k(-2.0), e.fabs(z.re))))};
  llvm::Value* tx = e.m("tanh", z.re);
  llvm::Value* ty = e.m("tan", z.im);
  llvm::Value* cx = e.div(e.k(1.0), e.m("cosh", z.re));
  llvm::Value* txty = e.mul(tx, ty);
  llvm::Value* denom = e.add(e.k(1.0), e.mul(txty, txty));
  Z normal{e.div(e.mul(tx, e.add(e.k(1.0), e.mul(ty, ty))), denom), e.mul(e.mul(e.div(ty, denom), cx), cx)};
  return e.sel(e.not_finite(z), special, e.sel(large, big, normal));
}

// log(hypot(x, y)) for the real part of log, accurate near |z| = 1.
llvm::Value* log_abs(Emit& e, Z z) {
  llvm::Value* ax = e.fabs(z.re);
  llvm::Value* ay = e.fabs(z.im);
  llvm::Value* large = e.either(e.gt(ax, e.k(e.lim.large)), e.gt(ay, e.k(e.lim.large)));
  llvm::Value* r_large = e.add(e.m("log", e.m("hypot", e.div(ax, e.k(2.0)), e.div(ay, e.k(2.0)))), e.k(kLn2));
  llvm::Value* tiny = e.both(e.lt(ax, e.k(e.lim.min)), e.lt(ay, e.k(e.lim.min)));
  llvm::Value* zero = e.both(e.eq(ax, e.k(0.0)), e.eq(ay, e.k(0.0)));
  llvm::Value* r_tiny = e.sub(e.m("log", e.m("hypot", e.ldexp(ax, e.lim.mant_dig), e.ldexp(ay, e.lim.mant_dig))),
                              e.k(e.lim.mant_dig * kLn2));
  r_tiny = e.sel(zero, e.k(-INFINITY), r_tiny);
  llvm::Value* h = e.m("hypot", ax, ay);
  llvm::Value* near_one = e.both(e.le(e.k(0.71), h), e.le(h, e.k(1.73)));
  llvm::Value* am = e.sel(e.gt(ax, ay), ax, ay);
  llvm::Value* an = e.sel(e.gt(ax, ay), ay, ax);
  // (am-1)(am+1) + an*an cancels; in single precision the sum is formed in
  // double (exact for float inputs but for one rounding) so the result
  // keeps float's accuracy.
  llvm::Value* arg = e.near_one_arg(am, an);
  llvm::Value* r_near = e.div(e.m("log1p", arg), e.k(2.0));
  llvm::Value* r = e.sel(near_one, r_near, e.m("log", h));
  return e.sel(large, r_large, e.sel(tiny, r_tiny, r));
}

Z log_body(Emit& e, Z z) {
  Z r{log_abs(e, z), e.m("atan2", z.im, z.re)};
  return e.sel(e.not_finite(z), e.lookup("log", k_log, z), r);
}

// log(hypot(x/2, y/2)) + 2 ln 2 = log|z| + ln 2 for |z| far beyond 1.
llvm::Value* log_abs_large(Emit& e, Z z) {
  return e.add(e.m("log", e.m("hypot", e.div(z.re, e.k(2.0)), e.div(z.im, e.k(2.0)))), e.k(2.0 * kLn2));
}

Z asinh_body(Emit& e, Z z) {
  llvm::Value* large = e.either(e.gt(e.fabs(z.re), e.k(e.lim.sqrt_large)), e.gt(e.fabs(z.im), e.k(e.lim.sqrt_large)));
  llvm::Value* t = log_abs_large(e, z);
  Z big{e.sel(e.ge(z.im, e.k(0.0)), e.copysign(t, z.re), e.neg(e.copysign(t, e.neg(z.re)))),
        e.m("atan2", z.im, e.fabs(z.re))};
  Z s1 = e.call("sqrt", {e.add(e.k(1.0), z.im), e.neg(z.re)});
  Z s2 = e.call("sqrt", {e.sub(e.k(1.0), z.im), z.re});
  Z normal{e.m("asinh", e.sub(e.mul(s1.re, s2.im), e.mul(s2.re, s1.im))),
           e.m("atan2", z.im, e.sub(e.mul(s1.re, s2.re), e.mul(s1.im, s2.im)))};
  return e.sel(e.not_finite(z), e.lookup("asinh", k_asinh, z), e.sel(large, big, normal));
}

Z acos_body(Emit& e, Z z) {
  llvm::Value* large = e.either(e.gt(e.fabs(z.re), e.k(e.lim.large)), e.gt(e.fabs(z.im), e.k(e.lim.large)));
  llvm::Value* t = log_abs_large(e, z);
  Z big{e.m("atan2", e.fabs(z.im), z.re),
        e.sel(e.lt(z.re, e.k(0.0)), e.neg(e.copysign(t, z.im)), e.copysign(t, e.neg(z.im)))};
  Z s1 = e.call("sqrt", {e.sub(e.k(1.0), z.re), e.neg(z.im)});
  Z s2 = e.call("sqrt", {e.add(e.k(1.0), z.re), z.im});
  Z normal{e.mul(e.k(2.0), e.m("atan2", s1.re, s2.re)), e.m("asinh", e.sub(e.mul(s2.re, s1.im), e.mul(s2.im, s1.re)))};
  return e.sel(e.not_finite(z), e.lookup("acos", k_acos, z), e.sel(large, big, normal));
}

Z acosh_body(Emit& e, Z z) {
  llvm::Value* large = e.either(e.gt(e.fabs(z.re), e.k(e.lim.large)), e.gt(e.fabs(z.im), e.k(e.lim.large)));
  Z big{log_abs_large(e, z), e.m("atan2", z.im, z.re)};
  Z s1 = e.call("sqrt", {e.sub(z.re, e.k(1.0)), z.im});
  Z s2 = e.call("sqrt", {e.add(z.re, e.k(1.0)), z.im});
  Z normal{e.m("asinh", e.add(e.mul(s1.re, s2.re), e.mul(s1.im, s2.im))), e.mul(e.k(2.0), e.m("atan2", s1.im, s2.re))};
  return e.sel(e.not_finite(z), e.lookup("acosh", k_acosh, z), e.sel(large, big, normal));
}

Z atanh_body(Emit& e, Z z0) {
  // atanh(-z) = -atanh(z): work with a non-negative real part.
  llvm::Value* flip = e.lt(z0.re, e.k(0.0));
  Z z = e.sel(flip, Z{e.neg(z0.re), e.neg(z0.im)}, z0);
  llvm::Value* ay = e.fabs(z.im);
  llvm::Value* large = e.either(e.gt(z.re, e.k(e.lim.sqrt_large)), e.gt(ay, e.k(e.lim.sqrt_large)));
  llvm::Value* h = e.m("hypot", e.div(z.re, e.k(2.0)), e.div(z.im, e.k(2.0)));
  Z big{e.div(e.div(e.div(z.re, e.k(4.0)), h), h), e.neg(e.copysign(e.k(M_PI / 2), e.neg(z.im)))};
  // z = 1 +- tiny*i: the formula below would divide 0 by 0.
  llvm::Value* at_one = e.both(e.eq(z.re, e.k(1.0)), e.lt(ay, e.k(e.lim.sqrt_min)));
  Z one{e.neg(e.m("log", e.div(e.m("sqrt", ay), e.m("sqrt", e.m("hypot", ay, e.k(2.0)))))),
        e.copysign(e.div(e.m("atan2", e.k(2.0), e.neg(ay)), e.k(2.0)), z.im)};
  one = e.sel(e.eq(ay, e.k(0.0)), Z{e.k(INFINITY), z.im}, one);
  llvm::Value* omx = e.sub(e.k(1.0), z.re);
  Z normal{e.div(e.m("log1p", e.div(e.mul(e.k(4.0), z.re), e.add(e.mul(omx, omx), e.mul(ay, ay)))), e.k(4.0)),
           e.neg(e.div(e.m("atan2", e.mul(e.k(-2.0), z.im), e.sub(e.mul(omx, e.add(e.k(1.0), z.re)), e.mul(ay, ay))),
                       e.k(2.0)))};
  Z r = e.sel(large, big, e.sel(at_one, one, normal));
  r = e.sel(flip, Z{e.neg(r.re), e.neg(r.im)}, r);
  return e.sel(e.not_finite(z0), e.lookup("atanh", k_atanh, z0), r);
}

// rect(r, phi) with r in .re and phi in .im.
Z rect_body(Emit& e, Z z) {
  llvm::Value* r = z.re;
  llvm::Value* phi = z.im;
  InfCase c = inf_real_case(e, z);
  llvm::Value* inf = e.k(INFINITY);
  Z inf_r{e.copysign(inf, c.cos_y), e.copysign(inf, c.sin_y)};
  inf_r = e.sel(e.gt(r, e.k(0.0)), inf_r, Z{e.neg(inf_r.re), e.neg(inf_r.im)});
  Z special = e.sel(c.when, inf_r, e.lookup("rect", k_rect, z));
  Z normal = e.sel(e.eq(phi, e.k(0.0)), Z{r, e.mul(r, phi)}, Z{e.mul(r, c.cos_y), e.mul(r, c.sin_y)});
  return e.sel(e.not_finite(z), special, normal);
}

const std::map<std::string, Body>& bodies() {
  static const std::map<std::string, Body> m = {
      {"sqrt", sqrt_body},
      {"exp", exp_body},
      {"log", log_body},
      {"log10",
       [](Emit& e, Z z) {
         Z r = e.call("log", z);
         return Z{e.div(r.re, e.k(kLn10)), e.div(r.im, e.k(kLn10))};
       }},
      {"cosh", [](Emit& e, Z z) { return cosh_sinh_body(e, z, false); }},
      {"sinh", [](Emit& e, Z z) { return cosh_sinh_body(e, z, true); }},
      {"tanh", tanh_body},
      {"cos", [](Emit& e, Z z) { return e.call("cosh", times_i(e, z)); }},
      {"sin", [](Emit& e, Z z) { return times_minus_i(e, e.call("sinh", times_i(e, z))); }},
      {"tan", [](Emit& e, Z z) { return times_minus_i(e, e.call("tanh", times_i(e, z))); }},
      {"asinh", asinh_body},
      {"acos", acos_body},
      {"acosh", acosh_body},
      {"atanh", atanh_body},
      {"asin", [](Emit& e, Z z) { return times_minus_i(e, e.call("asinh", times_i(e, z))); }},
      {"atan", [](Emit& e, Z z) { return times_minus_i(e, e.call("atanh", times_i(e, z))); }},
      {"rect", rect_body},
  };
  return m;
}

Val call_arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

llvm::Value* make_complex(Lowerer& l, const ir::Type* t, llvm::Value* re, llvm::Value* im) {
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(t));
  agg = l.b().CreateInsertValue(agg, re, {0});
  return l.b().CreateInsertValue(agg, im, {1});
}

llvm::Value* float_class(Lowerer& l, const std::string& what, llvm::Value* x) {
  auto& b = l.b();
  llvm::Value* ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* inf = llvm::ConstantFP::getInfinity(x->getType());
  if (what == "isnan") return b.CreateFCmpUNO(x, x);
  if (what == "isinf") return b.CreateFCmpOEQ(ax, inf);
  return b.CreateFCmpOLT(ax, inf);  // isfinite
}

}  // namespace

Val lower_cmath_call(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const std::string name = inf.intrinsic.substr(6);
  if (name == "isnan" || name == "isinf" || name == "isfinite") {
    Val x = call_arg(l, inf, 0);
    if (x.t->kind != ir::TypeKind::Complex) return {float_class(l, name, x.v), ir::boolean()};
    llvm::Value* re = b.CreateExtractValue(x.v, {0});
    llvm::Value* im = b.CreateExtractValue(x.v, {1});
    llvm::Value* r = name == "isfinite" ? b.CreateAnd(float_class(l, name, re), float_class(l, name, im))
                                        : b.CreateOr(float_class(l, name, re), float_class(l, name, im));
    return {r, ir::boolean()};
  }
  if (name == "rect") {
    llvm::Value* r = call_arg(l, inf, 0).v;
    llvm::Value* phi = call_arg(l, inf, 1).v;
    Emit em(l, r->getType());
    Z z = em.call("rect", {r, phi});
    return {make_complex(l, inf.type, z.re, z.im), inf.type};
  }
  Val x = call_arg(l, inf, 0);
  Emit em(l, l.llvm_type(x.t)->getStructElementType(0));
  Z z{b.CreateExtractValue(x.v, {0}), b.CreateExtractValue(x.v, {1})};
  if (name == "phase") return {em.m("atan2", z.im, z.re), inf.type};
  if (name == "polar") {
    llvm::Value* t = llvm::UndefValue::get(l.llvm_type(inf.type));
    t = b.CreateInsertValue(t, em.m("hypot", z.re, z.im), {0});
    return {b.CreateInsertValue(t, em.m("atan2", z.im, z.re), {1}), inf.type};
  }
  if (!bodies().count(name)) l.unsupported(e->loc, concat("cmath.", name, "() is not supported in kernels"));
  Z r = em.call(name, z);
  Val result{make_complex(l, inf.type, r.re, r.im), inf.type};
  if (name == "log" && inf.ordered_args.size() > 1 && inf.ordered_args[1]) {
    // log(z, base) = log(z) / log(base), CPython's complex quotient.
    Val base = call_arg(l, inf, 1);
    Z lb = em.call("log", {b.CreateExtractValue(base.v, {0}), b.CreateExtractValue(base.v, {1})});
    result = complex_binary(l, ast::BinOpKind::Div, result, {make_complex(l, inf.type, lb.re, lb.im), inf.type},
                            inf.type, e->loc);
  }
  return result;
}

}  // namespace cuhost::codegen
