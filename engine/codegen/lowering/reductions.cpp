// Lowering of whole-array reductions (typing: sema/typing/reductions.cpp).
//
// Each reduction of an array type is one internal function of the module
// (`cuhost.reduce.<op>.<array type>`): a loop nest over the elements in C
// order at any layout (byte strides), written after numba's implementations
// in numba/cuda/np/arraymath.py so the results agree bit for bit -- the
// same accumulator types, the same order of additions, NaN propagation of
// min/max (the first NaN wins), numba's nanmin/nanmax comparisons. What can
// raise or divide stays in the caller, where the function's error handling
// lives: the ValueError of min/max of an empty array, and the final
// division of mean/var/std (ZeroDivisionError with debug=True, as numba's
// Python error model; np.divide in nanmean never raises).
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <functional>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr int kStatusRaised = 2;  // a user raise (lowering/exceptions.cpp)

}  // namespace

void for_each_element(Lowerer& l, llvm::Value* arr, int ndim, const std::function<void(llvm::Value*)>& body) {
  auto& b = l.b();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  std::function<void(int, llvm::Value*)> level = [&](int d, llvm::Value* base) {
    if (d == ndim) {
      body(base);
      return;
    }
    llvm::Value* n = b.CreateExtractValue(arr, {1u, unsigned(d)});
    llvm::Value* stride = b.CreateExtractValue(arr, {2u, unsigned(d)});
    llvm::BasicBlock* pre = b.GetInsertBlock();
    llvm::BasicBlock* head = llvm::BasicBlock::Create(l.ctx(), "reduce.head", f);
    llvm::BasicBlock* inner = llvm::BasicBlock::Create(l.ctx(), "reduce.body", f);
    llvm::BasicBlock* latch = llvm::BasicBlock::Create(l.ctx(), "reduce.next", f);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(l.ctx(), "reduce.exit", f);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
    i->addIncoming(l.i64(0), pre);
    b.CreateCondBr(b.CreateICmpSLT(i, n), inner, exit);
    b.SetInsertPoint(inner);
    level(d + 1, b.CreateGEP(b.getInt8Ty(), base, b.CreateMul(i, stride)));
    if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(latch);
    b.SetInsertPoint(latch);
    i->addIncoming(b.CreateAdd(i, l.i64(1)), latch);
    b.CreateBr(head);
    b.SetInsertPoint(exit);
  };
  level(0, b.CreateExtractValue(arr, {0}));
}

namespace {

void each_element(Lowerer& l, llvm::Value* arr, int ndim, const std::function<void(llvm::Value*)>& body) {
  for_each_element(l, arr, ndim, body);
}

Val load_element(Lowerer& l, llvm::Value* ptr, const ir::Type* dt) {
  return {l.from_memory(l.b().CreateLoad(l.memory_type(dt), ptr), dt), dt};
}

llvm::Value* is_nan(Lowerer& l, Val v) {
  auto& b = l.b();
  if (v.t->kind == ir::TypeKind::Float) return b.CreateFCmpUNO(v.v, v.v);
  if (v.t->kind == ir::TypeKind::Complex) {
    llvm::Value* re = b.CreateExtractValue(v.v, {0});
    llvm::Value* im = b.CreateExtractValue(v.v, {1});
    return b.CreateOr(b.CreateFCmpUNO(re, re), b.CreateFCmpUNO(im, im));
  }
  return b.getFalse();
}

// A local of the reduction function (its entry block).
struct Slot {
  llvm::AllocaInst* p;
  const ir::Type* t;
};
Slot slot(Lowerer& l, llvm::BasicBlock* entry, const ir::Type* t, Val init) {
  llvm::IRBuilder<> eb(entry, entry->begin());
  Slot s{eb.CreateAlloca(l.llvm_type(t)), t};
  l.b().CreateStore(l.convert(init, t).v, s.p);
  return s;
}
Val get(Lowerer& l, const Slot& s) { return {l.b().CreateLoad(l.llvm_type(s.t), s.p), s.t}; }
void set(Lowerer& l, const Slot& s, Val v) { l.b().CreateStore(l.convert(v, s.t).v, s.p); }

// `if (cond) return value;` inside a reduction function.
void return_if(Lowerer& l, llvm::Value* cond, llvm::Value* value) {
  auto& b = l.b();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* early = llvm::BasicBlock::Create(l.ctx(), "reduce.return", f);
  llvm::BasicBlock* cont = llvm::BasicBlock::Create(l.ctx(), "reduce.cont", f);
  b.CreateCondBr(cond, early, cont);
  b.SetInsertPoint(early);
  b.CreateRet(value);
  b.SetInsertPoint(cont);
}

Val int_constant(Lowerer& l, std::int64_t v) { return {l.i64(v), ir::int64()}; }

// x / n for a float64 or complex128 x and a float64 count n, without checks.
// A complex x is divided as the complex quotient by n + 0j (what numba's
// c / a.size and np.divide compute): re = (x.re + x.im*0) / n and
// im = (x.im - x.re*0) / n, so an infinite part makes the other one NaN.
Val divide_by_count(Lowerer& l, Val x, llvm::Value* n) {
  auto& b = l.b();
  if (x.t->kind != ir::TypeKind::Complex) return {b.CreateFDiv(x.v, n), x.t};
  llvm::Value* zero = llvm::ConstantFP::get(n->getType(), 0.0);
  llvm::Value* re = b.CreateExtractValue(x.v, {0});
  llvm::Value* im = b.CreateExtractValue(x.v, {1});
  llvm::Value* out = llvm::UndefValue::get(l.llvm_type(x.t));
  out = b.CreateInsertValue(out, b.CreateFDiv(b.CreateFAdd(re, b.CreateFMul(im, zero)), n), {0});
  return {b.CreateInsertValue(out, b.CreateFDiv(b.CreateFSub(im, b.CreateFMul(re, zero)), n), {1}), x.t};
}

// The first element of a non-empty array (the caller checked the size).
Val first_element(Lowerer& l, llvm::Value* arr, const ir::Type* at) {
  return load_element(l, l.b().CreateExtractValue(arr, {0}), at->dtype);
}

// The body of reduction `op` over the array argument, returning `rt`
// (mean/var return the accumulated sum; nanmean returns {sum, count}).
void emit_reduction(Lowerer& l, const std::string& op, const ir::Type* at, const ir::Type* rt, llvm::Value* arr,
                    llvm::BasicBlock* entry) {
  auto& b = l.b();
  const ir::Type* dt = at->dtype;
  const ast::SourceLoc nowhere{};
  auto add = [&](Val x, Val y) { return binary_op(l, ast::BinOpKind::Add, x, l.convert(y, x.t), x.t, nowhere); };
  auto mul = [&](Val x, Val y) { return binary_op(l, ast::BinOpKind::Mult, x, l.convert(y, x.t), x.t, nowhere); };

  if (op == "all" || op == "any") {
    const bool all = op == "all";
    each_element(l, arr, at->ndim, [&](llvm::Value* p) {
      llvm::Value* t = l.truth(load_element(l, p, dt));
      return_if(l, all ? b.CreateNot(t) : t, b.getInt1(!all));
    });
    b.CreateRet(b.getInt1(all));
    return;
  }
  if (op == "count_nonzero") {
    Slot c = slot(l, entry, ir::int64(), int_constant(l, 0));
    each_element(l, arr, at->ndim, [&](llvm::Value* p) {
      llvm::Value* t = l.truth(load_element(l, p, dt));
      set(l, c, {b.CreateAdd(get(l, c).v, b.CreateZExt(t, b.getInt64Ty())), ir::int64()});
    });
    b.CreateRet(get(l, c).v);
    return;
  }
  if (op == "sum" || op == "prod" || op == "nansum" || op == "nanprod" || op == "mean") {
    const bool product = op == "prod" || op == "nanprod";
    const bool skip_nan = op == "nansum" || op == "nanprod";
    Slot c = slot(l, entry, rt, int_constant(l, product ? 1 : 0));
    each_element(l, arr, at->ndim, [&](llvm::Value* p) {
      Val v = load_element(l, p, dt);
      auto accumulate = [&] { set(l, c, product ? mul(get(l, c), v) : add(get(l, c), v)); };
      if (!skip_nan) {
        accumulate();
        return;
      }
      llvm::Function* f = b.GetInsertBlock()->getParent();
      llvm::BasicBlock* take = llvm::BasicBlock::Create(l.ctx(), "reduce.take", f);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(l.ctx(), "reduce.skip", f);
      b.CreateCondBr(is_nan(l, v), next, take);
      b.SetInsertPoint(take);
      accumulate();
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    b.CreateRet(get(l, c).v);
    return;
  }
  if (op == "nanmean") {
    // c = 0.0; count = 0; for v: if not isnan(v): c += v; count += 1
    Slot c = slot(l, entry, rt, {llvm::ConstantFP::get(b.getDoubleTy(), 0.0), ir::float64()});
    Slot n = slot(l, entry, ir::int64(), int_constant(l, 0));
    each_element(l, arr, at->ndim, [&](llvm::Value* p) {
      Val v = load_element(l, p, dt);
      llvm::Function* f = b.GetInsertBlock()->getParent();
      llvm::BasicBlock* take = llvm::BasicBlock::Create(l.ctx(), "reduce.take", f);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(l.ctx(), "reduce.skip", f);
      b.CreateCondBr(is_nan(l, v), next, take);
      b.SetInsertPoint(take);
      set(l, c, add(get(l, c), v));
      set(l, n, {b.CreateAdd(get(l, n).v, l.i64(1)), ir::int64()});
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    llvm::Type* pair = llvm::StructType::get(l.llvm_type(rt), b.getInt64Ty());
    llvm::Value* out = llvm::UndefValue::get(pair);
    out = b.CreateInsertValue(out, get(l, c).v, {0});
    b.CreateRet(b.CreateInsertValue(out, get(l, n).v, {1}));
    return;
  }
  if (op == "var") {
    // m = a.mean(); ssd = 0; for v: val = v - m; ssd += real(val * conj(val)).
    // The mean is float64 (complex128 for complex arrays): the sum is formed
    // in the array's type (float64 for integers) and divided by the size.
    const ir::Type* acc = dt->kind == ir::TypeKind::Boolean || dt->is_integer() ? ir::float64() : dt;
    const ir::Type* mt = dt->kind == ir::TypeKind::Complex ? ir::complex128() : ir::float64();
    Slot c = slot(l, entry, acc, int_constant(l, 0));
    each_element(l, arr, at->ndim, [&](llvm::Value* p) { set(l, c, add(get(l, c), load_element(l, p, dt))); });
    llvm::Value* size = l.i64(1);
    for (int d = 0; d < at->ndim; ++d) size = b.CreateMul(size, b.CreateExtractValue(arr, {1u, unsigned(d)}));
    llvm::Value* s = l.convert({size, ir::int64()}, ir::float64()).v;
    Val sum = l.convert(get(l, c), mt);
    Val m = divide_by_count(l, sum, s);
    Slot ssd = slot(l, entry, ir::float64(), int_constant(l, 0));
    each_element(l, arr, at->ndim, [&](llvm::Value* p) {
      Val val = binary_op(l, ast::BinOpKind::Sub, l.convert(load_element(l, p, dt), mt), m, mt, nowhere);
      Val sq;
      if (mt->kind == ir::TypeKind::Complex) {
        // real(val * conj(val)) = re*re + im*im, as the complex product computes it.
        llvm::Value* re = b.CreateExtractValue(val.v, {0});
        llvm::Value* im = b.CreateExtractValue(val.v, {1});
        sq = {b.CreateFAdd(b.CreateFMul(re, re), b.CreateFMul(im, im)), ir::float64()};
      } else {
        sq = binary_op(l, ast::BinOpKind::Mult, val, val, mt, nowhere);
      }
      set(l, ssd, add(get(l, ssd), sq));
    });
    b.CreateRet(get(l, ssd).v);
    return;
  }
  // min max nanmin nanmax: start from the first element (the caller checked
  // that there is one).
  const bool is_min = op == "min" || op == "nanmin";
  const bool nan_variant = op == "nanmin" || op == "nanmax";
  Val first = first_element(l, arr, at);
  Slot r = slot(l, entry, dt, first);
  if (!nan_variant) return_if(l, is_nan(l, first), first.v);
  each_element(l, arr, at->ndim, [&](llvm::Value* p) {
    Val v = load_element(l, p, dt);
    llvm::Function* f = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* take = llvm::BasicBlock::Create(l.ctx(), "reduce.take", f);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(l.ctx(), "reduce.keep", f);
    llvm::Value* replace;
    if (nan_variant) {
      // numba: if not isnan(v) and not (r < v) [nanmin] / not (r > v) [nanmax]: r = v
      llvm::Value* ordered = compare_values(l, is_min ? ast::CompareOpKind::Lt : ast::CompareOpKind::Gt, get(l, r), v);
      replace = b.CreateAnd(b.CreateNot(is_nan(l, v)), b.CreateNot(ordered));
    } else {
      return_if(l, is_nan(l, v), v.v);
      replace = compare_values(l, is_min ? ast::CompareOpKind::Lt : ast::CompareOpKind::Gt, v, get(l, r));
    }
    b.CreateCondBr(replace, take, next);
    b.SetInsertPoint(take);
    set(l, r, v);
    b.CreateBr(next);
    b.SetInsertPoint(next);
  });
  b.CreateRet(get(l, r).v);
}

llvm::Function* reduction_function(Lowerer& l, const std::string& op, const ir::Type* at, const ir::Type* rt,
                                   llvm::Type* ret) {
  std::string name = concat("cuhost.reduce.", op, ".", at->str());
  if (llvm::Function* f = l.module().getFunction(name)) return f;
  auto* fty = llvm::FunctionType::get(ret, {l.llvm_type(at)}, false);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, l.module());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilderBase::InsertPointGuard guard(l.b());
  l.b().SetCurrentDebugLocation(llvm::DebugLoc());
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(l.ctx(), "entry", f);
  llvm::BasicBlock* start = llvm::BasicBlock::Create(l.ctx(), "start", f);
  l.b().SetInsertPoint(entry);
  l.b().CreateBr(start);
  l.b().SetInsertPoint(start);
  emit_reduction(l, op, at, rt, f->getArg(0), entry);
  return f;
}

Val lower_reduction(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const std::string op = inf.intrinsic.substr(7);
  const ir::Type* at = inf.param_types.at(0);
  const ir::Type* rt = inf.type;
  Val arr = l.expr_as(inf.ordered_args.at(0), at);
  llvm::Value* size = l.i64(1);
  for (int d = 0; d < at->ndim; ++d) size = b.CreateMul(size, b.CreateExtractValue(arr.v, {1u, unsigned(d)}));
  const bool ordered = op == "min" || op == "max" || op == "nanmin" || op == "nanmax";
  if (ordered) {
    // numba raises ValueError for an empty array (the thread ends).
    std::string text = op == "min"   ? "zero-size array to reduction operation minimum which has no identity"
                       : op == "max" ? "zero-size array to reduction operation maximum which has no identity"
                                     : "zero-size array to reduction operation not possible";
    llvm::Function* f = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* empty = llvm::BasicBlock::Create(l.ctx(), "reduce.empty", f);
    llvm::BasicBlock* ok = llvm::BasicBlock::Create(l.ctx(), "reduce.ok", f);
    b.CreateCondBr(b.CreateICmpEQ(size, l.i64(0)), empty, ok);
    b.SetInsertPoint(empty);
    const KernelErrorSite site = raise_site(l, "builtins.ValueError", text, e->loc.line);
    l.raise_error(b.getInt32(kStatusRaised), &site);
    if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(ok);
    b.SetInsertPoint(ok);
  }
  if (op == "mean" || op == "var" || op == "std") {
    // mean: the sum in the array's type (float64 for integers) over the size,
    // divided in float64/complex128 (numba: c / a.size); var: the sum of
    // squared deviations over the size; std: its square root.
    const ir::Type* dt = at->dtype;
    const bool exact = dt->kind == ir::TypeKind::Boolean || dt->is_integer();
    const ir::Type* acc = op != "mean" ? ir::float64() : exact ? ir::float64() : dt;
    llvm::Function* f = reduction_function(l, op == "mean" ? "mean" : "var", at, acc, l.llvm_type(acc));
    const ir::Type* qt = op == "mean" ? rt : ir::float64();
    Val sum = l.convert({b.CreateCall(f, {arr.v}), acc}, qt);
    // ZeroDivisionError for an empty array with debug=True, as numba's error model.
    Val q = binary_op(l, ast::BinOpKind::Div, sum, l.convert({size, ir::int64()}, qt), qt, e->loc);
    if (op == "std") q = {l.hooks().math(l, "sqrt", {q.v}), ir::float64()};
    return l.convert(q, rt);
  }
  if (op == "nanmean") {
    llvm::Type* pair = llvm::StructType::get(l.llvm_type(rt), b.getInt64Ty());
    llvm::Value* r = b.CreateCall(reduction_function(l, op, at, rt, pair), {arr.v});
    Val c{b.CreateExtractValue(r, {0}), rt};
    Val n{b.CreateExtractValue(r, {1}), ir::int64()};
    // np.divide(c, count): never an exception (0 / 0 is NaN); a complex c
    // is divided as NumPy does (Smith's algorithm: times 1/count).
    llvm::Value* count = l.convert(n, ir::float64()).v;
    if (rt->kind != ir::TypeKind::Complex) return {b.CreateFDiv(c.v, count), rt};
    llvm::Value* zero = llvm::ConstantFP::get(count->getType(), 0.0);
    llvm::Value* scale = b.CreateFDiv(llvm::ConstantFP::get(count->getType(), 1.0), count);
    llvm::Value* re = b.CreateExtractValue(c.v, {0});
    llvm::Value* im = b.CreateExtractValue(c.v, {1});
    llvm::Value* none = b.CreateFCmpOEQ(count, zero);
    llvm::Value* out = llvm::UndefValue::get(l.llvm_type(rt));
    out = b.CreateInsertValue(
        out,
        b.CreateSelect(none, b.CreateFDiv(re, count), b.CreateFMul(b.CreateFAdd(re, b.CreateFMul(im, zero)), scale)),
        {0});
    return {b.CreateInsertValue(out,
                                b.CreateSelect(none, b.CreateFDiv(im, count),
                                               b.CreateFMul(b.CreateFSub(im, b.CreateFMul(re, zero)), scale)),
                                {1}),
            rt};
  }
  llvm::Function* f = reduction_function(l, op, at, rt, l.llvm_type(rt));
  return {b.CreateCall(f, {arr.v}), rt};
}

}  // namespace

void register_reductions(std::map<std::string, IntrinsicFn>& table) { table["reduce."] = lower_reduction; }

}  // namespace cuhost::codegen
