// Lowering of the heap-allocating NumPy constructors (typing:
// sema/typing/nrt_arrays.cpp): np.empty / zeros / ones and their *_like
// forms, np.arange, and a.copy() under the NRT (sema/typing/array_methods.cpp). Each allocates one block through
// NRT_MemInfo_alloc_aligned (lowering/nrt_runtime.cpp), builds a contiguous
// array value carrying the meminfo, fills it as NumPy does and hands the
// statement a new reference (Lowerer::own_temp). numba's errors: negative
// extents and a zero arange step raise ValueError; an exhausted heap ends
// the thread with a MemoryError report.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/nrt.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

constexpr int kStatusRaised = 2;    // a user raise (lowering/exceptions.cpp)
constexpr int kHeapAlignment = 32;  // as numba's preferred array alignment

void raise_if(Lowerer& l, llvm::Value* bad, const KernelErrorSite& site) {
  auto& b = l.b();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* err = llvm::BasicBlock::Create(l.ctx(), "nrt.invalid", f);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(l.ctx(), "nrt.ok", f);
  b.CreateCondBr(bad, err, ok);
  b.SetInsertPoint(err);
  l.raise_error(b.getInt32(kStatusRaised), &site);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(ok);
  b.SetInsertPoint(ok);
}

// A new contiguous array of `type` with `extents` (i64 each) on the heap.
Val allocate_array(Lowerer& l, const ast::Expr* e, const ir::Type* type, const std::vector<llvm::Value*>& extents) {
  auto& b = l.b();
  const bool gpu = l.hooks().is_gpu();
  llvm::Value* nitems = l.i64(1);
  llvm::Value* negative = b.getFalse();
  for (llvm::Value* x : extents) {
    negative = b.CreateOr(negative, b.CreateICmpSLT(x, l.i64(0)));
    nitems = b.CreateMul(nitems, x);
  }
  raise_if(l, negative, raise_site(l, "builtins.ValueError", "negative dimensions not allowed", e->loc.line));
  const std::int64_t item = type->dtype->byte_size();
  llvm::Value* meminfo = b.CreateCall(nrt_meminfo_alloc(l.module(), gpu),
                                      {b.CreateMul(nitems, l.i64(item)), b.getInt32(kHeapAlignment)}, "meminfo");
  raise_if(l, b.CreateIsNull(meminfo),
           fault_site("NRT_MemInfo_alloc_aligned: the heap has no room for the array", "builtins.MemoryError"));
  llvm::Value* data = nrt_meminfo_data(b, meminfo);
  llvm::Value* out = llvm::Constant::getNullValue(l.llvm_type(type));
  out = b.CreateInsertValue(out, data, {0});
  const unsigned n = unsigned(extents.size());
  llvm::Value* stride = l.i64(item);
  for (unsigned k = 0; k < n; ++k) {
    const unsigned d = type->layout == ir::Layout::F ? k : n - 1 - k;
    out = b.CreateInsertValue(out, extents[d], {1, d});
    out = b.CreateInsertValue(out, stride, {2, d});
    stride = b.CreateMul(stride, extents[d]);
  }
  out = b.CreateInsertValue(out, meminfo, {kMeminfoField});
  Val arr{out, type};
  l.own_temp(arr);
  return arr;
}

// for (k = 0; k < count; ++k) body(k)
void counted_loop(Lowerer& l, llvm::Value* count, const std::function<void(llvm::Value*)>& body) {
  auto& b = l.b();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* before = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(l.ctx(), "nrt.fill", f);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(l.ctx(), "nrt.fill.body", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(l.ctx(), "nrt.fill.end", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* k = b.CreatePHI(b.getInt64Ty(), 2, "k");
  k->addIncoming(l.i64(0), before);
  b.CreateCondBr(b.CreateICmpSLT(k, count), loop, done);
  b.SetInsertPoint(loop);
  body(k);
  k->addIncoming(b.CreateAdd(k, l.i64(1)), b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(done);
}

llvm::Value* element_count(Lowerer& l, Val arr) {
  llvm::Value* n = l.i64(1);
  for (unsigned d = 0; d < unsigned(arr.t->ndim); ++d) n = l.b().CreateMul(n, l.b().CreateExtractValue(arr.v, {1, d}));
  return n;
}

void store_element(Lowerer& l, Val arr, llvm::Value* k, Val value) {
  auto& b = l.b();
  const ir::Type* dt = arr.t->dtype;
  llvm::Value* p = b.CreateGEP(b.getInt8Ty(), b.CreateExtractValue(arr.v, {0}), b.CreateMul(k, l.i64(dt->byte_size())));
  b.CreateAlignedStore(l.to_memory(l.convert(value, dt).v, dt), p, llvm::Align(array_element_alignment(dt)));
}

// np.empty / zeros / ones (shape) and their *_like (array) forms.
IntrinsicFn constructor(char fill) {
  return [fill](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    const ir::Type* pt = inf.param_types.at(0);
    std::vector<llvm::Value*> extents;
    if (pt->is_array()) {
      Val a = l.expr_as(inf.ordered_args.at(0), pt);
      for (unsigned d = 0; d < unsigned(pt->ndim); ++d) extents.push_back(b.CreateExtractValue(a.v, {1, d}));
    } else if (pt->is_tuple()) {
      Val tup = l.expr_as(inf.ordered_args.at(0), pt);
      for (unsigned k = 0; k < pt->elements.size(); ++k)
        extents.push_back(l.convert({b.CreateExtractValue(tup.v, {k}), pt->elements[k]}, ir::int64()).v);
    } else {
      extents.push_back(l.expr_as(inf.ordered_args.at(0), ir::int64()).v);
    }
    Val arr = allocate_array(l, e, inf.type, extents);
    const ir::Type* dt = inf.type->dtype;
    if (fill == '0') {
      b.CreateMemSet(b.CreateExtractValue(arr.v, {0}), b.getInt8(0),
                     b.CreateMul(element_count(l, arr), l.i64(dt->byte_size())), llvm::MaybeAlign(kHeapAlignment));
    } else if (fill == '1') {
      counted_loop(l, element_count(l, arr), [&](llvm::Value* k) {
        store_element(l, arr, k, {l.i64(1), ir::int64()});
      });
    }
    return arr;
  };
}

// np.arange: ceil((stop - start) / step) items (none when negative), item
// i = start + i * step computed in the operands' type, stored as the dtype.
Val lower_arange(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  bool any_float = false;
  for (const ir::Type* t : inf.param_types)
    if (t && (t->is_float() || t->kind == ir::TypeKind::Complex)) any_float = true;
  const ir::Type* calc = any_float ? ir::float64() : ir::int64();
  auto operand = [&](size_t k, std::int64_t absent) -> Val {
    if (!inf.ordered_args.at(k)) return l.convert({l.i64(absent), ir::int64()}, calc);
    return l.expr_as(inf.ordered_args[k], calc);
  };
  Val start = operand(0, 0), stop = operand(1, 0), step = operand(2, 1);
  llvm::Value* zero_step = any_float ? b.CreateFCmpOEQ(step.v, llvm::ConstantFP::get(b.getDoubleTy(), 0.0))
                                     : b.CreateICmpEQ(step.v, l.i64(0));
  raise_if(l, zero_step, raise_site(l, "builtins.ValueError", "Maximum allowed size exceeded", e->loc.line));
  auto as_double = [&](Val v) { return any_float ? v.v : b.CreateSIToFP(v.v, b.getDoubleTy()); };
  llvm::Value* span = any_float ? b.CreateFSub(stop.v, start.v) : b.CreateSub(stop.v, start.v);
  llvm::Value* ratio = b.CreateFDiv(any_float ? span : b.CreateSIToFP(span, b.getDoubleTy()), as_double(step));
  llvm::Function* ceil = llvm::Intrinsic::getDeclaration(&l.module(), llvm::Intrinsic::ceil, {b.getDoubleTy()});
  llvm::Value* count = b.CreateFPToSI(b.CreateCall(ceil, {ratio}), b.getInt64Ty());
  count = b.CreateSelect(b.CreateICmpSLT(count, l.i64(0)), l.i64(0), count);
  Val arr = allocate_array(l, e, inf.type, {count});
  counted_loop(l, count, [&](llvm::Value* k) {
    llvm::Value* v = any_float ? b.CreateFAdd(start.v, b.CreateFMul(b.CreateSIToFP(k, b.getDoubleTy()), step.v))
                               : b.CreateAdd(start.v, b.CreateMul(k, step.v));
    store_element(l, arr, k, {v, calc});
  });
  return arr;
}

// a.copy(): a new C-ordered heap array with the elements in C order.
Val lower_copy(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ir::Type* at = inf.param_types.at(0);
  Val src = l.expr_as(inf.ordered_args.at(0), at);
  std::vector<llvm::Value*> extents;
  for (unsigned d = 0; d < unsigned(at->ndim); ++d) extents.push_back(b.CreateExtractValue(src.v, {1, d}));
  Val arr = allocate_array(l, e, inf.type, extents);
  const std::int64_t item = at->dtype->byte_size();
  llvm::AllocaInst* k = l.entry_alloca(b.getInt64Ty(), "copy.k");
  b.CreateStore(l.i64(0), k);
  llvm::Value* data = b.CreateExtractValue(arr.v, {0});
  for_each_element(l, src.v, at->ndim, [&](llvm::Value* from) {
    llvm::Value* i = b.CreateLoad(b.getInt64Ty(), k);
    b.CreateMemCpy(b.CreateGEP(b.getInt8Ty(), data, b.CreateMul(i, l.i64(item))), llvm::Align(1), from, llvm::Align(1),
                   item);
    b.CreateStore(b.CreateAdd(i, l.i64(1)), k);
  });
  return arr;
}

}  // namespace

void register_nrt_arrays(std::map<std::string, IntrinsicFn>& table) {
  table["nrt.empty"] = constructor('e');
  table["nrt.zeros"] = constructor('0');
  table["nrt.ones"] = constructor('1');
  table["nrt.arange"] = lower_arange;
  table["nrt.copy"] = lower_copy;
}

}  // namespace cuhost::codegen
