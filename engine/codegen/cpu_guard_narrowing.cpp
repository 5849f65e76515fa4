// Guarded loop narrowing (see cpu_guard_narrowing.h). A loop qualifies when
//   - it is innermost, in simplified form, with its latch exiting after a
//     computable trip count, other exits only from guarded blocks, and an
//     induction variable {S,+,1};
//   - its header ends in `br (G < B)` where G = {S2,+,1} does not wrap in the
//     comparison's signedness and B is loop-invariant (or `G >= B` with the
//     successors the other way round), and the guarded successor has the
//     header as its only predecessor;
//   - nothing outside the guarded blocks writes memory or has other effects;
//   - no value computed in the loop is used after it.
// Then the guard holds on a prefix of the iterations, K = min(trip count,
// max(B - S2, 0)) of them, and the others do nothing: the loop runs K
// iterations (none when K is 0) and always takes the guarded path.
#include "codegen/cpu_guard_narrowing.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

namespace cuhost::codegen {
namespace {

// Effects that forbid dropping an iteration (reads are fine).
bool has_effects(const llvm::Instruction& i) {
  if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
    switch (call->getIntrinsicID()) {
      case llvm::Intrinsic::assume:
      case llvm::Intrinsic::experimental_noalias_scope_decl:
      case llvm::Intrinsic::lifetime_start:
      case llvm::Intrinsic::lifetime_end: return false;
      default: break;
    }
  }
  return i.mayHaveSideEffects();
}

struct Guard {
  llvm::BranchInst* branch = nullptr;
  unsigned body = 0;  // successor index taken while the guard holds
  const llvm::SCEVAddRecExpr* rec = nullptr;
  const llvm::SCEV* bound = nullptr;
  bool is_signed = false;
};

// The header's guard `G < B` (see the file comment), if it has one.
bool find_guard(llvm::Loop& loop, llvm::ScalarEvolution& se, Guard* g) {
  auto* br = llvm::dyn_cast<llvm::BranchInst>(loop.getHeader()->getTerminator());
  if (!br || !br->isConditional()) return false;
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(br->getCondition());
  if (!cmp || !se.isSCEVable(cmp->getOperand(0)->getType())) return false;
  llvm::ICmpInst::Predicate pred = cmp->getPredicate();
  const llvm::SCEV* lhs = se.getSCEV(cmp->getOperand(0));
  const llvm::SCEV* rhs = se.getSCEV(cmp->getOperand(1));
  if (!llvm::isa<llvm::SCEVAddRecExpr>(lhs)) {
    std::swap(lhs, rhs);
    pred = llvm::ICmpInst::getSwappedPredicate(pred);
  }
  auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(lhs);
  if (!rec || rec->getLoop() != &loop || !rec->isAffine() || !se.isLoopInvariant(rhs, &loop)) return false;
  if (!rec->getStepRecurrence(se)->isOne()) return false;
  switch (pred) {
    case llvm::ICmpInst::ICMP_ULT: g->body = 0; break;
    case llvm::ICmpInst::ICMP_SLT: g->body = 0; break;
    case llvm::ICmpInst::ICMP_UGE: g->body = 1; break;
    case llvm::ICmpInst::ICMP_SGE: g->body = 1; break;
    default: return false;
  }
  g->is_signed = llvm::ICmpInst::isSigned(pred);
  if (!rec->getNoWrapFlags(g->is_signed ? llvm::SCEV::FlagNSW : llvm::SCEV::FlagNUW)) return false;
  g->branch = br;
  g->rec = rec;
  g->bound = rhs;
  return true;
}

bool narrow(llvm::Loop& loop, llvm::ScalarEvolution& se, llvm::DominatorTree& dt, llvm::LoopInfo& li) {
  if (!loop.isInnermost() || !loop.isLoopSimplifyForm()) return false;
  llvm::BasicBlock* header = loop.getHeader();
  llvm::BasicBlock* latch = loop.getLoopLatch();
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  if (!latch || !preheader) return false;
  auto* latch_br = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
  if (!latch_br || !latch_br->isConditional()) return false;
  llvm::BasicBlock* exit = latch_br->getSuccessor(latch_br->getSuccessor(0) == header ? 1 : 0);
  if (loop.contains(exit)) return false;
  Guard g;
  if (!find_guard(loop, se, &g)) return false;
  llvm::BasicBlock* body = g.branch->getSuccessor(g.body);
  if (body == header || !loop.contains(body) || body->getSinglePredecessor() != header ||
      g.branch->getSuccessor(1 - g.body) == body)
    return false;
  // Other exits (a thread that reported an error ends the block) only from
  // guarded iterations, which run as before.
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock* bb : exiting)
    if (bb != latch && !dt.dominates(body, bb)) return false;
  // Only the guarded blocks may have effects.
  for (llvm::BasicBlock* bb : loop.blocks()) {
    if (dt.dominates(body, bb)) continue;
    for (const llvm::Instruction& i : *bb)
      if (has_effects(i)) return false;
  }
  // Nothing computed in the loop lives after it.
  for (llvm::PHINode& phi : exit->phis())
    for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k)
      if (auto* v = llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValue(k)); v && loop.contains(v)) return false;
  // The induction variable the new exit test counts.
  const llvm::SCEV* taken = se.getExitCount(&loop, latch);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(taken) || taken->getType() != g.rec->getType()) return false;
  llvm::PHINode* iv = nullptr;
  const llvm::SCEVAddRecExpr* iv_rec = nullptr;
  for (llvm::PHINode& phi : header->phis()) {
    if (phi.getType() != g.rec->getType() || !se.isSCEVable(phi.getType())) continue;
    auto* r = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(&phi));
    if (r && r->getLoop() == &loop && r->isAffine() && r->getStepRecurrence(se)->isOne()) {
      iv = &phi;
      iv_rec = r;
      break;
    }
  }
  if (!iv) return false;
  llvm::Value* iv_next = iv->getIncomingValueForBlock(latch);

  // K = min(trip count, max(B, S2) - S2) iterations keep the guard.
  llvm::Type* ty = g.rec->getType();
  const llvm::SCEV* trips = se.getAddExpr(taken, se.getOne(ty));
  const llvm::SCEV* start = g.rec->getStart();
  const llvm::SCEV* top = g.is_signed ? se.getSMaxExpr(g.bound, start) : se.getUMaxExpr(g.bound, start);
  const llvm::SCEV* kept = se.getUMinExpr(trips, se.getMinusSCEV(top, start));
  const llvm::SCEV* end = se.getAddExpr(iv_rec->getStart(), kept);
  if (!se.isSCEVable(iv_next->getType())) return false;

  // A dedicated exit block for the loop, so that the preheader can go
  // round the loop to the old one.
  llvm::LLVMContext& c = header->getContext();
  llvm::BasicBlock* loop_exit = llvm::BasicBlock::Create(c, "narrow.exit", header->getParent(), exit);
  llvm::BranchInst::Create(exit, loop_exit);
  for (llvm::PHINode& phi : exit->phis()) phi.replaceIncomingBlockWith(latch, loop_exit);
  if (llvm::Loop* parent = loop.getParentLoop()) parent->addBasicBlockToLoop(loop_exit, li);
  llvm::SCEVExpander expander(se, preheader->getModule()->getDataLayout(), "narrow");
  llvm::Instruction* at = preheader->getTerminator();
  llvm::Value* count = expander.expandCodeFor(kept, ty, at);
  llvm::Value* end_value = expander.expandCodeFor(end, ty, at);
  // The old preheader skips the loop when no iteration keeps the guard; a
  // new one keeps the loop in simplified form.
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(c, "narrow.ph", header->getParent(), header);
  llvm::BranchInst::Create(header, entry);
  for (llvm::PHINode& phi : header->phis()) phi.replaceIncomingBlockWith(preheader, entry);
  if (llvm::Loop* parent = loop.getParentLoop()) parent->addBasicBlockToLoop(entry, li);
  llvm::IRBuilder<> b(at);
  llvm::Value* none = b.CreateICmpEQ(count, llvm::ConstantInt::get(ty, 0), "narrow.none");
  b.CreateCondBr(none, exit, entry);
  at->eraseFromParent();
  for (llvm::PHINode& phi : exit->phis()) phi.addIncoming(phi.getIncomingValueForBlock(loop_exit), preheader);

  llvm::Instruction* old_exit_test = llvm::dyn_cast<llvm::Instruction>(latch_br->getCondition());
  b.SetInsertPoint(latch_br);
  llvm::Value* more = b.CreateICmpNE(iv_next, end_value, "narrow.more");
  b.CreateCondBr(more, header, loop_exit);
  latch_br->eraseFromParent();
  if (old_exit_test) llvm::RecursivelyDeleteTriviallyDeadInstructions(old_exit_test);

  llvm::Instruction* old_guard = llvm::dyn_cast<llvm::Instruction>(g.branch->getCondition());
  g.branch->setCondition(llvm::ConstantInt::getBool(c, g.body == 0));
  if (old_guard) llvm::RecursivelyDeleteTriviallyDeadInstructions(old_guard);
  dt.recalculate(*header->getParent());
  return true;
}

}  // namespace

llvm::PreservedAnalyses GuardNarrowingPass::run(llvm::Loop& loop, llvm::LoopAnalysisManager&,
                                                llvm::LoopStandardAnalysisResults& ar, llvm::LPMUpdater&) {
  if (!narrow(loop, ar.SE, ar.DT, ar.LI)) return llvm::PreservedAnalyses::all();
  ar.SE.forgetTopmostLoop(&loop);
  return llvm::getLoopPassPreservedAnalyses();
}

}  // namespace cuhost::codegen
