// Lowering of complex64/complex128 values: {float, float} / {double, double}
// structs (the layout of NumPy's interleaved real/imag elements), built
// from ordinary float operations and the target's math functions so the
// same IR serves the GPU (libdevice) and the CPU (libm). Arithmetic follows
// numba: component-wise add/sub, the textbook product, CPython's division
// algorithm (scale by the larger divisor component); `**` by an integer
// uses repeated squaring, by a complex the polar form. The cmath module's
// functions are in cmath.cpp.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cmath>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

const ir::Type* component_type(const ir::Type* c) { return c->bits == 64 ? ir::float32() : ir::float64(); }

struct Parts {
  llvm::Value* re;
  llvm::Value* im;
};

Parts split(Lowerer& l, llvm::Value* z) { return {l.b().CreateExtractValue(z, {0}), l.b().CreateExtractValue(z, {1})}; }

llvm::Value* make(Lowerer& l, const ir::Type* t, llvm::Value* re, llvm::Value* im) {
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(t));
  agg = l.b().CreateInsertValue(agg, re, {0});
  return l.b().CreateInsertValue(agg, im, {1});
}

llvm::Value* fconst(llvm::Type* ty, double v) { return llvm::ConstantFP::get(ty, v); }

llvm::Value* fabs_of(Lowerer& l, llvm::Value* x) { return l.b().CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }

Parts mul(Lowerer& l, Parts a, Parts c) {
  auto& b = l.b();
  return {b.CreateFSub(b.CreateFMul(a.re, c.re), b.CreateFMul(a.im, c.im)),
          b.CreateFAdd(b.CreateFMul(a.re, c.im), b.CreateFMul(a.im, c.re))};
}

// CPython's _Py_c_quot as numba implements it; a zero divisor gives NaNs
// (numba raises ZeroDivisionError on the host only).
Parts div(Lowerer& l, Parts a, Parts d) {
  auto& b = l.b();
  llvm::Type* ty = a.re->getType();
  llvm::Value* nan = llvm::ConstantFP::getNaN(ty);
  llvm::Value* zero = fconst(ty, 0.0);
  llvm::Value* abs_re = fabs_of(l, d.re);
  llvm::Value* abs_im = fabs_of(l, d.im);
  // Branch 1: |d.re| >= |d.im|, divide through by d.re.
  llvm::Value* r1 = b.CreateFDiv(d.im, d.re);
  llvm::Value* den1 = b.CreateFAdd(d.re, b.CreateFMul(d.im, r1));
  llvm::Value* re1 = b.CreateFDiv(b.CreateFAdd(a.re, b.CreateFMul(a.im, r1)), den1);
  llvm::Value* im1 = b.CreateFDiv(b.CreateFSub(a.im, b.CreateFMul(a.re, r1)), den1);
  llvm::Value* zero1 = b.CreateFCmpOEQ(d.re, zero);
  re1 = b.CreateSelect(zero1, nan, re1);
  im1 = b.CreateSelect(zero1, nan, im1);
  // Branch 2: divide through by d.im.
  llvm::Value* r2 = b.CreateFDiv(d.re, d.im);
  llvm::Value* den2 = b.CreateFAdd(b.CreateFMul(d.re, r2), d.im);
  llvm::Value* re2 = b.CreateFDiv(b.CreateFAdd(b.CreateFMul(a.re, r2), a.im), den2);
  llvm::Value* im2 = b.CreateFDiv(b.CreateFSub(b.CreateFMul(a.im, r2), a.re), den2);
  llvm::Value* zero2 = b.CreateFCmpOEQ(d.im, zero);
  re2 = b.CreateSelect(zero2, nan, re2);
  im2 = b.CreateSelect(zero2, nan, im2);
  llvm::Value* first = b.CreateFCmpOGE(abs_re, abs_im);
  return {b.CreateSelect(first, re1, re2), b.CreateSelect(first, im1, im2)};
}

llvm::Value* math1(Lowerer& l, const char* name, llvm::Value* x) { return l.hooks().math(l, name, {x}); }
llvm::Value* math2(Lowerer& l, const char* name, llvm::Value* x, llvm::Value* y) {
  return l.hooks().math(l, name, {x, y});
}

// z ** n for an int64 n: repeated squaring; a negative n gives 1 / z**-n.
llvm::Function* powi_function(Lowerer& l, const ir::Type* ct) {
  std::string name = concat("cuhost.cpowi.", ct->str());
  if (llvm::Function* f = l.module().getFunction(name)) return f;
  llvm::Type* zt = l.llvm_type(ct);
  llvm::Type* i64 = llvm::Type::getInt64Ty(l.ctx());
  auto* fty = llvm::FunctionType::get(zt, {zt, i64}, false);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, l.module());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilderBase::InsertPointGuard guard(l.b());
  auto& b = l.b();
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(l.ctx(), "entry", f);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(l.ctx(), "loop", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(l.ctx(), "done", f);
  b.SetInsertPoint(entry);
  llvm::Type* ft = zt->getStructElementType(0);
  llvm::Value* n = f->getArg(1);
  llvm::Value* neg = b.CreateICmpSLT(n, b.getInt64(0));
  llvm::Value* m = b.CreateSelect(neg, b.CreateNeg(n), n);
  Parts z = split(l, f->getArg(0));
  llvm::Value* one = fconst(ft, 1.0);
  llvm::Value* zero = fconst(ft, 0.0);
  b.CreateCondBr(b.CreateICmpEQ(m, b.getInt64(0)), done, loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* acc_re = b.CreatePHI(ft, 2);
  llvm::PHINode* acc_im = b.CreatePHI(ft, 2);
  llvm::PHINode* p_re = b.CreatePHI(ft, 2);
  llvm::PHINode* p_im = b.CreatePHI(ft, 2);
  llvm::PHINode* e = b.CreatePHI(i64, 2);
  acc_re->addIncoming(one, entry);
  acc_im->addIncoming(zero, entry);
  p_re->addIncoming(z.re, entry);
  p_im->addIncoming(z.im, entry);
  e->addIncoming(m, entry);
  llvm::Value* take = b.CreateICmpNE(b.CreateAnd(e, b.getInt64(1)), b.getInt64(0));
  Parts prod = mul(l, {acc_re, acc_im}, {p_re, p_im});
  llvm::Value* nacc_re = b.CreateSelect(take, prod.re, acc_re);
  llvm::Value* nacc_im = b.CreateSelect(take, prod.im, acc_im);
  Parts sq = mul(l, {p_re, p_im}, {p_re, p_im});
  llvm::Value* ne = b.CreateLShr(e, b.getInt64(1));
  acc_re->addIncoming(nacc_re, loop);
  acc_im->addIncoming(nacc_im, loop);
  p_re->addIncoming(sq.re, loop);
  p_im->addIncoming(sq.im, loop);
  e->addIncoming(ne, loop);
  b.CreateCondBr(b.CreateICmpEQ(ne, b.getInt64(0)), done, loop);
  b.SetInsertPoint(done);
  llvm::PHINode* r_re = b.CreatePHI(ft, 2);
  llvm::PHINode* r_im = b.CreatePHI(ft, 2);
  r_re->addIncoming(one, entry);
  r_im->addIncoming(zero, entry);
  r_re->addIncoming(nacc_re, loop);
  r_im->addIncoming(nacc_im, loop);
  Parts inv = div(l, {one, zero}, {r_re, r_im});
  llvm::Value* out_re = b.CreateSelect(neg, inv.re, r_re);
  llvm::Value* out_im = b.CreateSelect(neg, inv.im, r_im);
  b.CreateRet(make(l, ct, out_re, out_im));
  return f;
}

// CPython's _Py_c_pow: polar form; 0 ** b is 0 (b.re > 0) and x ** 0 is 1.
Parts pow_complex(Lowerer& l, Parts a, Parts e) {
  auto& b = l.b();
  llvm::Type* ty = a.re->getType();
  llvm::Value* zero = fconst(ty, 0.0);
  llvm::Value* one = fconst(ty, 1.0);
  llvm::Value* vabs = math2(l, "hypot", a.re, a.im);
  llvm::Value* len = math2(l, "pow", vabs, e.re);
  llvm::Value* at = math2(l, "atan2", a.im, a.re);
  llvm::Value* phase = b.CreateFMul(at, e.re);
  llvm::Value* has_im = b.CreateFCmpUNE(e.im, zero);
  llvm::Value* len2 = b.CreateFDiv(len, math1(l, "exp", b.CreateFMul(at, e.im)));
  llvm::Value* phase2 = b.CreateFAdd(phase, b.CreateFMul(e.im, math1(l, "log", vabs)));
  len = b.CreateSelect(has_im, len2, len);
  phase = b.CreateSelect(has_im, phase2, phase);
  llvm::Value* re = b.CreateFMul(len, math1(l, "cos", phase));
  llvm::Value* im = b.CreateFMul(len, math1(l, "sin", phase));
  llvm::Value* e_zero = b.CreateAnd(b.CreateFCmpOEQ(e.re, zero), b.CreateFCmpOEQ(e.im, zero));
  llvm::Value* a_zero = b.CreateAnd(b.CreateFCmpOEQ(a.re, zero), b.CreateFCmpOEQ(a.im, zero));
  re = b.CreateSelect(a_zero, zero, re);
  im = b.CreateSelect(a_zero, zero, im);
  re = b.CreateSelect(e_zero, one, re);
  im = b.CreateSelect(e_zero, zero, im);
  return {re, im};
}

// debug=True: a zero divisor reports ZeroDivisionError and ends the thread,
// like numba's debug kernels (without debug the quotient is NaN).
void check_divisor(Lowerer& l, Parts d, int line) {
  if (!l.options().checks_divisors()) return;
  auto& b = l.b();
  llvm::Value* zero = fconst(d.re->getType(), 0.0);
  llvm::Value* is_zero = b.CreateAnd(b.CreateFCmpOEQ(d.re, zero), b.CreateFCmpOEQ(d.im, zero));
  l.fail_if(is_zero, [&] { report_exception(l, "builtins.ZeroDivisionError", "complex division by zero", line); });
}

Val call_arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

}  // namespace

Val complex_convert(Lowerer& l, Val v, const ir::Type* to) {
  const ir::Type* from = v.t;
  CUHOST_CHECK(to->kind == ir::TypeKind::Complex) << "complex conversion to " << to->str();
  const ir::Type* ft = component_type(to);
  if (from->kind == ir::TypeKind::Complex) {
    Parts p = split(l, v.v);
    return {make(l, to, l.convert({p.re, component_type(from)}, ft).v, l.convert({p.im, component_type(from)}, ft).v),
            to};
  }
  llvm::Value* re = l.convert(v, ft).v;
  return {make(l, to, re, fconst(re->getType(), 0.0)), to};
}

llvm::Value* complex_truth(Lowerer& l, Val v) {
  Parts p = split(l, v.v);
  llvm::Value* zero = fconst(p.re->getType(), 0.0);
  return l.b().CreateOr(l.b().CreateFCmpUNE(p.re, zero), l.b().CreateFCmpUNE(p.im, zero));
}

llvm::Value* complex_constant(Lowerer& l, const ir::Type* t, double re, double im) {
  llvm::Type* ft = l.llvm_type(component_type(t));
  return llvm::ConstantStruct::get(
      llvm::cast<llvm::StructType>(l.llvm_type(t)),
      {llvm::cast<llvm::Constant>(fconst(ft, re)), llvm::cast<llvm::Constant>(fconst(ft, im))});
}

Val complex_binary(Lowerer& l, ast::BinOpKind op, Val a, Val c, const ir::Type* result, const ast::SourceLoc& loc) {
  auto& b = l.b();
  const ir::Type* ct = a.t;
  Parts x = split(l, a.v);
  Parts r{};
  switch (op) {
    case ast::BinOpKind::Add: {
      Parts y = split(l, c.v);
      r = {b.CreateFAdd(x.re, y.re), b.CreateFAdd(x.im, y.im)};
      break;
    }
    case ast::BinOpKind::Sub: {
      Parts y = split(l, c.v);
      r = {b.CreateFSub(x.re, y.re), b.CreateFSub(x.im, y.im)};
      break;
    }
    case ast::BinOpKind::Mult: r = mul(l, x, split(l, c.v)); break;
    case ast::BinOpKind::Div: {
      Parts y = split(l, c.v);
      check_divisor(l, y, loc.line);
      r = div(l, x, y);
      break;
    }
    case ast::BinOpKind::Pow:
      if (c.t->kind != ir::TypeKind::Complex) {
        llvm::Value* n = l.convert(c, ir::int64()).v;
        return l.convert({b.CreateCall(powi_function(l, ct), {a.v, n}), ct}, result);
      }
      r = pow_complex(l, x, split(l, c.v));
      break;
    default: l.unsupported(loc, concat("operator '", ast::to_string(op), "' on ", ct->str(), " is not supported"));
  }
  return l.convert({make(l, ct, r.re, r.im), ct}, result);
}

Val complex_negate(Lowerer& l, Val v) {
  Parts p = split(l, v.v);
  return {make(l, v.t, l.b().CreateFNeg(p.re), l.b().CreateFNeg(p.im)), v.t};
}

llvm::Value* complex_compare(Lowerer& l, ast::CompareOpKind op, Val a, Val c) {
  auto& b = l.b();
  Parts x = split(l, a.v), y = split(l, c.v);
  if (op == ast::CompareOpKind::Eq || op == ast::CompareOpKind::Is)
    return b.CreateAnd(b.CreateFCmpOEQ(x.re, y.re), b.CreateFCmpOEQ(x.im, y.im));
  CUHOST_CHECK(op == ast::CompareOpKind::NotEq || op == ast::CompareOpKind::IsNot)
      << "ordering comparison of complex values";
  return b.CreateOr(b.CreateFCmpUNE(x.re, y.re), b.CreateFCmpUNE(x.im, y.im));
}

llvm::Value* complex_abs(Lowerer& l, Val v) {
  Parts p = split(l, v.v);
  return math2(l, "hypot", p.re, p.im);
}

void register_complex(std::map<std::string, IntrinsicFn>& table) {
  auto part = [](bool imag) {
    return [imag](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
      // z.real (an Attribute) or np.real(z) (a Call with ordered_args {z}).
      Val base = e->kind == ast::ExprKind::Attribute ? l.expr(static_cast<const ast::Attribute*>(e)->value.get())
                                                     : call_arg(l, inf, 0);
      if (base.t->kind == ir::TypeKind::Complex)
        return l.convert({l.b().CreateExtractValue(base.v, {imag ? 1u : 0u}), component_type(base.t)}, inf.type);
      if (!imag) return l.convert(base, inf.type);
      return l.constant(ir::ConstValue::integer(0), inf.type);
    };
  };
  table["number.real"] = part(false);
  table["number.imag"] = part(true);
  table["number.conjugate"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    Val z = call_arg(l, inf, 0);
    if (z.t->kind != ir::TypeKind::Complex) return l.convert(z, inf.type);
    Parts p = split(l, z.v);
    return l.convert({make(l, z.t, p.re, l.b().CreateFNeg(p.im)), z.t}, inf.type);
  };
  table["builtins.complex"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    llvm::Value* re = call_arg(l, inf, 0).v;
    llvm::Value* im = call_arg(l, inf, 1).v;
    return {make(l, inf.type, re, im), inf.type};
  };
  table["builtins.complex.unpacking"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    // The arguments in order, each `*tuple` evaluated once and split into its items.
    const auto& call = static_cast<const ast::Call&>(*e);
    std::vector<Val> items;
    for (size_t i = 0; i < inf.ordered_args.size(); ++i) {
      Val v = l.expr(inf.ordered_args[i]);
      if (!call.is_starred(i)) {
        items.push_back(v);
        continue;
      }
      for (unsigned k = 0; k < v.t->elements.size(); ++k)
        items.push_back({l.b().CreateExtractValue(v.v, {k}), v.t->elements[k]});
    }
    CUHOST_CHECK(items.size() == 1 || items.size() == 2) << "complex() of " << items.size() << " items";
    if (items.size() == 1) return l.convert(items[0], inf.type);
    const ir::Type* part = inf.type == ir::complex64() ? ir::float32() : ir::float64();
    return {make(l, inf.type, l.convert(items[0], part).v, l.convert(items[1], part).v), inf.type};
  };
  table["cmath."] = lower_cmath_call;
}

}  // namespace cuhost::codegen
