// Arrays and tuples: stride-aware element addresses (the contiguous
// dimension of C/F arrays indexes by element, the others by byte strides),
// numba's negative-index wraparound only where an index may be negative,
// optional bounds checks, loads marked invariant for read-only parameters,
// and the shape/strides/size/len attributes.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/records.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

llvm::Value* Lowerer::element_address(const ast::Expr* array_expr, Val array, const ast::Expr* index_expr, Val index) {
  auto& b = builder_;
  const ir::Type* at = array.t;
  if (at->kind == ir::TypeKind::CPointer) {
    llvm::Value* i = convert(index, ir::int64()).v;
    return b.CreateGEP(memory_type(at->pointee), array.v, i);
  }
  CUHOST_CHECK(at->kind == ir::TypeKind::Array) << "indexing " << at->str();
  int ndim = at->ndim;
  std::vector<llvm::Value*> idx;
  std::vector<const ast::Expr*> idx_exprs;
  if (index.t->kind == ir::TypeKind::Tuple) {
    for (unsigned k = 0; k < index.t->elements.size(); ++k) {
      idx.push_back(convert({b.CreateExtractValue(index.v, {k}), index.t->elements[k]}, ir::int64()).v);
      const ast::Expr* sub = nullptr;
      if (index_expr && index_expr->kind == ast::ExprKind::Tuple)
        sub = static_cast<const ast::Tuple*>(index_expr)->elts[k].get();
      idx_exprs.push_back(sub ? sub : (is_nonnegative(index_expr) ? index_expr : nullptr));
    }
  } else {
    idx.push_back(convert(index, ir::int64()).v);
    idx_exprs.push_back(index_expr);
  }
  if (int(idx.size()) != ndim)
    throw UserError(
        ErrorKind::TypingError,
        concat("cannot index a ", ndim, "-d array with ", idx.size(), " indices (slicing is not supported)"),
        index_expr ? where(index_expr->loc) : SourceLocation{}, tf_.captured ? tf_.captured->name : "");
  llvm::Value* data = b.CreateExtractValue(array.v, {0});
  std::vector<llvm::Value*> shape(ndim), strides(ndim);
  for (unsigned d = 0; d < unsigned(ndim); ++d) {
    shape[d] = b.CreateExtractValue(array.v, {1, d});
    strides[d] = b.CreateExtractValue(array.v, {2, d});
  }
  // Signedness of the original index type decides whether it can be negative.
  bool signed_source = true;
  if (index_expr) {
    auto it = tf_.exprs.find(index_expr);
    if (it != tf_.exprs.end() && it->second.type && it->second.type->kind == ir::TypeKind::Integer &&
        !it->second.type->is_signed)
      signed_source = false;
  }
  for (int d = 0; d < ndim; ++d) {
    bool nonneg = !signed_source || (idx_exprs[d] && is_nonnegative(idx_exprs[d]));
    llvm::Value* written = idx[d];  // the index as the script wrote it, for the message (as NumPy's)
    if (!nonneg) {
      llvm::Value* neg = b.CreateICmpSLT(idx[d], i64(0));
      idx[d] = b.CreateSelect(neg, b.CreateAdd(idx[d], shape[d]), idx[d], "wrapped");
    }
    if (checks_enabled()) {
      fail_if(b.CreateICmpUGE(idx[d], shape[d]),
              [&] { state_.hooks->index_error(*this, array_name(array_expr), written, d, shape[d]); });
    }
  }
  llvm::Type* elem = memory_type(at->dtype);
  int contiguous = at->layout == ir::Layout::C ? ndim - 1 : at->layout == ir::Layout::F ? 0 : -1;
  llvm::Value* byte_offset = nullptr;
  for (int d = 0; d < ndim; ++d) {
    if (d == contiguous) continue;
    llvm::Value* term = b.CreateMul(idx[d], strides[d], "", false, true);
    byte_offset = byte_offset ? b.CreateAdd(byte_offset, term, "", false, true) : term;
  }
  llvm::Value* p = data;
  if (byte_offset) p = b.CreateGEP(b.getInt8Ty(), p, byte_offset);
  if (contiguous >= 0) p = b.CreateInBoundsGEP(elem, p, idx[contiguous]);
  return p;
}

namespace {

// Evaluates the index of a subscript converted to the type typing chose.
Val index_value(Lowerer& l, const ast::Subscript* s, const sema::ExprInfo& inf) {
  const ir::Type* it = !inf.param_types.empty() ? inf.param_types[0] : nullptr;
  return l.expr_as(s->index.get(), it);
}

}  // namespace

Val lower_subscript(Lowerer& l, const ast::Subscript* s, const sema::ExprInfo& inf) {
  auto& b = l.b();
  if (inf.intrinsic == "tuple.getitem") {
    Val t = l.expr(s->value.get());
    const sema::ExprInfo& ii = l.info(s->index.get());
    if (!ii.constant) {  // a runtime index into a homogeneous tuple
      Val i = l.expr_as(s->index.get(), ir::int64());
      bool may_be_negative = !l.is_nonnegative(s->index.get()) && !(ii.type->is_integer() && !ii.type->is_signed);
      return l.convert(tuple_item(l, t, i.v, may_be_negative), inf.type);
    }
    std::int64_t k = 0;
    if (ii.constant)
      k = ii.constant->kind == ir::ConstValue::Kind::UInt ? std::int64_t(ii.constant->u) : ii.constant->i;
    std::int64_t n = std::int64_t(t.t->elements.size());
    if (k < 0) k += n;
    if (k < 0 || k >= n)
      throw UserError(ErrorKind::IndexError, "tuple index out of range", l.where(s->loc), l.typed().captured->name);
    return l.convert({b.CreateExtractValue(t.v, {unsigned(k)}), t.t->elements[size_t(k)]}, inf.type);
  }
  if (inf.intrinsic == "array.view") return lower_array_view(l, s, inf);
  if (inf.intrinsic == "tuple.slice") return lower_tuple_slice(l, s, inf);
  if (inf.intrinsic == "record.field") return lower_record_field(l, s, inf);
  if (inf.intrinsic == "array.record_field") return lower_record_array_field(l, s, inf);  // a['x']
  if (inf.intrinsic != "array.getitem") l.unsupported(s->loc, "unsupported subscript");
  Val arr = l.expr(s->value.get());
  Val index = index_value(l, s, inf);
  llvm::Value* p = l.element_address(s->value.get(), arr, s->index.get(), index);
  const ir::Type* dtype = arr.t->kind == ir::TypeKind::CPointer ? arr.t->pointee : arr.t->dtype;
  if (dtype->kind == ir::TypeKind::Record) return l.convert({p, dtype}, inf.type);  // a reference to the element
  llvm::LoadInst* load =
      b.CreateAlignedLoad(l.memory_type(dtype), p, llvm::Align(element_access_alignment(arr.t, dtype)));
  bool readonly = arr.t->kind == ir::TypeKind::Array && (arr.t->readonly || l.is_readonly_array(s->value.get()));
  if (readonly && l.hooks().is_gpu())
    load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(l.ctx(), {}));
  return l.convert({l.from_memory(load, dtype), dtype}, inf.type);
}

void store_subscript(Lowerer& l, const ast::Subscript* s, Val value) {
  const sema::ExprInfo& inf = l.info(s);
  if (inf.intrinsic == "array.setslice") {
    store_array_slice(l, s, value);
    return;
  }
  if (inf.intrinsic.rfind("record.", 0) == 0) {
    store_record_field(l, s, value);
    return;
  }
  if (inf.intrinsic != "array.setitem") l.unsupported(s->loc, "unsupported assignment target");
  Val arr = l.expr(s->value.get());
  Val index = index_value(l, s, inf);
  llvm::Value* p = l.element_address(s->value.get(), arr, s->index.get(), index);
  const ir::Type* dtype = arr.t->kind == ir::TypeKind::CPointer ? arr.t->pointee : arr.t->dtype;
  if (dtype->kind == ir::TypeKind::Record) {  // a[i] = rec: copies the record's bytes (an unaligned view's byte-wise)
    store_record_value(l, p, dtype, value, element_access_alignment(arr.t, dtype));
    return;
  }
  Val v = l.convert(value, dtype);
  l.b().CreateAlignedStore(l.to_memory(v.v, dtype), p, llvm::Align(element_access_alignment(arr.t, dtype)));
}

void augassign_subscript(Lowerer& l, const ast::AugAssign* s) {
  auto* target = static_cast<const ast::Subscript*>(s->target.get());
  const sema::ExprInfo& ti = l.info(target);
  if (ti.intrinsic == "array.setslice")
    l.unsupported(s->loc, "augmented assignment to an array slice is not supported in kernels");
  if (ti.intrinsic == "record.field") {  // r['x'] += v, a[i]['pos']['x'] += v
    augassign_record_field(l, s);
    return;
  }
  CUHOST_CHECK(ti.operand_types.size() == 2 && ti.param_types.size() >= 1) << "augmented store not typed";
  Val arr = l.expr(target->value.get());
  // param_types[0] of an AugAssign is the operation's result type; the index
  // is converted to the type of the index expression's typing (int64 or tuple).
  const sema::ExprInfo& ii = l.info(target->index.get());
  const ir::Type* index_t = ii.type && ii.type->kind == ir::TypeKind::Tuple
                                ? ir::tuple(std::vector<const ir::Type*>(ii.type->elements.size(), ir::int64()))
                                : ir::int64();
  Val index = l.expr_as(target->index.get(), index_t);
  llvm::Value* p = l.element_address(target->value.get(), arr, target->index.get(), index);
  const ir::Type* dtype = arr.t->kind == ir::TypeKind::CPointer ? arr.t->pointee : arr.t->dtype;
  llvm::Value* cur = l.from_memory(
      l.b().CreateAlignedLoad(l.memory_type(dtype), p, llvm::Align(element_access_alignment(arr.t, dtype))), dtype);
  Val rhs = l.expr(s->value.get());
  Val res = binary_op(l, s->op, l.convert({cur, dtype}, ti.operand_types[0]), l.convert(rhs, ti.operand_types[1]),
                      ti.param_types[0], s->loc);
  Val stored = l.convert(res, dtype);
  l.b().CreateAlignedStore(l.to_memory(stored.v, dtype), p, llvm::Align(element_access_alignment(arr.t, dtype)));
}

void register_arrays(std::map<std::string, IntrinsicFn>& table) {
  auto array_of = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    if (e->kind == ast::ExprKind::Attribute) return l.expr(static_cast<const ast::Attribute*>(e)->value.get());
    CUHOST_CHECK(!inf.ordered_args.empty()) << "array intrinsic without argument";
    return l.expr(inf.ordered_args[0]);
  };
  auto dims_tuple = [array_of](unsigned field) {
    return [array_of, field](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
      Val a = array_of(l, e, inf);
      llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
      for (unsigned d = 0; d < unsigned(a.t->ndim); ++d)
        agg = l.b().CreateInsertValue(agg, l.b().CreateExtractValue(a.v, {field, d}), {d});
      return {agg, inf.type};
    };
  };
  table["array.shape"] = dims_tuple(1);
  table["array.strides"] = dims_tuple(2);
  table["array.size"] = [array_of](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    Val a = array_of(l, e, inf);
    llvm::Value* n = l.i64(1);
    for (unsigned d = 0; d < unsigned(a.t->ndim); ++d) n = l.b().CreateMul(n, l.b().CreateExtractValue(a.v, {1, d}));
    return l.convert({n, ir::int64()}, inf.type);
  };
  table["builtins.len"] = [array_of](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    Val a = array_of(l, e, inf);
    return l.convert({l.b().CreateExtractValue(a.v, {1, 0}), ir::int64()}, inf.type);
  };
  table["ffi.from_buffer"] = [array_of](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    Val a = array_of(l, e, inf);
    return {l.b().CreateExtractValue(a.v, {0}), inf.type};
  };
}

}  // namespace cuhost::codegen
