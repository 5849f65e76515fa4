// The math module and CUDA's arithmetic intrinsics: float32 stays float32
// (sinf, ...), float64 uses the double versions; the target picks libdevice
// or libm. Bit intrinsics (brev, clz, ffs, popc) map to LLVM intrinsics.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cmath>

#include "codegen/lowering/lowerer.h"
#include "sema/typing/libdevice_table.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

std::string key_suffix(const std::string& key, const std::string& prefix) { return key.substr(prefix.size()); }

// A call of libdevice's `name` (its table signature) on value arguments.
Val call_libdevice(Lowerer& l, const std::string& name, const std::vector<Val>& values, const ir::Type* type) {
  auto& b = l.b();
  const sema::LibdeviceFunction* f = sema::libdevice_function(name);
  CUHOST_CHECK(f) << "libdevice." << name << " is not in the libdevice table";
  // Out-parameters point to entry allocas; the call's Python value is the
  // result and then what the function stored through them.
  std::vector<llvm::Value*> args;
  std::vector<std::pair<llvm::Value*, const ir::Type*>> outs;
  size_t next = 0;
  for (const sema::LibdeviceParam& p : f->params) {
    if (p.out) {
      llvm::AllocaInst* slot = l.entry_alloca(l.memory_type(p.type), "libdevice." + p.name);
      args.push_back(slot);
      outs.push_back({slot, p.type});
    } else {
      args.push_back(l.convert(values.at(next++), p.type).v);
    }
  }
  bool is_void = f->result == ir::void_type();
  llvm::Type* rt = is_void ? b.getVoidTy() : l.memory_type(f->result);
  llvm::Value* r = l.hooks().libdevice(l, name, rt, args);
  if (outs.empty()) return is_void ? Val{nullptr, type} : Val{l.from_memory(r, type), type};
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(type));
  unsigned at = 0;
  if (!is_void) agg = b.CreateInsertValue(agg, r, {at++});
  for (auto& [slot, t] : outs) agg = b.CreateInsertValue(agg, b.CreateLoad(l.memory_type(t), slot), {at++});
  return {agg, type};
}

}  // namespace

void register_math(std::map<std::string, IntrinsicFn>& table) {
  table["math."] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    std::string f = key_suffix(inf.intrinsic, "math.");
    if (f == "floor" || f == "ceil" || f == "trunc") {
      Val x = arg(l, inf, 0);
      if (x.t->kind != ir::TypeKind::Float) return l.convert(x, inf.type);
      auto id = f == "floor" ? llvm::Intrinsic::floor : f == "ceil" ? llvm::Intrinsic::ceil : llvm::Intrinsic::trunc;
      return l.convert({b.CreateUnaryIntrinsic(id, x.v), x.t}, inf.type);
    }
    if (f == "isnan" || f == "isinf" || f == "isfinite") {
      Val x = arg(l, inf, 0);
      if (x.t->kind != ir::TypeKind::Float) return {b.getInt1(f == "isfinite"), ir::boolean()};
      llvm::Value* r;
      if (f == "isnan") {
        r = b.CreateFCmpUNO(x.v, x.v);
      } else {
        llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x.v);
        llvm::Value* inf_c = llvm::ConstantFP::getInfinity(x.v->getType());
        r = f == "isinf" ? b.CreateFCmpOEQ(a, inf_c) : b.CreateFCmpOLT(a, inf_c);
      }
      return {r, ir::boolean()};
    }
    if (f == "frexp" || f == "modf" || f == "ldexp") {
      std::vector<Val> vals;
      for (size_t i = 0; i < inf.ordered_args.size(); ++i) vals.push_back(arg(l, inf, i));
      bool f32 = vals[0].t == ir::float32();
      return call_libdevice(l, f32 ? f + "f" : f, vals, inf.type);
    }
    if (f == "degrees" || f == "radians") {
      Val x = arg(l, inf, 0);
      double k = f == "degrees" ? 180.0 / M_PI : M_PI / 180.0;
      return {b.CreateFMul(x.v, llvm::ConstantFP::get(x.v->getType(), k)), inf.type};
    }
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < inf.ordered_args.size(); ++i) args.push_back(arg(l, inf, i).v);
    if (f == "gamma") f = "tgamma";
    return {l.hooks().math(l, f, args), inf.type};
  };
  table["cuda.fma"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    llvm::Value *a = arg(l, inf, 0).v, *c = arg(l, inf, 1).v, *d = arg(l, inf, 2).v;
    return {l.b().CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, c, d}), inf.type};
  };
  table["cuda.cbrt"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    return {l.hooks().math(l, "cbrt", {arg(l, inf, 0).v}), inf.type};
  };
  table["cuda.brev"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    Val x = l.convert(arg(l, inf, 0), inf.type);
    return {l.b().CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, x.v), inf.type};
  };
  table["cuda.clz"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    Val x = arg(l, inf, 0);
    llvm::Value* r = l.b().CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x.v, l.b().getFalse());
    return l.convert({r, ir::integer(x.t->bits, false)}, inf.type);
  };
  table["cuda.popc"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    Val x = arg(l, inf, 0);
    llvm::Value* r = l.b().CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x.v);
    return l.convert({r, ir::integer(x.t->bits, false)}, inf.type);
  };
  table["cuda.ffs"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val x = arg(l, inf, 0);
    llvm::Value* tz = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x.v, b.getFalse());
    llvm::Value* zero = llvm::ConstantInt::get(x.v->getType(), 0);
    llvm::Value* r =
        b.CreateSelect(b.CreateICmpEQ(x.v, zero), zero, b.CreateAdd(tz, llvm::ConstantInt::get(x.v->getType(), 1)));
    return l.convert({r, ir::integer(x.t->bits, false)}, inf.type);
  };
  table["number.bit_count"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Val x = arg(l, inf, 0);
    llvm::Value* v = x.v;
    if (x.t->is_signed) {
      llvm::Value* neg = b.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0));
      v = b.CreateSelect(neg, b.CreateNeg(v), v);
    }
    llvm::Value* r = b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, v);
    return l.convert({r, ir::integer(x.t->bits, false)}, inf.type);
  };
  table["cuda.selp"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    llvm::Value* c = l.truth(arg(l, inf, 0));
    Val a = l.convert(arg(l, inf, 1), inf.type), d = l.convert(arg(l, inf, 2), inf.type);
    return {l.b().CreateSelect(c, a.v, d.v), inf.type};
  };
  table["cuda.libdevice."] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    std::vector<Val> args;
    for (size_t i = 0; i < inf.ordered_args.size(); ++i) args.push_back(arg(l, inf, i));
    return call_libdevice(l, key_suffix(inf.intrinsic, "cuda.libdevice."), args, inf.type);
  };
}

}  // namespace cuhost::codegen
