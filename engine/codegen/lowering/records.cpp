// Lowering of record values. A record is a reference: its register value is
// the address of its bytes (a kernel argument's device copy, an element of a
// record array, a field of an outer record), so `r = a[i]; r.x = 1` writes the
// array, as in numba. Fields load and store at their offset with their type's
// ABI alignment (typing rejected misaligned ones), or byte-wise where typing
// found that the record may sit at any byte (a packed record, or a record
// nested in one); an array field reads as a C-ordered array view of the
// bytes, and writing a whole array or record field copies into it. An
// augmented assignment to a field evaluates its record once.
#include "codegen/lowering/records.h"

#include <algorithm>

#include <llvm/IR/Constants.h>

#include "codegen/lowering/nrt.h"
#include "ir/records.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

const ast::Expr* record_operand(const ast::Expr* e) {
  if (e->kind == ast::ExprKind::Attribute) return static_cast<const ast::Attribute*>(e)->value.get();
  CUHOST_CHECK(e->kind == ast::ExprKind::Subscript) << "record field access on an unexpected node";
  return static_cast<const ast::Subscript*>(e)->value.get();
}

struct FieldRef {
  llvm::Value* address;
  const ir::RecordField* field;
  int align;  // of the field's loads and stores
};

FieldRef field_of(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  Val rec = l.expr(record_operand(e));
  CUHOST_CHECK(rec.t->kind == ir::TypeKind::Record && inf.record_field >= 0) << "record field of " << rec.t->str();
  const auto& fields = ir::record_layout(rec.t).fields;
  const ir::RecordField& f = fields.at(static_cast<size_t>(inf.record_field));
  // A packed record (NumPy's align=False) may sit at any byte, and so may
  // its fields and the records nested in it: typing found the alignment of
  // the field's address (1 there), and no access is wider; a GPU faults on
  // a misaligned one.
  const int align = std::min(inf.record_field_align, ir::abi_alignment(f.type));
  return {record_field_address(l, rec.v, f), &f, align};
}

// C-order byte strides of a nested array.
std::vector<std::int64_t> nested_strides(const ir::Type* nested) {
  const auto& shape = ir::nested_shape(nested);
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = nested->dtype->byte_size();
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = s;
    s *= shape[d];
  }
  return strides;
}

}  // namespace

llvm::Value* record_field_address(Lowerer& l, llvm::Value* record, const ir::RecordField& f) {
  if (f.offset == 0) return record;
  return l.b().CreateInBoundsGEP(l.b().getInt8Ty(), record, l.i64(f.offset), f.name);
}

Val load_record_value(Lowerer& l, llvm::Value* address, const ir::Type* t, int align, const ir::Type* view) {
  if (t->kind == ir::TypeKind::Record) return {address, t};
  if (t->kind == ir::TypeKind::NestedArray) {
    const auto& shape = ir::nested_shape(t);
    std::vector<std::int64_t> strides = nested_strides(t);
    // A field of a packed record (align 1): the view's elements may sit at any byte.
    const ir::Type* at = view ? view : ir::array(t->dtype, t->ndim, ir::Layout::C, false, align == 1);
    llvm::Value* agg = llvm::Constant::getNullValue(l.llvm_type(at));
    agg = l.b().CreateInsertValue(agg, address, {0});
    for (unsigned d = 0; d < shape.size(); ++d) {
      agg = l.b().CreateInsertValue(agg, l.i64(shape[d]), {1, d});
      agg = l.b().CreateInsertValue(agg, l.i64(strides[d]), {2, d});
    }
    return {agg, at};
  }
  llvm::LoadInst* v =
      l.b().CreateAlignedLoad(l.memory_type(t), address, llvm::Align(align > 0 ? align : ir::abi_alignment(t)));
  return {l.from_memory(v, t), t};
}

void copy_record(Lowerer& l, llvm::Value* dst, llvm::Value* src, const ir::Type* rec, int align) {
  // A packed record may sit at any byte (element i of an array of 9-byte
  // records is at 9 * i), so it is copied with alignment 1, as its fields are
  // accessed; a wider copy faults on a GPU (misaligned address). So may an
  // aligned record nested in a packed one (`align`).
  int a = ir::record_layout(rec).aligned ? ir::abi_alignment(rec) : 1;
  if (align > 0) a = std::min(a, align);
  l.b().CreateMemCpy(dst, llvm::Align(a), src, llvm::Align(a), l.i64(rec->byte_size()));
}

void store_record_value(Lowerer& l, llvm::Value* address, const ir::Type* t, Val value, int align) {
  auto& b = l.b();
  if (t->kind == ir::TypeKind::Record) {
    CUHOST_CHECK(value.t == t) << "storing " << value.t->str() << " into " << t->str();
    copy_record(l, address, value.v, t, align);
    return;
  }
  if (t->kind == ir::TypeKind::NestedArray) {
    // Element by element, in C order, from any strided source of the same rank.
    CUHOST_CHECK(value.t->kind == ir::TypeKind::Array && value.t->ndim == t->ndim) << "array field store";
    const auto& shape = ir::nested_shape(t);
    std::int64_t total = 1;
    for (std::int64_t e : shape) total *= e;
    llvm::Value* src_data = b.CreateExtractValue(value.v, {0});
    llvm::BasicBlock* pre = b.GetInsertBlock();
    llvm::BasicBlock* loop = llvm::BasicBlock::Create(l.ctx(), "fieldcopy", l.function());
    llvm::BasicBlock* done = llvm::BasicBlock::Create(l.ctx(), "fieldcopy.end", l.function());
    b.CreateBr(total > 0 ? loop : done);
    b.SetInsertPoint(loop);
    llvm::PHINode* k = b.CreatePHI(b.getInt64Ty(), 2, "k");
    k->addIncoming(l.i64(0), pre);
    llvm::Value* rest = k;
    llvm::Value* src_off = l.i64(0);
    for (size_t d = shape.size(); d-- > 0;) {
      llvm::Value* i = b.CreateURem(rest, l.i64(shape[d]));
      rest = b.CreateUDiv(rest, l.i64(shape[d]));
      src_off = b.CreateAdd(src_off, b.CreateMul(i, b.CreateExtractValue(value.v, {2, unsigned(d)})));
    }
    const ir::Type* src_t = value.t->dtype;
    const ir::Type* dst_t = t->dtype;
    llvm::Value* sp = b.CreateGEP(b.getInt8Ty(), src_data, src_off);
    llvm::Value* dp = b.CreateGEP(b.getInt8Ty(), address, b.CreateMul(k, l.i64(dst_t->byte_size())));
    // The elements are no better aligned than the field (a packed record's
    // may sit at any byte), nor the source's when it is an unaligned view.
    const int dst_align = align > 0 ? std::min(align, ir::abi_alignment(dst_t)) : 0;
    if (dst_t->kind == ir::TypeKind::Record) {
      store_record_value(l, dp, dst_t, {sp, src_t}, value.t->unaligned ? 1 : dst_align);
    } else {
      Val v = load_record_value(l, sp, src_t, value.t->unaligned ? 1 : 0);
      store_record_value(l, dp, dst_t, l.convert(v, dst_t), dst_align);
    }
    llvm::Value* next = b.CreateAdd(k, l.i64(1));
    k->addIncoming(next, b.GetInsertBlock());
    b.CreateCondBr(b.CreateICmpULT(next, l.i64(total)), loop, done);
    b.SetInsertPoint(done);
    return;
  }
  Val v = l.convert(value, t);
  b.CreateAlignedStore(l.to_memory(v.v, t), address, llvm::Align(align > 0 ? align : ir::abi_alignment(t)));
}

Val lower_record_field(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  FieldRef f = field_of(l, e, inf);
  // An array field's view has the type typing gave it (unaligned in a packed record).
  const ir::Type* view = f.field->type->kind == ir::TypeKind::NestedArray ? inf.type : nullptr;
  return l.convert(load_record_value(l, f.address, f.field->type, f.align, view), inf.type);
}

void store_record_field(Lowerer& l, const ast::Expr* target, Val value) {
  const sema::ExprInfo& inf = l.info(target);
  FieldRef f = field_of(l, target, inf);
  store_record_value(l, f.address, f.field->type, value, f.align);
}

void augassign_record_field(Lowerer& l, const ast::AugAssign* s) {
  const ast::Expr* target = s->target.get();
  const sema::ExprInfo& ti = l.info(target);
  CUHOST_CHECK(ti.intrinsic == "record.field" && ti.operand_types.size() == 2 && !ti.param_types.empty())
      << "augmented assignment to a record field not typed";
  // Python's order: the record, then the field's value, then the right-hand side.
  FieldRef f = field_of(l, target, ti);
  Val cur = load_record_value(l, f.address, f.field->type, f.align);
  Val rhs = l.expr(s->value.get());
  Val res = binary_op(l, s->op, l.convert(cur, ti.operand_types[0]), l.convert(rhs, ti.operand_types[1]),
                      ti.param_types[0], s->loc);
  store_record_value(l, f.address, f.field->type, res, f.align);
}

Val lower_record_array_field(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  CUHOST_CHECK(inf.record_field >= 0) << "record array field not typed";
  Val arr = l.expr(record_operand(e));
  CUHOST_CHECK(arr.t->kind == ir::TypeKind::Array && arr.t->dtype->kind == ir::TypeKind::Record)
      << "record array field of " << arr.t->str();
  const ir::RecordField& f = ir::record_layout(arr.t->dtype).fields.at(static_cast<size_t>(inf.record_field));
  llvm::Value* data = b.CreateExtractValue(arr.v, {0});
  if (f.offset) data = b.CreateGEP(b.getInt8Ty(), data, l.i64(f.offset));
  llvm::Value* out =
      b.CreateInsertValue(keep_meminfo(l, llvm::Constant::getNullValue(l.llvm_type(inf.type)), arr.v), data, {0});
  const unsigned outer = unsigned(arr.t->ndim);
  for (unsigned d = 0; d < outer; ++d) {
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {1, d}), {1, d});
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {2, d}), {2, d});
  }
  if (f.type->kind == ir::TypeKind::NestedArray) {
    const auto& shape = ir::nested_shape(f.type);
    const std::vector<std::int64_t> strides = nested_strides(f.type);
    for (unsigned d = 0; d < shape.size(); ++d) {
      out = b.CreateInsertValue(out, l.i64(shape[d]), {1, outer + d});
      out = b.CreateInsertValue(out, l.i64(strides[d]), {2, outer + d});
    }
  }
  return {out, inf.type};
}

void register_records(std::map<std::string, IntrinsicFn>& table) { table["record.field"] = lower_record_field; }

}  // namespace cuhost::codegen
