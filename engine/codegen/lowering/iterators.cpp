// enumerate/zip loops (see iterators.h).
#include "codegen/lowering/iterators.h"

#include <llvm/IR/Constants.h>

#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

llvm::Value* smax0(llvm::IRBuilder<>& b, llvm::Value* v) {
  return b.CreateSelect(b.CreateICmpSLT(v, b.getInt64(0)), b.getInt64(0), v);
}

// len(range(start, stop, step)) for a non-zero step.
llvm::Value* range_length(Lowerer& l, llvm::Value* start, llvm::Value* stop, llvm::Value* step) {
  auto& b = l.b();
  llvm::Value* one = l.i64(1);
  llvm::Value* up = b.CreateSDiv(b.CreateAdd(b.CreateSub(stop, start), b.CreateSub(step, one)), step);
  llvm::Value* down = b.CreateSDiv(b.CreateSub(b.CreateSub(start, stop), b.CreateAdd(step, one)), b.CreateNeg(step));
  return smax0(b, b.CreateSelect(b.CreateICmpSGT(step, l.i64(0)), up, down));
}

}  // namespace

SequencePlan plan_sequence(Lowerer& l, const ast::Expr* seq) {
  auto& b = l.b();
  const sema::ExprInfo& inf = l.info(seq);
  SequencePlan p;
  p.item_type = inf.type;
  if (inf.intrinsic == "builtins.enumerate") {
    p.kind = SequencePlan::Kind::Enumerate;
    p.children.push_back(plan_sequence(l, inf.ordered_args.at(0)));
    const ast::Expr* start = inf.ordered_args.size() > 1 ? inf.ordered_args[1] : nullptr;
    p.start = start ? l.expr_as(start, ir::int64()).v : l.i64(0);
    p.length = p.children[0].length;
    return p;
  }
  if (inf.intrinsic == "builtins.zip") {
    p.kind = SequencePlan::Kind::Zip;
    for (const ast::Expr* a : inf.ordered_args) {
      p.children.push_back(plan_sequence(l, a));
      llvm::Value* n = p.children.back().length;
      p.length = p.length ? b.CreateSelect(b.CreateICmpSLT(n, p.length), n, p.length) : n;
    }
    return p;
  }
  if (inf.intrinsic == "builtins.range") {
    p.kind = SequencePlan::Kind::Range;
    p.index_type = inf.type->pointee;
    auto bound = [&](size_t k, std::int64_t dflt) -> llvm::Value* {
      const ast::Expr* a = k < inf.ordered_args.size() ? inf.ordered_args[k] : nullptr;
      if (!a) return l.i64(dflt);
      return l.convert(l.expr_as(a, p.index_type), ir::int64()).v;
    };
    p.start = bound(0, 0);
    llvm::Value* stop = bound(1, 0);
    p.step = bound(2, 1);
    if (!llvm::isa<llvm::ConstantInt>(p.step))
      l.fail_if(b.CreateICmpEQ(p.step, l.i64(0)), [&] {
        l.hooks().kernel_error(l, check_site("builtins.ValueError", "range() arg 3 must not be zero"), l.i64(0));
      });
    p.length = range_length(l, p.start, stop, p.step);
    return p;
  }
  p.value = l.expr(seq);
  if (p.value.t->is_tuple()) {
    p.kind = SequencePlan::Kind::Tuple;
    p.length = l.i64(std::int64_t(p.value.t->elements.size()));
  } else {
    CUHOST_CHECK(p.value.t->is_array()) << "sequence of type " << p.value.t->str();
    p.kind = SequencePlan::Kind::Array;
    p.length = smax0(b, b.CreateExtractValue(p.value.v, {1, 0}));
  }
  return p;
}

Val sequence_item(Lowerer& l, const SequencePlan& p, llvm::Value* i) {
  auto& b = l.b();
  switch (p.kind) {
    case SequencePlan::Kind::Range: {
      llvm::Value* v = b.CreateAdd(p.start, b.CreateMul(i, p.step));
      return l.convert({v, ir::int64()}, p.index_type);
    }
    case SequencePlan::Kind::Tuple: return tuple_item(l, p.value, i, false);
    case SequencePlan::Kind::Array: return array_item(l, p.value, i);
    case SequencePlan::Kind::Enumerate:
    case SequencePlan::Kind::Zip: {
      std::vector<Val> parts;
      if (p.kind == SequencePlan::Kind::Enumerate) parts.push_back({b.CreateAdd(p.start, i), ir::int64()});
      for (const SequencePlan& c : p.children) parts.push_back(sequence_item(l, c, i));
      llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(p.item_type));
      for (unsigned k = 0; k < parts.size(); ++k) {
        Val v = l.convert(parts[k], p.item_type->elements[k]);
        agg = b.CreateInsertValue(agg, v.v, {k});
      }
      return {agg, p.item_type};
    }
  }
  return {};
}

}  // namespace cuhost::codegen
