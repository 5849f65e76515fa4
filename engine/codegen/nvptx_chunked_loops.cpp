// Cancellation points of counted loops (see nvptx_chunked_loops.h).
#include "codegen/nvptx_chunked_loops.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_flag_check.h"

namespace cuhost::codegen {

namespace {

using Pred = llvm::CmpInst::Predicate;

// `v` as the loop's induction variable: the header phi `iv` whose value from
// the latch is iv + step, read either as iv or as iv + step.
bool read_induction(llvm::Loop* loop, llvm::Value* v, llvm::PHINode** iv, llvm::Value** step) {
  auto as_increment = [&](llvm::Value* x, llvm::PHINode* phi) -> llvm::Value* {
    auto* add = llvm::dyn_cast<llvm::BinaryOperator>(x);
    if (!add || add->getOpcode() != llvm::Instruction::Add) return nullptr;
    llvm::Value* other = add->getOperand(0) == phi   ? add->getOperand(1)
                         : add->getOperand(1) == phi ? add->getOperand(0)
                                                     : nullptr;
    return other && loop->isLoopInvariant(other) ? other : nullptr;
  };
  llvm::BasicBlock* latch = loop->getLoopLatch();
  auto try_phi = [&](llvm::PHINode* phi) {
    if (!phi || phi->getParent() != loop->getHeader() || phi->getNumIncomingValues() != 2) return false;
    llvm::Value* next = phi->getIncomingValueForBlock(latch);
    if (!next || (v != phi && v != next)) return false;
    llvm::Value* s = as_increment(next, phi);
    if (!s) return false;
    *iv = phi;
    *step = s;
    return true;
  };
  if (try_phi(llvm::dyn_cast<llvm::PHINode>(v))) return true;
  if (auto* add = llvm::dyn_cast<llvm::BinaryOperator>(v); add && add->getOpcode() == llvm::Instruction::Add)
    for (llvm::Value* op : add->operands())
      if (try_phi(llvm::dyn_cast<llvm::PHINode>(op))) return true;
  return false;
}

llvm::Value* intrinsic(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y) {
  return b.CreateBinaryIntrinsic(id, x, y);
}

}  // namespace

std::optional<ChunkPlan> plan_chunks(llvm::Loop* loop, llvm::ScalarEvolution& se) {
  ChunkPlan p;
  // The one block outside the loop that enters it (a preheader, or a block
  // that branches elsewhere too: what it computes for the chunks is pure).
  p.preheader = loop->getLoopPredecessor();
  p.header = loop->getHeader();
  p.latch = loop->getLoopLatch();
  if (!p.preheader || !p.latch) return std::nullopt;
  p.branch = llvm::dyn_cast<llvm::BranchInst>(p.latch->getTerminator());
  if (!p.branch || !p.branch->isConditional()) return std::nullopt;
  auto* test = llvm::dyn_cast<llvm::ICmpInst>(p.branch->getCondition());
  if (!test) return std::nullopt;
  Pred pred = test->getPredicate();
  if (p.branch->getSuccessor(0) == p.header && !loop->contains(p.branch->getSuccessor(1))) {
  } else if (p.branch->getSuccessor(1) == p.header && !loop->contains(p.branch->getSuccessor(0))) {
    pred = llvm::CmpInst::getInversePredicate(pred);
  } else {
    return std::nullopt;
  }
  llvm::Value* lhs = test->getOperand(0);
  llvm::Value* rhs = test->getOperand(1);
  if (!loop->isLoopInvariant(rhs)) {
    std::swap(lhs, rhs);
    pred = llvm::CmpInst::getSwappedPredicate(pred);
  }
  if (!loop->isLoopInvariant(rhs) || !read_induction(loop, lhs, &p.iv, &p.step)) return std::nullopt;
  p.compared = lhs;
  p.bound = rhs;
  p.predicate = pred;
  const llvm::SCEV* step = se.getSCEV(p.step);
  switch (pred) {
    case Pred::ICMP_SLT:
    case Pred::ICMP_ULT:
    case Pred::ICMP_SLE:
    case Pred::ICMP_ULE:
      if (!se.isKnownPositive(step)) return std::nullopt;
      p.kind = ChunkPlan::Kind::Below;
      break;
    case Pred::ICMP_SGT:
    case Pred::ICMP_UGT:
    case Pred::ICMP_SGE:
    case Pred::ICMP_UGE:
      if (!se.isKnownNegative(step)) return std::nullopt;
      // Unsigned tests against a negative step count down through zero:
      // the span below must not wrap. Left to the countdown.
      if (llvm::CmpInst::isUnsigned(pred)) return std::nullopt;
      p.kind = ChunkPlan::Kind::Above;
      break;
    case Pred::ICMP_NE: {
      // A constant step whose chunk (step * interval) fits the type.
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(p.step);
      if (!c || c->isZero()) return std::nullopt;
      unsigned width = c->getType()->getIntegerBitWidth();
      if (c->getValue().abs().getActiveBits() + 11 >= width) return std::nullopt;
      p.kind = ChunkPlan::Kind::NotEqual;
      break;
    }
    default: return std::nullopt;
  }
  return p;
}

// Below/Above: the bound, or `first` moved by `span` (saturating) when that
// comes first; any end on the loop's side of the bound keeps the loop's
// iterations. NotEqual (step +-1): the end must be met exactly, so it is the
// bound when the bound is within `span` of `first`, else first +- span.
llvm::Value* chunk_end(llvm::IRBuilder<>& b, const ChunkPlan& p, llvm::Value* first, llvm::Value* span) {
  bool is_signed = llvm::CmpInst::isSigned(static_cast<Pred>(p.predicate));
  switch (p.kind) {
    case ChunkPlan::Kind::Below: {
      llvm::Value* moved = intrinsic(b, is_signed ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::uadd_sat, first, span);
      return intrinsic(b, is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, p.bound, moved);
    }
    case ChunkPlan::Kind::Above: {
      llvm::Value* moved = intrinsic(b, is_signed ? llvm::Intrinsic::ssub_sat : llvm::Intrinsic::usub_sat, first, span);
      return intrinsic(b, is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, p.bound, moved);
    }
    case ChunkPlan::Kind::NotEqual: {
      const llvm::APInt& step = llvm::cast<llvm::ConstantInt>(p.step)->getValue();
      bool up = step.isStrictlyPositive();
      llvm::Value* left = up ? b.CreateSub(p.bound, first) : b.CreateSub(first, p.bound);
      llvm::Value* moved = up ? b.CreateAdd(first, span) : b.CreateSub(first, span);
      // The bound is met when it lies a whole number of steps away (else the
      // loop runs until it wraps, and every chunk end is met instead).
      llvm::Value* whole = b.CreateICmpEQ(b.CreateURem(left, llvm::ConstantInt::get(left->getType(), step.abs())),
                                          llvm::ConstantInt::get(left->getType(), 0));
      return b.CreateSelect(b.CreateAnd(b.CreateICmpULE(left, span), whole), p.bound, moved);
    }
  }
  return p.bound;
}

llvm::Value* chunk_span(llvm::IRBuilder<>& b, const ChunkPlan& p, uint64_t iterations) {
  llvm::Type* type = p.compared->getType();
  if (p.kind == ChunkPlan::Kind::NotEqual)
    return llvm::ConstantInt::get(type, llvm::cast<llvm::ConstantInt>(p.step)->getValue().abs() * iterations);
  unsigned width = type->getIntegerBitWidth();
  llvm::Value* magnitude = p.kind == ChunkPlan::Kind::Above ? b.CreateNeg(p.step) : p.step;
  llvm::Value* count = llvm::ConstantInt::get(type, iterations);
  llvm::APInt most = llvm::CmpInst::isSigned(static_cast<Pred>(p.predicate)) ? llvm::APInt::getSignedMaxValue(width)
                                                                             : llvm::APInt::getMaxValue(width);
  llvm::Value* too_long = b.CreateICmpUGT(magnitude, llvm::ConstantInt::get(type, most.udiv(iterations)));
  return b.CreateSelect(too_long, llvm::ConstantInt::get(type, most), b.CreateMul(magnitude, count));
}

llvm::Value* first_tested(llvm::IRBuilder<>& b, const ChunkPlan& p) {
  llvm::Value* start = p.iv->getIncomingValueForBlock(p.preheader);
  return p.compared == p.iv ? start : b.CreateAdd(start, p.step);
}

void chunk_loop(const ChunkPlan& p, llvm::GlobalVariable* flag_address) {
  llvm::Function& fn = *p.header->getParent();
  llvm::LLVMContext& ctx = fn.getContext();
  llvm::Type* type = p.compared->getType();

  // The chunk's length in the units of the tested value: |step| * interval,
  // saturating (a step that large means fewer iterations than one chunk).
  llvm::IRBuilder<> b(p.preheader->getTerminator());
  llvm::Value* span = chunk_span(b, p, kCancellationInterval);
  llvm::Value* first = first_tested(b, p);
  llvm::Value* end0 = chunk_end(b, p, first, span);

  // header: end = phi(end0 from the preheader, end from the latch, the
  //         next chunk's end from next)
  // latch:  ...; br predicate(compared, end), header, refill
  // refill: br predicate(compared, bound), check, exit   (the loop's own test)
  // check:  (check_flag) -> next
  // next:   end.next = the next chunk's end; br header
  // Iterations inside a chunk run the loop's own instructions, with the
  // chunk's end in place of the bound.
  llvm::IRBuilder<> hb(p.header, p.header->getFirstNonPHIIt());
  llvm::PHINode* end = hb.CreatePHI(type, 3, "cancel.chunk.end");
  end->addIncoming(end0, p.preheader);
  end->addIncoming(end, p.latch);

  llvm::BasicBlock* exit =
      p.branch->getSuccessor(0) == p.header ? p.branch->getSuccessor(1) : p.branch->getSuccessor(0);
  llvm::BasicBlock* refill = llvm::BasicBlock::Create(ctx, "cancel.chunk.refill", &fn, exit);
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "cancel.chunk.check", &fn, exit);
  llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx, "cancel.chunk.next", &fn, exit);
  llvm::IRBuilder<> lb(p.branch);
  auto pred = static_cast<Pred>(p.predicate);
  llvm::Value* inside = lb.CreateICmp(pred, p.compared, end, "cancel.chunk.inside");
  llvm::BranchInst* inner = lb.CreateCondBr(inside, p.header, refill);
  inner->copyMetadata(*p.branch, {llvm::LLVMContext::MD_loop});
  p.branch->eraseFromParent();

  llvm::IRBuilder<> rb(refill);
  rb.CreateCondBr(rb.CreateICmp(pred, p.compared, p.bound, "cancel.chunk.continue"), check, exit);
  rb.SetInsertPoint(check);
  check_flag(rb, flag_address, next);
  rb.SetInsertPoint(next);
  llvm::Value* following = rb.CreateAdd(p.compared, p.step);
  llvm::Value* end_next = chunk_end(rb, p, p.kind == ChunkPlan::Kind::NotEqual ? following : p.compared, span);
  rb.CreateBr(p.header);

  // Phis: the exit is now reached from refill; the header also from next.
  for (llvm::PHINode& phi : exit->phis())
    for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i)
      if (phi.getIncomingBlock(i) == p.latch) phi.setIncomingBlock(i, refill);
  for (llvm::PHINode& phi : p.header->phis()) {
    if (&phi == end) continue;
    phi.addIncoming(phi.getIncomingValueForBlock(p.latch), next);
  }
  end->addIncoming(end_next, next);
}

}  // namespace cuhost::codegen
