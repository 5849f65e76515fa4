// Block and warp synchronization: syncthreads and its reductions, fences,
// syncwarp, shuffles, votes, activemask and lanemask_lt. The target hooks
// emit the NVVM intrinsics or the CPU runtime calls.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

Val arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ir::Type* t = i < inf.param_types.size() ? inf.param_types[i] : nullptr;
  return l.expr_as(inf.ordered_args.at(i), t);
}

llvm::Value* mask_arg(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  if (i >= inf.ordered_args.size() || !inf.ordered_args[i]) return l.i32(-1);
  return l.convert(arg(l, inf, i), ir::uint32()).v;
}

// Marks a barrier call with its source line: the CPU target's loop fission
// (cpu_fission.cpp) names the line of a barrier reached divergently.
void tag_line(Lowerer& l, llvm::Value* v, const ast::Expr* e) {
  auto* call = llvm::dyn_cast_or_null<llvm::CallInst>(v);
  if (!call || !e) return;
  llvm::Metadata* md[] = {llvm::ConstantAsMetadata::get(l.b().getInt32(l.where(e->loc).line))};
  call->setMetadata("cuhost.line", llvm::MDNode::get(l.ctx(), md));
}

IntrinsicFn barrier_op(BarrierOp op) {
  return [op](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    llvm::Value* pred = l.convert(arg(l, inf, 0), ir::int32()).v;
    llvm::Value* r = l.hooks().syncthreads_op(l, op, pred);
    tag_line(l, r, e);
    return l.convert({r, ir::int32()}, inf.type);
  };
}

IntrinsicFn fence(FenceScope s) {
  return [s](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    l.hooks().fence(l, s);
    return {nullptr, inf.type};
  };
}

IntrinsicFn shfl(ShflMode mode) {
  return [mode](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    llvm::Value* mask = mask_arg(l, inf, 0);
    Val v = l.convert(arg(l, inf, 1), inf.type);
    llvm::Value* lane = l.convert(arg(l, inf, 2), ir::int32()).v;
    return {l.hooks().shfl(l, mode, mask, v.v, lane), inf.type};
  };
}

// match_any_sync / match_all_sync: native match.sync on the GPU; elsewhere
// each lane reads every active lane's value with shfl_sync and compares bits.
IntrinsicFn match(bool all) {
  return [all](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    auto& b = l.b();
    llvm::Value* mask = mask_arg(l, inf, 0);
    Val v = l.convert(arg(l, inf, 1), inf.param_types.at(1));
    llvm::Type* it = b.getIntNTy(v.v->getType()->getPrimitiveSizeInBits());
    llvm::Value* bits = b.CreateBitCast(v.v, it);
    llvm::Value* lanes = nullptr;
    llvm::Value* pred = nullptr;
    if (l.hooks().is_gpu()) {
      bool wide = it->getIntegerBitWidth() == 64;
      if (!all) {
        lanes = b.CreateIntrinsic(
            wide ? llvm::Intrinsic::nvvm_match_any_sync_i64 : llvm::Intrinsic::nvvm_match_any_sync_i32, {},
            {mask, bits});
      } else {
        llvm::Value* r = b.CreateIntrinsic(
            wide ? llvm::Intrinsic::nvvm_match_all_sync_i64p : llvm::Intrinsic::nvvm_match_all_sync_i32p, {},
            {mask, bits});
        lanes = b.CreateExtractValue(r, {0});
        pred = b.CreateExtractValue(r, {1});
      }
    } else {
      llvm::Value* active = b.CreateAnd(l.hooks().activemask(l), mask);
      lanes = b.getInt32(0);
      for (int j = 0; j < 32; ++j) {
        llvm::Value* other = l.hooks().shfl(l, ShflMode::Idx, active, v.v, b.getInt32(j));
        llvm::Value* same = b.CreateICmpEQ(b.CreateBitCast(other, it), bits);
        llvm::Value* in = b.CreateICmpNE(b.CreateAnd(active, b.getInt32(1u << j)), b.getInt32(0));
        lanes = b.CreateOr(lanes, b.CreateSelect(b.CreateAnd(same, in), b.getInt32(1u << j), b.getInt32(0)));
      }
      if (all) {
        pred = b.CreateICmpEQ(lanes, active);
        lanes = b.CreateSelect(pred, lanes, b.getInt32(0));
      }
    }
    if (!all) return {lanes, ir::uint32()};
    llvm::Value* t = llvm::UndefValue::get(l.llvm_type(inf.type));
    t = b.CreateInsertValue(t, lanes, {0});
    t = b.CreateInsertValue(t, pred, {1});
    return {t, inf.type};
  };
}

IntrinsicFn vote(VoteMode mode) {
  return [mode](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    llvm::Value* mask = mask_arg(l, inf, 0);
    llvm::Value* pred = l.truth(arg(l, inf, 1));
    llvm::Value* r = l.hooks().vote(l, mode, mask, pred);
    return l.convert({r, mode == VoteMode::Ballot ? ir::uint32() : ir::boolean()}, inf.type);
  };
}

}  // namespace

void register_warp(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.syncthreads"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    l.hooks().syncthreads(l);
    llvm::BasicBlock* bb = l.b().GetInsertBlock();
    if (!bb->empty()) tag_line(l, &bb->back(), e);
    return {nullptr, inf.type};
  };
  table["cuda.syncthreads_count"] = barrier_op(BarrierOp::Count);
  table["cuda.syncthreads_and"] = barrier_op(BarrierOp::And);
  table["cuda.syncthreads_or"] = barrier_op(BarrierOp::Or);
  table["cuda.threadfence"] = fence(FenceScope::Device);
  table["cuda.threadfence_block"] = fence(FenceScope::Block);
  table["cuda.threadfence_system"] = fence(FenceScope::System);
  table["cuda.syncwarp"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    l.hooks().syncwarp(l, mask_arg(l, inf, 0));
    return {nullptr, inf.type};
  };
  table["cuda.shfl_sync"] = shfl(ShflMode::Idx);
  table["cuda.match_any_sync"] = match(false);
  table["cuda.match_all_sync"] = match(true);
  table["cuda.shfl_up_sync"] = shfl(ShflMode::Up);
  table["cuda.shfl_down_sync"] = shfl(ShflMode::Down);
  table["cuda.shfl_xor_sync"] = shfl(ShflMode::Xor);
  table["cuda.all_sync"] = vote(VoteMode::All);
  table["cuda.any_sync"] = vote(VoteMode::Any);
  table["cuda.eq_sync"] = vote(VoteMode::Eq);
  table["cuda.ballot_sync"] = vote(VoteMode::Ballot);
  table["cuda.activemask"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    return l.convert({l.hooks().activemask(l), ir::uint32()}, inf.type);
  };
  table["cuda.lanemask_lt"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    return l.convert({l.hooks().lanemask_lt(l), ir::uint32()}, inf.type);
  };
}

}  // namespace cuhost::codegen
