// Array views: a subscript with slices or fewer indices than dimensions is
// a new (data pointer, shape, strides) value over the same memory. Integer
// indices wrap and are bounds-checked like element indices; slice bounds are
// clamped as Python's PySlice_AdjustIndices does (negative steps included).
// A store to a view target fills the view with a scalar, or copies an array
// (broadcast like NumPy) or a tuple into it.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include <functional>

#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/nrt.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

// One index of the subscript: an integer (value set) or a slice node.
struct Component {
  const ast::Expr* expr = nullptr;  // the index expression (null inside a tuple value)
  const ast::Slice* slice = nullptr;
  llvm::Value* value = nullptr;  // integer index as i64
};

// A slice bound or step as i64, or null when omitted or None.
llvm::Value* bound(Lowerer& l, const ast::Expr* e) {
  if (!e) return nullptr;
  const sema::ExprInfo& inf = l.info(e);
  if (inf.type && inf.type->kind == ir::TypeKind::NoneType) return nullptr;
  return l.expr_as(e, ir::int64()).v;
}

std::vector<Component> components(Lowerer& l, const ast::Subscript* s) {
  std::vector<Component> out;
  auto add = [&](const ast::Expr* e) {
    Component c;
    c.expr = e;
    if (e->kind == ast::ExprKind::Slice)
      c.slice = static_cast<const ast::Slice*>(e);
    else
      c.value = l.expr_as(e, ir::int64()).v;
    out.push_back(c);
  };
  const ast::Expr* idx = s->index.get();
  if (idx->kind == ast::ExprKind::Tuple) {
    for (const auto& e : static_cast<const ast::Tuple*>(idx)->elts) add(e.get());
  } else if (idx->kind != ast::ExprKind::Slice && l.info(idx).type->is_tuple()) {
    Val t = l.expr(idx);
    bool nonneg = l.is_nonnegative(idx);
    for (unsigned k = 0; k < t.t->elements.size(); ++k) {
      Component c;
      c.expr = nonneg ? idx : nullptr;
      c.value = l.convert({l.b().CreateExtractValue(t.v, {k}), t.t->elements[k]}, ir::int64()).v;
      out.push_back(c);
    }
  } else {
    add(idx);
  }
  return out;
}

// {start, length, step} of a slice over an extent n, Python's rules.
struct SliceBounds {
  llvm::Value *start, *length, *step;
};

SliceBounds slice_bounds(Lowerer& l, const ast::Slice* s, llvm::Value* n) {
  auto& b = l.b();
  llvm::Value* step = bound(l, s->step.get());
  if (!step) step = l.i64(1);
  if (!llvm::isa<llvm::ConstantInt>(step)) {
    // Checked even without bounds checks: there is no right answer to give.
    llvm::Value* zero = b.CreateICmpEQ(step, l.i64(0));
    l.fail_if(zero, [&] {
      l.hooks().kernel_error(l, check_site("builtins.ValueError", "slice step cannot be zero"), l.i64(0));
    });
  }
  llvm::Value* neg = b.CreateICmpSLT(step, l.i64(0));
  llvm::Value* low = b.CreateSelect(neg, l.i64(-1), l.i64(0));
  llvm::Value* high = b.CreateSelect(neg, b.CreateSub(n, l.i64(1)), n);
  auto adjust = [&](llvm::Value* x) {
    llvm::Value* wrapped = b.CreateAdd(x, n);
    llvm::Value* below = b.CreateSelect(b.CreateICmpSLT(wrapped, l.i64(0)), low, wrapped);
    llvm::Value* above = b.CreateSelect(b.CreateICmpSGE(x, n), high, x);
    return b.CreateSelect(b.CreateICmpSLT(x, l.i64(0)), below, above);
  };
  llvm::Value* lo = bound(l, s->lower.get());
  llvm::Value* hi = bound(l, s->upper.get());
  llvm::Value* start = lo ? adjust(lo) : b.CreateSelect(neg, b.CreateSub(n, l.i64(1)), l.i64(0));
  llvm::Value* stop = hi ? adjust(hi) : b.CreateSelect(neg, l.i64(-1), n);
  llvm::Value* diff = b.CreateSelect(neg, b.CreateSub(start, stop), b.CreateSub(stop, start));
  llvm::Value* astep = b.CreateSelect(neg, b.CreateNeg(step), step);
  llvm::Value* count = b.CreateAdd(b.CreateSDiv(b.CreateSub(diff, l.i64(1)), astep), l.i64(1));
  llvm::Value* length = b.CreateSelect(b.CreateICmpSGT(diff, l.i64(0)), count, l.i64(0));
  return {start, length, step};
}

Val build_view(Lowerer& l, const ast::Subscript* s, const ir::Type* view_t) {
  auto& b = l.b();
  Val arr = l.expr(s->value.get());
  CUHOST_CHECK(arr.t->kind == ir::TypeKind::Array) << "view of " << arr.t->str();
  std::vector<Component> comps = components(l, s);
  int ndim = arr.t->ndim;
  CUHOST_CHECK(int(comps.size()) <= ndim) << "too many indices for a view";
  llvm::Value* data = b.CreateExtractValue(arr.v, {0});
  llvm::Value* view = keep_meminfo(l, llvm::Constant::getNullValue(l.llvm_type(view_t)), arr.v);
  llvm::Value* offset = l.i64(0);
  unsigned out = 0;
  for (int d = 0; d < ndim; ++d) {
    llvm::Value* n = b.CreateExtractValue(arr.v, {1, unsigned(d)});
    llvm::Value* stride = b.CreateExtractValue(arr.v, {2, unsigned(d)});
    if (d < int(comps.size()) && !comps[size_t(d)].slice) {
      const Component& c = comps[size_t(d)];
      llvm::Value* i = c.value;
      bool nonneg = false;
      if (c.expr) {
        const ir::Type* it = l.info(c.expr).type;
        nonneg = l.is_nonnegative(c.expr) || (it && it->is_integer() && !it->is_signed);
      }
      if (!nonneg) i = b.CreateSelect(b.CreateICmpSLT(i, l.i64(0)), b.CreateAdd(i, n), i, "wrapped");
      if (l.checks_enabled()) {
        std::string name = l.array_name(s->value.get());
        l.fail_if(b.CreateICmpUGE(i, n), [&] { l.hooks().index_error(l, name, i, d, n); });
      }
      offset = b.CreateAdd(offset, b.CreateMul(i, stride));
      continue;
    }
    llvm::Value* length = n;
    llvm::Value* new_stride = stride;
    if (d < int(comps.size())) {
      SliceBounds sb = slice_bounds(l, comps[size_t(d)].slice, n);
      offset = b.CreateAdd(offset, b.CreateMul(sb.start, stride));
      length = sb.length;
      new_stride = b.CreateMul(stride, sb.step);
    }
    view = b.CreateInsertValue(view, length, {1, out});
    view = b.CreateInsertValue(view, new_stride, {2, out});
    ++out;
  }
  CUHOST_CHECK(int(out) == view_t->ndim) << "view rank " << out << " vs " << view_t->str();
  view = b.CreateInsertValue(view, b.CreateGEP(b.getInt8Ty(), data, offset), {0});
  return {view, view_t};
}

// Emits `for i in range(n): body(i)` (an i64 counter in an entry alloca);
// `name` prefixes the blocks.
void count_up(Lowerer& l, llvm::Value* n, const std::string& name, const std::function<void(llvm::Value*)>& body) {
  auto& b = l.b();
  llvm::AllocaInst* counter = l.entry_alloca(b.getInt64Ty(), name + ".i");
  b.CreateStore(l.i64(0), counter);
  llvm::BasicBlock* header = llvm::BasicBlock::Create(l.ctx(), name + ".cond", l.function());
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(l.ctx(), name + ".body", l.function());
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(l.ctx(), name + ".end", l.function());
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::Value* i = b.CreateLoad(b.getInt64Ty(), counter);
  b.CreateCondBr(b.CreateICmpSLT(i, n), loop, exit);
  b.SetInsertPoint(loop);
  body(i);
  b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), counter), l.i64(1)), counter);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
}

// Stores `value` (memory form) into every element of `view`, dimension d onward.
void fill(Lowerer& l, Val view, llvm::Value* base, unsigned d, llvm::Value* value) {
  auto& b = l.b();
  const ir::Type* vt = view.t;
  llvm::Value* stride = b.CreateExtractValue(view.v, {2, d});
  count_up(l, b.CreateExtractValue(view.v, {1, d}), "fill", [&](llvm::Value* i) {
    llvm::Value* p = b.CreateGEP(b.getInt8Ty(), base, b.CreateMul(i, stride));
    if (int(d) + 1 == vt->ndim)
      b.CreateAlignedStore(value, p, llvm::Align(array_element_alignment(vt->dtype)));
    else
      fill(l, view, p, d + 1, value);
  });
}

// Copies `src` (its strides already broadcast: 0 on broadcast dimensions)
// into `view`, dimension d onward, converting each element.
void copy(Lowerer& l, Val view, llvm::Value* dst, const ir::Type* src_t, llvm::Value* src,
          const std::vector<llvm::Value*>& src_strides, unsigned d) {
  auto& b = l.b();
  const ir::Type* vt = view.t;
  llvm::Value* stride = b.CreateExtractValue(view.v, {2, d});
  count_up(l, b.CreateExtractValue(view.v, {1, d}), "copy", [&](llvm::Value* i) {
    llvm::Value* p = b.CreateGEP(b.getInt8Ty(), dst, b.CreateMul(i, stride));
    llvm::Value* q = b.CreateGEP(b.getInt8Ty(), src, b.CreateMul(i, src_strides[d]));
    if (int(d) + 1 == vt->ndim) {
      const ir::Type* st = src_t->dtype;
      llvm::Value* x =
          l.from_memory(b.CreateAlignedLoad(l.memory_type(st), q, llvm::Align(array_element_alignment(st))), st);
      Val v = l.convert({x, st}, vt->dtype);
      b.CreateAlignedStore(l.to_memory(v.v, vt->dtype), p, llvm::Align(array_element_alignment(vt->dtype)));
    } else {
      copy(l, view, p, src_t, q, src_strides, d + 1);
    }
  });
}

// [lowest, highest) byte addresses an array value touches (shape has no 0).
std::pair<llvm::Value*, llvm::Value*> extent(Lowerer& l, llvm::Value* data, const std::vector<llvm::Value*>& shape,
                                             const std::vector<llvm::Value*>& strides, int itemsize) {
  auto& b = l.b();
  llvm::Value* lo = l.i64(0);
  llvm::Value* hi = l.i64(itemsize);
  for (size_t d = 0; d < shape.size(); ++d) {
    llvm::Value* span = b.CreateMul(b.CreateSub(shape[d], l.i64(1)), strides[d]);
    llvm::Value* neg = b.CreateICmpSLT(span, l.i64(0));
    lo = b.CreateAdd(lo, b.CreateSelect(neg, span, l.i64(0)));
    hi = b.CreateAdd(hi, b.CreateSelect(neg, l.i64(0), span));
  }
  llvm::Value* base = b.CreatePtrToInt(data, b.getInt64Ty());
  return {b.CreateAdd(base, lo), b.CreateAdd(base, hi)};
}

// a[...] = array: numba's broadcasting of the source to the view's shape, a
// size mismatch reported as numba's ValueError; overlapping memory (other
// than the very same elements) is reported instead of copied through a
// temporary, which kernels cannot allocate.
void store_array_into(Lowerer& l, Val view, Val src) {
  auto& b = l.b();
  int k = view.t->ndim, m = src.t->ndim;
  std::vector<llvm::Value*> vshape(k), vstrides(k), sshape(k), sstrides(k);
  llvm::Value* mismatch = b.getFalse();
  llvm::Value* empty = b.getFalse();
  llvm::Value* same_strides = b.getTrue();
  for (int d = 0; d < k; ++d) {
    vshape[d] = b.CreateExtractValue(view.v, {1, unsigned(d)});
    vstrides[d] = b.CreateExtractValue(view.v, {2, unsigned(d)});
    empty = b.CreateOr(empty, b.CreateICmpEQ(vshape[d], l.i64(0)));
    int sd = d - (k - m);
    if (sd < 0) {
      sshape[d] = l.i64(1);
      sstrides[d] = l.i64(0);
    } else {
      llvm::Value* sn = b.CreateExtractValue(src.v, {1, unsigned(sd)});
      llvm::Value* one = b.CreateICmpEQ(sn, l.i64(1));
      mismatch = b.CreateOr(mismatch, b.CreateAnd(b.CreateICmpNE(sn, vshape[d]), b.CreateNot(one)));
      sshape[d] = sn;
      sstrides[d] = b.CreateSelect(one, l.i64(0), b.CreateExtractValue(src.v, {2, unsigned(sd)}));
    }
    same_strides = b.CreateAnd(same_strides, b.CreateICmpEQ(sstrides[d], vstrides[d]));
  }
  l.fail_if(mismatch, [&] {
    l.hooks().kernel_error(l, check_site("builtins.ValueError", "cannot assign slice from input of different size"),
                           l.i64(0));
  });
  llvm::Value* dst_data = b.CreateExtractValue(view.v, {0});
  llvm::Value* src_data = b.CreateExtractValue(src.v, {0});
  auto [dlo, dhi] = extent(l, dst_data, vshape, vstrides, std::max(1, view.t->dtype->byte_size()));
  auto [slo, shi] = extent(l, src_data, sshape, sstrides, std::max(1, src.t->dtype->byte_size()));
  llvm::Value* overlap = b.CreateAnd(b.CreateICmpSLT(slo, dhi), b.CreateICmpSLT(dlo, shi));
  llvm::Value* same = b.CreateAnd(b.CreateICmpEQ(src_data, dst_data), same_strides);
  same = b.CreateAnd(same, b.getInt1(src.t->dtype == view.t->dtype));
  llvm::Value* bad = b.CreateAnd(b.CreateAnd(overlap, b.CreateNot(same)), b.CreateNot(empty));
  l.fail_if(bad, [&] {
    l.hooks().kernel_error(
        l, check_site("builtins.ValueError", "slice assignment from overlapping memory is not supported in kernels"),
        l.i64(0));
  });
  copy(l, view, dst_data, src.t, src_data, sstrides, 0);
}

// a[lo:hi] = (x, y, ...): numba's sequence source for a 1-d view.
void store_tuple_into(Lowerer& l, Val view, Val tup) {
  auto& b = l.b();
  std::int64_t count = std::int64_t(tup.t->elements.size());
  llvm::Value* n = b.CreateExtractValue(view.v, {1, 0});
  l.fail_if(b.CreateICmpNE(n, l.i64(count)), [&] {
    l.hooks().kernel_error(l, check_site("builtins.ValueError", "cannot assign slice from input of different size"), n);
  });
  llvm::Value* data = b.CreateExtractValue(view.v, {0});
  llvm::Value* stride = b.CreateExtractValue(view.v, {2, 0});
  const ir::Type* dt = view.t->dtype;
  for (unsigned k = 0; k < unsigned(count); ++k) {
    Val v = l.convert({b.CreateExtractValue(tup.v, {k}), tup.t->elements[k]}, dt);
    llvm::Value* p = b.CreateGEP(b.getInt8Ty(), data, b.CreateMul(l.i64(k), stride));
    b.CreateAlignedStore(l.to_memory(v.v, dt), p, llvm::Align(array_element_alignment(dt)));
  }
}

}  // namespace

Val lower_array_view(Lowerer& l, const ast::Subscript* s, const sema::ExprInfo& inf) {
  CUHOST_CHECK(!inf.param_types.empty() && inf.param_types[0]) << "view without a type";
  return l.convert(build_view(l, s, inf.param_types[0]), inf.type);
}

Val array_item(Lowerer& l, Val arr, llvm::Value* i) {
  auto& b = l.b();
  llvm::Value* data = b.CreateExtractValue(arr.v, {0});
  llvm::Value* p = b.CreateGEP(b.getInt8Ty(), data, b.CreateMul(i, b.CreateExtractValue(arr.v, {2, 0})));
  const ir::Type* dt = arr.t->dtype;
  if (arr.t->ndim == 1) {
    if (dt->kind == ir::TypeKind::Record) return {p, dt};  // `for r in a`: a reference to the element, as a[i]
    llvm::Value* x = b.CreateAlignedLoad(l.memory_type(dt), p, llvm::Align(element_access_alignment(arr.t, dt)));
    return {l.from_memory(x, dt), dt};
  }
  const ir::Type* item_t = ir::array(dt, arr.t->ndim - 1, ir::Layout::A, arr.t->readonly, arr.t->unaligned);
  llvm::Value* view = keep_meminfo(l, llvm::Constant::getNullValue(l.llvm_type(item_t)), arr.v);
  view = b.CreateInsertValue(view, p, {0});
  for (unsigned d = 1; d < unsigned(arr.t->ndim); ++d) {
    view = b.CreateInsertValue(view, b.CreateExtractValue(arr.v, {1, d}), {1, d - 1});
    view = b.CreateInsertValue(view, b.CreateExtractValue(arr.v, {2, d}), {2, d - 1});
  }
  return {view, item_t};
}

void store_array_slice(Lowerer& l, const ast::Subscript* s, Val value) {
  const sema::ExprInfo& inf = l.info(s);
  CUHOST_CHECK(!inf.param_types.empty() && inf.param_types[0]) << "slice store without a type";
  const ir::Type* view_t = inf.param_types[0];
  if (value.t->is_array() || value.t->is_tuple()) {
    Val view = build_view(l, s, view_t);
    if (value.t->is_array())
      store_array_into(l, view, value);
    else
      store_tuple_into(l, view, value);
    return;
  }
  Val v = l.convert(value, view_t->dtype);
  Val view = build_view(l, s, view_t);
  fill(l, view, l.b().CreateExtractValue(view.v, {0}), 0, l.to_memory(v.v, view_t->dtype));
}

}  // namespace cuhost::codegen
