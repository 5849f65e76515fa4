// cuda.atomic.*: atomicrmw for add/sub/and/or/xor/exch/int max/min and
// inc/dec (uinc_wrap/udec_wrap: CUDA's wraparound semantics), cmpxchg for
// cas, and a compare-and-swap loop for float max/min (numba-cuda's NaN
// rules: see float_extreme). Every atomic returns
// the old value; they are real atomics on the host too.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

struct Target {
  llvm::Value* ptr;
  const ir::Type* dtype;
};

Target atomic_target(Lowerer& l, const sema::ExprInfo& inf) {
  const ast::Expr* ary = inf.ordered_args.at(0);
  const ast::Expr* idx = inf.ordered_args.at(1);
  Val a = l.expr(ary);
  const ir::Type* it = inf.param_types.size() > 1 ? inf.param_types[1] : nullptr;
  Val i = l.expr_as(idx, it);
  llvm::Value* p = l.element_address(ary, a, idx, i);
  return {p, a.t->kind == ir::TypeKind::CPointer ? a.t->pointee : a.t->dtype};
}

llvm::Value* operand(Lowerer& l, const sema::ExprInfo& inf, size_t k, const ir::Type* dtype) {
  return l.expr_as(inf.ordered_args.at(k), dtype).v;
}

// numba-cuda's float max/min: max/min leave the element alone when either
// the element or the value is NaN; nanmax/nanmin ignore a NaN value and
// replace a NaN element (maxnum/minnum).
llvm::Value* float_extreme(Lowerer& l, llvm::Value* old, llvm::Value* val, bool is_max, bool nan_variant) {
  auto& b = l.b();
  llvm::Value* r = b.CreateBinaryIntrinsic(is_max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, old, val);
  if (nan_variant) return r;
  return b.CreateSelect(b.CreateFCmpUNO(old, val), old, r);
}

llvm::Value* float_cas_loop(Lowerer& l, llvm::Value* p, llvm::Value* val, bool is_max, bool nan_variant) {
  auto& b = l.b();
  llvm::Type* ft = val->getType();
  llvm::Type* it = b.getIntNTy(ft->getPrimitiveSizeInBits());
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::Value* first = b.CreateAlignedLoad(ft, p, llvm::Align(ft->getPrimitiveSizeInBits() / 8));
  auto* loop = llvm::BasicBlock::Create(l.ctx(), "atomic.cas", l.function());
  auto* swap = llvm::BasicBlock::Create(l.ctx(), "atomic.swap", l.function());
  auto* done = llvm::BasicBlock::Create(l.ctx(), "atomic.done", l.function());
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* old = b.CreatePHI(ft, 2);
  old->addIncoming(first, entry);
  llvm::Value* desired = float_extreme(l, old, val, is_max, nan_variant);
  llvm::Value* old_bits = b.CreateBitCast(old, it);
  llvm::Value* new_bits = b.CreateBitCast(desired, it);
  b.CreateCondBr(b.CreateICmpEQ(old_bits, new_bits), done, swap);
  b.SetInsertPoint(swap);
  llvm::Value* pair = b.CreateAtomicCmpXchg(p, old_bits, new_bits, llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic,
                                            llvm::AtomicOrdering::Monotonic);
  llvm::Value* seen = b.CreateBitCast(b.CreateExtractValue(pair, {0}), ft);
  old->addIncoming(seen, swap);
  b.CreateCondBr(b.CreateExtractValue(pair, {1}), done, loop);
  b.SetInsertPoint(done);
  llvm::PHINode* result = b.CreatePHI(ft, 2);
  result->addIncoming(old, loop);
  result->addIncoming(old, swap);
  return result;
}

IntrinsicFn rmw(const std::string& op) {
  return [op](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Target t = atomic_target(l, inf);
    llvm::Value* v = operand(l, inf, 2, t.dtype);
    bool is_float = t.dtype->kind == ir::TypeKind::Float;
    bool is_signed = t.dtype->kind == ir::TypeKind::Integer && t.dtype->is_signed;
    using B = llvm::AtomicRMWInst::BinOp;
    B kind;
    if (op == "add")
      kind = is_float ? B::FAdd : B::Add;
    else if (op == "sub")
      kind = is_float ? B::FSub : B::Sub;
    else if (op == "and_")
      kind = B::And;
    else if (op == "or_")
      kind = B::Or;
    else if (op == "xor")
      kind = B::Xor;
    else if (op == "exch")
      kind = B::Xchg;
    else if ((op == "inc" || op == "dec") && l.hooks().is_gpu() && t.dtype->bits == 32) {
      // LLVM 19's NVPTX expands uinc_wrap/udec_wrap into a CAS loop; the
      // NVVM intrinsic selects the native atom.inc/atom.dec.
      auto id = op == "inc" ? llvm::Intrinsic::nvvm_atomic_load_inc_32 : llvm::Intrinsic::nvvm_atomic_load_dec_32;
      llvm::Value* old = b.CreateIntrinsic(id, {t.ptr->getType()}, {t.ptr, v});
      return l.convert({old, t.dtype}, inf.type);
    } else if (op == "inc")
      kind = B::UIncWrap;
    else if (op == "dec")
      kind = B::UDecWrap;
    else if (op == "max" || op == "nanmax" || op == "min" || op == "nanmin") {
      bool is_max = op == "max" || op == "nanmax";
      if (is_float) {
        bool nan = op == "nanmax" || op == "nanmin";
        return l.convert({float_cas_loop(l, t.ptr, v, is_max, nan), t.dtype}, inf.type);
      }
      kind = is_max ? (is_signed ? B::Max : B::UMax) : (is_signed ? B::Min : B::UMin);
    } else {
      CUHOST_CHECK(false) << "atomic op " << op;
      return {};
    }
    llvm::Value* old = b.CreateAtomicRMW(kind, t.ptr, v, llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic);
    return l.convert({old, t.dtype}, inf.type);
  };
}

}  // namespace

void register_atomics(std::map<std::string, IntrinsicFn>& table) {
  for (const char* op : {"add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_", "xor", "exch", "inc", "dec"})
    table[std::string("cuda.atomic.") + op] = rmw(op);
  table["cuda.atomic.cas"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    Target t = atomic_target(l, inf);
    llvm::Value* expected = operand(l, inf, 2, t.dtype);
    llvm::Value* desired = operand(l, inf, 3, t.dtype);
    llvm::Value* pair = b.CreateAtomicCmpXchg(t.ptr, expected, desired, llvm::MaybeAlign(),
                                              llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
    return l.convert({b.CreateExtractValue(pair, {0}), t.dtype}, inf.type);
  };
  // compare_and_swap(ary, old, val): cas on ary[0].
  table["cuda.atomic.compare_and_swap"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    const ast::Expr* ary = inf.ordered_args.at(0);
    Val a = l.expr(ary);
    llvm::Value* p = l.element_address(ary, a, nullptr, {l.i64(0), ir::int64()});
    llvm::Value* expected = operand(l, inf, 1, a.t->dtype);
    llvm::Value* desired = operand(l, inf, 2, a.t->dtype);
    llvm::Value* pair = b.CreateAtomicCmpXchg(p, expected, desired, llvm::MaybeAlign(), llvm::AtomicOrdering::Monotonic,
                                              llvm::AtomicOrdering::Monotonic);
    return l.convert({b.CreateExtractValue(pair, {0}), a.t->dtype}, inf.type);
  };
}

}  // namespace cuhost::codegen
