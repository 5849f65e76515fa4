// Tuples as literal structs: `+` concatenation, slicing by literal bounds
// (typing recorded the element positions taken), indexing a homogeneous
// tuple by a runtime integer (wraparound like numba, a select chain the
// optimizer turns into a lookup), and the element reads of `for x in tup`.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

Val lower_tuple_concat(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  Val x = l.expr(e->left.get());
  Val y = l.expr(e->right.get());
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
  unsigned k = 0;
  for (Val part : {x, y}) {
    for (unsigned i = 0; i < part.t->elements.size(); ++i, ++k) {
      Val item = l.convert({b.CreateExtractValue(part.v, {i}), part.t->elements[i]}, inf.type->elements[k]);
      agg = b.CreateInsertValue(agg, item.v, {k});
    }
  }
  return {agg, inf.type};
}

Val lower_tuple_repeat(Lowerer& l, const ast::BinOp* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  Val x = l.expr(e->left.get());
  Val y = l.expr(e->right.get());
  Val t = x.t->is_tuple() ? x : y;
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
  const unsigned n = unsigned(t.t->elements.size());
  for (unsigned k = 0; n && k < inf.type->elements.size(); ++k) {
    Val item = l.convert({b.CreateExtractValue(t.v, {k % n}), t.t->elements[k % n]}, inf.type->elements[k]);
    agg = b.CreateInsertValue(agg, item.v, {k});
  }
  return {agg, inf.type};
}

Val lower_tuple_slice(Lowerer& l, const ast::Subscript* s, const sema::ExprInfo& inf) {
  auto& b = l.b();
  Val t = l.expr(s->value.get());
  CUHOST_CHECK(inf.shape.size() == inf.type->elements.size()) << "tuple slice positions";
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(inf.type));
  for (unsigned k = 0; k < inf.shape.size(); ++k) {
    unsigned from = unsigned(inf.shape[k]);
    Val item = l.convert({b.CreateExtractValue(t.v, {from}), t.t->elements[from]}, inf.type->elements[k]);
    agg = b.CreateInsertValue(agg, item.v, {k});
  }
  return {agg, inf.type};
}

Val tuple_item(Lowerer& l, Val tup, llvm::Value* index, bool may_be_negative) {
  auto& b = l.b();
  std::int64_t n = std::int64_t(tup.t->elements.size());
  CUHOST_CHECK(n > 0) << "indexing an empty tuple";
  llvm::Value* i = index;
  if (may_be_negative) i = b.CreateSelect(b.CreateICmpSLT(i, l.i64(0)), b.CreateAdd(i, l.i64(n)), i);
  // numba-cuda checks tuple indices with debug=True only (numba's CPU target
  // always: functions called on the host), raising IndexError on the host
  // (lowering/exceptions.cpp); an unchecked index selects item 0.
  if (l.options().reports_raises()) {
    l.fail_if(b.CreateICmpUGE(i, l.i64(n)),
              [&] { l.hooks().kernel_error(l, raise_site(l, "builtins.IndexError", "tuple index out of range"), i); });
  }
  llvm::Value* v = b.CreateExtractValue(tup.v, {0});
  for (unsigned k = 1; k < unsigned(n); ++k)
    v = b.CreateSelect(b.CreateICmpEQ(i, l.i64(k)), b.CreateExtractValue(tup.v, {k}), v);
  return {v, tup.t->elements[0]};
}

}  // namespace cuhost::codegen
