// Lowering of array methods (typing: sema/typing/array_methods.cpp):
// a.view(dtype) rewrites the array value's dtype and, for another item
// size, its last extent and stride (numba's checks and ValueErrors);
// a.copy() copies the elements in C order into thread-local memory sized at
// compile time; a.ctypes.data is the data pointer as an integer;
// a.reshape(shape) restrides a contiguous array (one extent may be -1);
// numba's carray/farray(ptr, shape) make an array over a typed pointer.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/nrt.h"
#include "codegen/lowering/records.h"
#include "ir/records.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr int kStatusRaised = 2;  // a user raise (lowering/exceptions.cpp)

// Raises ValueError(text) when `bad` holds (the thread ends; reported with debug=True).
void raise_value_error_if(Lowerer& l, llvm::Value* bad, const std::string& text, int line) {
  auto& b = l.b();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::BasicBlock* err = llvm::BasicBlock::Create(l.ctx(), "view.invalid", f);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(l.ctx(), "view.ok", f);
  b.CreateCondBr(bad, err, ok);
  b.SetInsertPoint(err);
  const KernelErrorSite site = raise_site(l, "builtins.ValueError", text, line);
  l.raise_error(b.getInt32(kStatusRaised), &site);
  if (!b.GetInsertBlock()->getTerminator()) b.CreateBr(ok);
  b.SetInsertPoint(ok);
}

Val lower_view(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ir::Type* at = inf.param_types.at(0);
  Val arr = l.expr_as(inf.ordered_args.at(0), at);
  const std::int64_t old_size = at->dtype->byte_size();
  const std::int64_t new_size = inf.type->dtype->byte_size();
  // The same fields under the new type (the data pointer is untyped).
  llvm::Value* out = keep_meminfo(l, llvm::Constant::getNullValue(l.llvm_type(inf.type)), arr.v);
  out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {0}), {0});
  for (unsigned d = 0; d < unsigned(at->ndim); ++d) {
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {1, d}), {1, d});
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {2, d}), {2, d});
  }
  if (old_size == new_size) return {out, inf.type};
  // numba: the last axis must be contiguous, and its byte length a multiple
  // of the new item size; it then holds byte length / new size items.
  const unsigned last = unsigned(at->ndim - 1);
  llvm::Value* extent = b.CreateExtractValue(arr.v, {1, last});
  llvm::Value* stride = b.CreateExtractValue(arr.v, {2, last});
  llvm::Value* contiguous = b.CreateOr(b.CreateICmpEQ(stride, l.i64(old_size)), b.CreateICmpSLE(extent, l.i64(1)));
  raise_value_error_if(l, b.CreateNot(contiguous),
                       "To change to a dtype of a different size, the last axis must be contiguous", e->loc.line);
  llvm::Value* bytes = b.CreateMul(extent, l.i64(old_size));
  raise_value_error_if(l, b.CreateICmpNE(b.CreateSRem(bytes, l.i64(new_size)), l.i64(0)),
                       "When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
                       "the last axis of the array.",
                       e->loc.line);
  out = b.CreateInsertValue(out, b.CreateSDiv(bytes, l.i64(new_size)), {1, last});
  out = b.CreateInsertValue(out, l.i64(new_size), {2, last});
  return {out, inf.type};
}

Val lower_copy(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ir::Type* at = inf.param_types.at(0);
  const ir::Type* dt = at->dtype;
  Val arr = l.expr_as(inf.ordered_args.at(0), at);
  std::int64_t n = 1;
  for (std::int64_t e : inf.shape) n *= e;
  llvm::Type* elem = l.memory_type(dt);
  llvm::AllocaInst* buf =
      l.entry_alloca(llvm::ArrayType::get(elem, std::uint64_t(std::max<std::int64_t>(n, 1))), "copy.array");
  const int align = dt->kind == ir::TypeKind::Record ? ir::abi_alignment(dt) : dt->byte_size();
  buf->setAlignment(llvm::Align(std::max(8, align)));
  llvm::AllocaInst* k = l.entry_alloca(b.getInt64Ty(), "copy.k");
  b.CreateStore(l.i64(0), k);
  const std::int64_t item = dt->byte_size();
  for_each_element(l, arr.v, at->ndim, [&](llvm::Value* src) {
    llvm::Value* i = b.CreateLoad(b.getInt64Ty(), k);
    llvm::Value* dst = b.CreateGEP(b.getInt8Ty(), buf, b.CreateMul(i, l.i64(item)));
    b.CreateMemCpy(dst, llvm::Align(1), src, llvm::Align(1), item);
    b.CreateStore(b.CreateAdd(i, l.i64(1)), k);
  });
  // A C-ordered array over the copy.
  llvm::Value* out = llvm::Constant::getNullValue(l.llvm_type(inf.type));
  out = b.CreateInsertValue(out, buf, {0});
  std::int64_t stride = item;
  for (size_t d = inf.shape.size(); d-- > 0;) {
    out = b.CreateInsertValue(out, l.i64(inf.shape[d]), {1, unsigned(d)});
    out = b.CreateInsertValue(out, l.i64(stride), {2, unsigned(d)});
    stride *= std::max<std::int64_t>(inf.shape[d], 1);
  }
  return {out, inf.type};
}

// The extents a shape argument gives as i64 values: an integer, or each
// element of a tuple of integers.
void append_extents(Lowerer& l, const ast::Expr* arg, const ir::Type* type, std::vector<llvm::Value*>& extents) {
  if (!type->is_tuple()) {
    extents.push_back(l.expr_as(arg, ir::int64()).v);
    return;
  }
  Val tup = l.expr_as(arg, type);
  for (unsigned k = 0; k < type->elements.size(); ++k)
    extents.push_back(l.convert({l.b().CreateExtractValue(tup.v, {k}), type->elements[k]}, ir::int64()).v);
}

// A contiguous array value of type `type` (its layout C or F says the
// order) over `data` with the given extents.
llvm::Value* contiguous_array(Lowerer& l, const ir::Type* type, llvm::Value* data,
                              const std::vector<llvm::Value*>& extents) {
  auto& b = l.b();
  llvm::Value* out = b.CreateInsertValue(llvm::Constant::getNullValue(l.llvm_type(type)), data, {0});
  const unsigned n = unsigned(extents.size());
  llvm::Value* stride = l.i64(type->dtype->byte_size());
  for (unsigned k = 0; k < n; ++k) {
    const unsigned d = type->layout == ir::Layout::F ? k : n - 1 - k;
    out = b.CreateInsertValue(out, extents[d], {1, d});
    out = b.CreateInsertValue(out, stride, {2, d});
    stride = b.CreateMul(stride, extents[d]);
  }
  return out;
}

// numba's carray(ptr, shape) / farray: a C (F) ordered array over the pointer.
Val lower_pointer_array(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  Val ptr = l.expr_as(inf.ordered_args.at(0), inf.param_types.at(0));
  std::vector<llvm::Value*> extents;
  append_extents(l, inf.ordered_args.at(1), inf.param_types.at(1), extents);
  return {contiguous_array(l, inf.type, ptr.v, extents), inf.type};
}

// numba's reshape of a contiguous array: one negative extent is inferred
// from the others (ValueError when the size does not divide, or for more
// than one), the total size must be unchanged, and the strides are those of
// a contiguous array of the new shape in the array's own order (C or F).
Val lower_reshape(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ir::Type* at = inf.param_types.at(0);
  Val arr = l.expr_as(inf.ordered_args.at(0), at);
  std::vector<llvm::Value*> extents;
  for (size_t i = 1; i < inf.ordered_args.size(); ++i)
    append_extents(l, inf.ordered_args[i], inf.param_types.at(i), extents);
  llvm::Value* size = l.i64(1);
  for (unsigned d = 0; d < unsigned(at->ndim); ++d) size = b.CreateMul(size, b.CreateExtractValue(arr.v, {1, d}));
  llvm::Value* known = l.i64(1);
  llvm::Value* negatives = l.i64(0);
  for (llvm::Value* x : extents) {
    llvm::Value* negative = b.CreateICmpSLT(x, l.i64(0));
    negatives = b.CreateAdd(negatives, b.CreateZExt(negative, b.getInt64Ty()));
    known = b.CreateMul(known, b.CreateSelect(negative, l.i64(1), x));
  }
  raise_value_error_if(l, b.CreateICmpUGT(negatives, l.i64(1)), "multiple negative shape values", e->loc.line);
  llvm::Value* known_zero = b.CreateICmpEQ(known, l.i64(0));
  llvm::Value* divisor = b.CreateSelect(known_zero, l.i64(1), known);
  llvm::Value* inferred = b.CreateSelect(known_zero, l.i64(0), b.CreateSDiv(size, divisor));
  llvm::Value* divides =
      b.CreateSelect(known_zero, b.CreateICmpEQ(size, l.i64(0)), b.CreateICmpEQ(b.CreateSRem(size, divisor), l.i64(0)));
  llvm::Value* mismatch =
      b.CreateSelect(b.CreateICmpEQ(negatives, l.i64(0)), b.CreateICmpNE(size, known), b.CreateNot(divides));
  raise_value_error_if(l, mismatch, "total size of new array must be unchanged", e->loc.line);
  for (llvm::Value*& x : extents) x = b.CreateSelect(b.CreateICmpSLT(x, l.i64(0)), inferred, x);
  return {keep_meminfo(l, contiguous_array(l, inf.type, b.CreateExtractValue(arr.v, {0}), extents), arr.v), inf.type};
}

}  // namespace

namespace {

// A view of one part of every element of `arr` (a complex number's real or
// imaginary half): `offset` bytes into each element, the same shape and
// byte strides, typed `view`.
Val element_part_view(Lowerer& l, Val arr, std::int64_t offset, const ir::Type* view) {
  auto& b = l.b();
  llvm::Value* data = b.CreateExtractValue(arr.v, {0});
  if (offset) data = b.CreateGEP(b.getInt8Ty(), data, l.i64(offset));
  llvm::Value* out =
      b.CreateInsertValue(keep_meminfo(l, llvm::Constant::getNullValue(l.llvm_type(view)), arr.v), data, {0});
  for (unsigned d = 0; d < unsigned(arr.t->ndim); ++d) {
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {1, d}), {1, d});
    out = b.CreateInsertValue(out, b.CreateExtractValue(arr.v, {2, d}), {2, d});
  }
  return {out, view};
}

}  // namespace

void register_array_methods(std::map<std::string, IntrinsicFn>& table) {
  table["array.method.view"] = lower_view;
  table["array.method.copy"] = lower_copy;
  table["array.method.reshape"] = lower_reshape;
  table["numpy_support.carray"] = lower_pointer_array;
  table["numpy_support.farray"] = lower_pointer_array;
  // a.real / a.imag of a complex array: the same shape and strides over the
  // first or second component (a.real of a real array is the array).
  auto part = [](bool imag) {
    return [imag](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
      Val arr = l.expr(static_cast<const ast::Attribute*>(e)->value.get());
      if (arr.t->dtype->kind != ir::TypeKind::Complex) return arr;
      return element_part_view(l, arr, imag ? arr.t->dtype->byte_size() / 2 : 0, inf.type);
    };
  };
  table["array.real"] = part(false);
  table["array.imag"] = part(true);
  // a.x / a['x'] of a structured array: lowering/records.cpp.
  table["array.record_field"] = lower_record_array_field;
  table["array.ctypes.data"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    // a.ctypes.data: the Attribute `data` of the Attribute `ctypes` of a.
    const auto* ctypes = static_cast<const ast::Attribute*>(static_cast<const ast::Attribute*>(e)->value.get());
    Val arr = l.expr(ctypes->value.get());
    return {l.b().CreatePtrToInt(l.b().CreateExtractValue(arr.v, {0}), l.b().getInt64Ty()), inf.type};
  };
}

}  // namespace cuhost::codegen
