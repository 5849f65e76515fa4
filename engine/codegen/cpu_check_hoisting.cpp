// Bounds-check removal and hoisting (see cpu_check_hoisting.h).
//
// A check is recognized by its failure successor, a block calling the
// runtime's index-error report (cpu_hooks.cpp). The in-bounds condition is
// the branch's integer compare read towards the other successor.
//
// Hoisting a loop's checks: for an index X = {start,+,c} (c a constant) of
// the loop and an extent Y invariant in it, the compare `X pred Y` holds in
// every iteration 0..T (T an upper bound of the backedges taken) when X does
// not wrap over them, in pred's signedness, and it holds where X is largest
// (pred <, <=) or smallest (pred >, >=): X at 0 or at T. Both are computed
// before the loop, with overflow-checked arithmetic. The loop is then
// versioned: the copy that runs when every check holds has them replaced by
// their constant outcome; the original keeps them all, marked so that the
// pipeline's later runs of this pass leave them alone.
#include "codegen/cpu_check_hoisting.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <vector>

namespace cuhost::codegen {
namespace {

constexpr const char* kIndexErrorReport = "cuhost_cpu_index_error";
// Versioning doubles a loop: bound the code it may add.
constexpr unsigned kMaxLoopInstructions = 2000;
constexpr int kMaxVersionedLoops = 32;

bool reports_index_error(const llvm::BasicBlock* bb) {
  for (const llvm::Instruction& i : *bb)
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
      if (const llvm::Function* f = call->getCalledFunction(); f && f->getName() == kIndexErrorReport) return true;
  return false;
}

struct Check {
  llvm::BranchInst* branch = nullptr;
  unsigned ok = 0;  // the successor taken while in bounds
  llvm::ICmpInst* cmp = nullptr;

  // The predicate that holds in bounds, of (cmp operand 0, cmp operand 1).
  llvm::ICmpInst::Predicate in_bounds() const { return ok == 0 ? cmp->getPredicate() : cmp->getInversePredicate(); }
};

// Marks the checks of a loop's checking version: the pipeline runs this
// pass more than once on a function, and they must not be versioned again.
constexpr const char* kKeptCheck = "cuhost.check.kept";

std::optional<Check> check_at(llvm::BasicBlock& bb) {
  auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
  if (!br || !br->isConditional() || br->getMetadata(kKeptCheck)) return std::nullopt;
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(br->getCondition());
  if (!cmp || !cmp->getOperand(0)->getType()->isIntegerTy()) return std::nullopt;
  bool fails0 = reports_index_error(br->getSuccessor(0));
  bool fails1 = reports_index_error(br->getSuccessor(1));
  if (fails0 == fails1) return std::nullopt;
  return Check{br, fails0 ? 1u : 0u, cmp};
}

// The branch always takes its in-bounds successor (the dead report goes
// with the next CFG simplification).
void settle(llvm::BranchInst* br, unsigned ok) {
  br->setCondition(llvm::ConstantInt::getBool(br->getContext(), ok == 0));
}

// Non-negative by construction: sums and products without signed wrap of
// non-negative terms (a global thread index, zero-extended parts) count;
// ScalarEvolution's own ranges leave them out when a product of two
// zero-extended 32-bit values could reach the sign bit.
bool known_nonnegative(const llvm::SCEV* s, llvm::ScalarEvolution& se, int depth = 0) {
  if (se.isKnownNonNegative(s)) return true;
  if (depth > 8) return false;
  if (llvm::isa<llvm::SCEVZeroExtendExpr>(s)) return true;
  auto* nary = llvm::dyn_cast<llvm::SCEVNAryExpr>(s);
  if (!nary) return false;
  bool all = true;
  for (const llvm::SCEV* op : nary->operands()) all = all && known_nonnegative(op, se, depth + 1);
  switch (s->getSCEVType()) {
    case llvm::scAddExpr:
    case llvm::scMulExpr:
    case llvm::scAddRecExpr: return all && nary->hasNoSignedWrap();
    case llvm::scSMaxExpr:
    case llvm::scUMinExpr:
    case llvm::scSMinExpr: return all;
    default: return false;
  }
}

// Whether conditions dominating the check imply it, directly or as `i < n`
// (signed) with i known non-negative, which a guard `if i < n` gives.
bool implied_by_guards(const Check& c, llvm::ScalarEvolution& se) {
  using P = llvm::ICmpInst::Predicate;
  P pred = c.in_bounds();
  const llvm::SCEV* a = se.getSCEV(c.cmp->getOperand(0));
  const llvm::SCEV* b = se.getSCEV(c.cmp->getOperand(1));
  llvm::BasicBlock* bb = c.branch->getParent();
  if (se.isBasicBlockEntryGuardedByCond(bb, pred, a, b)) return true;
  bool below = pred == P::ICMP_ULT || pred == P::ICMP_ULE;
  bool above = pred == P::ICMP_UGT || pred == P::ICMP_UGE;
  if ((below && known_nonnegative(a, se)) || (above && known_nonnegative(b, se)))
    return se.isBasicBlockEntryGuardedByCond(bb, llvm::ICmpInst::getSignedPredicate(pred), a, b);
  return false;
}

// One check's condition for all of a loop's iterations, as SCEVs to expand
// before the loop.
struct RangeTest {
  Check check;
  llvm::ICmpInst::Predicate pred;    // of (x, y)
  const llvm::SCEV* x = nullptr;     // invariant, or the affine index
  const llvm::SCEV* y = nullptr;     // invariant
  const llvm::SCEV* step = nullptr;  // null: x is invariant
};

// Orders, and `!=` (LLVM turns `i <= 255` into `i != 256` when it knows i
// counts up by one from below): it holds everywhere when the extent lies
// outside the index's range.
bool is_testable_predicate(llvm::ICmpInst::Predicate p) { return p != llvm::ICmpInst::ICMP_EQ; }

std::optional<RangeTest> range_test(const Check& c, llvm::Loop& loop, llvm::ScalarEvolution& se) {
  llvm::ICmpInst::Predicate pred = c.in_bounds();
  if (!is_testable_predicate(pred)) return std::nullopt;
  const llvm::SCEV* a = se.getSCEV(c.cmp->getOperand(0));
  const llvm::SCEV* b = se.getSCEV(c.cmp->getOperand(1));
  if (se.isLoopInvariant(a, &loop) && se.isLoopInvariant(b, &loop)) return RangeTest{c, pred, a, b, nullptr};
  if (!se.isLoopInvariant(b, &loop)) {
    std::swap(a, b);
    pred = llvm::ICmpInst::getSwappedPredicate(pred);
  }
  auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(a);
  if (!rec || rec->getLoop() != &loop || !rec->isAffine() || !se.isLoopInvariant(b, &loop)) return std::nullopt;
  auto* step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se));
  if (!step || step->getValue()->isZero()) return std::nullopt;
  return RangeTest{c, pred, rec->getStart(), b, step};
}

// Loops whose copy could behave differently: calls that must not be
// duplicated, or runtime calls other than the error reports.
bool can_version(llvm::Loop& loop) {
  unsigned size = 0;
  for (llvm::BasicBlock* bb : loop.blocks()) {
    if (!llvm::isa<llvm::BranchInst, llvm::SwitchInst, llvm::ReturnInst, llvm::UnreachableInst>(bb->getTerminator()))
      return false;
    for (llvm::Instruction& i : *bb) {
      if (++size > kMaxLoopInstructions) return false;
      auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
      if (!call) continue;
      if (call->cannotDuplicate() || call->isConvergent()) return false;
      if (const llvm::Function* f = call->getCalledFunction()) {
        llvm::StringRef n = f->getName();
        if (n.starts_with("cuhost_cpu_") && n != kIndexErrorReport && n != "cuhost_cpu_kernel_error") return false;
      }
    }
  }
  return true;
}

// `x pred y` for every iteration 0..taken, emitted at b's point (see the
// file comment).
llvm::Value* emit_range_condition(llvm::IRBuilder<>& b, const RangeTest& t, llvm::Value* x, llvm::Value* y,
                                  llvm::Value* taken) {
  if (!t.step) return b.CreateICmp(t.pred, x, y);
  const llvm::APInt& c = llvm::cast<llvm::SCEVConstant>(t.step)->getAPInt();
  bool is_signed = llvm::ICmpInst::isSigned(t.pred);
  bool increasing = c.isStrictlyPositive();
  llvm::Type* ty = x->getType();
  using I = llvm::Intrinsic::ID;
  auto with_overflow = [&](I id, llvm::Value* l, llvm::Value* r, llvm::Value** overflow) {
    llvm::Value* pair = b.CreateBinaryIntrinsic(id, l, r);
    *overflow = b.CreateExtractValue(pair, {1});
    return b.CreateExtractValue(pair, {0});
  };
  llvm::Value* ov_mul = nullptr;
  llvm::Value* distance =
      with_overflow(llvm::Intrinsic::umul_with_overflow, taken, llvm::ConstantInt::get(ty, c.abs()), &ov_mul);
  llvm::Value* wraps = ov_mul;
  if (is_signed) wraps = b.CreateOr(wraps, b.CreateICmpSLT(distance, llvm::ConstantInt::get(ty, 0)));
  I id = increasing ? (is_signed ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::uadd_with_overflow)
                    : (is_signed ? llvm::Intrinsic::ssub_with_overflow : llvm::Intrinsic::usub_with_overflow);
  llvm::Value* ov_last = nullptr;
  llvm::Value* last = with_overflow(id, x, distance, &ov_last);
  wraps = b.CreateOr(wraps, ov_last);
  llvm::Value* low = increasing ? x : last;
  llvm::Value* high = increasing ? last : x;
  bool upper = t.pred == llvm::ICmpInst::ICMP_ULT || t.pred == llvm::ICmpInst::ICMP_ULE ||
               t.pred == llvm::ICmpInst::ICMP_SLT || t.pred == llvm::ICmpInst::ICMP_SLE;
  llvm::Value* holds = t.pred == llvm::ICmpInst::ICMP_NE ? b.CreateOr(b.CreateICmpULT(y, low), b.CreateICmpUGT(y, high))
                                                         : b.CreateICmp(t.pred, upper ? high : low, y);
  return b.CreateAnd(holds, b.CreateNot(wraps));
}

class Hoister {
 public:
  Hoister(llvm::Function& f, llvm::FunctionAnalysisManager& am) : f_(f), am_(am) {}

  bool run() {
    bool changed = settle_implied();
    if (changed) am_.invalidate(f_, llvm::PreservedAnalyses::none());
    // Innermost loops only: their copies are the ones the vectorizer takes.
    std::vector<llvm::BasicBlock*> headers;
    {
      auto& li = am_.getResult<llvm::LoopAnalysis>(f_);
      for (llvm::Loop* l : li.getLoopsInPreorder()) headers.push_back(l->getHeader());
    }
    int versioned = 0;
    for (auto it = headers.rbegin(); it != headers.rend() && versioned < kMaxVersionedLoops; ++it) {
      if (!version(*it)) continue;
      ++versioned;
      changed = true;
      am_.invalidate(f_, llvm::PreservedAnalyses::none());
    }
    return changed;
  }

 private:
  bool settle_implied() {
    auto& se = am_.getResult<llvm::ScalarEvolutionAnalysis>(f_);
    std::vector<Check> implied;
    for (llvm::BasicBlock& bb : f_)
      if (auto c = check_at(bb); c && se.isSCEVable(c->cmp->getOperand(0)->getType()) && implied_by_guards(*c, se))
        implied.push_back(*c);
    for (const Check& c : implied) settle(c.branch, c.ok);
    return !implied.empty();
  }

  bool version(llvm::BasicBlock* header) {
    auto& li = am_.getResult<llvm::LoopAnalysis>(f_);
    auto& dt = am_.getResult<llvm::DominatorTreeAnalysis>(f_);
    auto& se = am_.getResult<llvm::ScalarEvolutionAnalysis>(f_);
    llvm::Loop* loop = li.getLoopFor(header);
    if (!loop || loop->getHeader() != header || !loop->isInnermost() || !loop->isLoopSimplifyForm() ||
        !can_version(*loop))
      return false;
    llvm::BasicBlock* pre = loop->getLoopPreheader();
    const llvm::SCEV* taken = se.getSymbolicMaxBackedgeTakenCount(loop);
    bool counted = !llvm::isa<llvm::SCEVCouldNotCompute>(taken);
    llvm::SCEVExpander expander(se, f_.getParent()->getDataLayout(), "check.range");
    llvm::Instruction* at = pre->getTerminator();
    std::vector<RangeTest> tests;
    for (llvm::BasicBlock* bb : loop->blocks()) {
      auto c = check_at(*bb);
      if (!c || !se.isSCEVable(c->cmp->getOperand(0)->getType())) continue;
      auto t = range_test(*c, *loop, se);
      if (!t || !expander.isSafeToExpandAt(t->x, at) || !expander.isSafeToExpandAt(t->y, at)) continue;
      if (t->step && (!counted || se.getTypeSizeInBits(taken->getType()) > se.getTypeSizeInBits(t->x->getType()) ||
                      !expander.isSafeToExpandAt(taken, at)))
        continue;
      tests.push_back(*t);
    }
    if (tests.empty()) return false;

    // Values of the loop used after it go through exit-block phis, which
    // receive the copy's values too.
    llvm::formLCSSARecursively(*loop, dt, &li, &se);
    pre = loop->getLoopPreheader();
    llvm::BasicBlock* checked_pre = llvm::SplitBlock(pre, pre->getTerminator(), &dt, &li, nullptr, "checked.ph");
    llvm::ValueToValueMapTy vmap;
    llvm::SmallVector<llvm::BasicBlock*, 32> copy_blocks;
    llvm::Loop* copy = llvm::cloneLoopWithPreheader(checked_pre, pre, loop, vmap, ".unchecked", &li, &dt, copy_blocks);
    llvm::remapInstructionsInBlocks(copy_blocks, vmap);
    llvm::SmallVector<llvm::BasicBlock*, 4> exits;
    loop->getUniqueExitBlocks(exits);
    auto mapped = [&](llvm::Value* v) {
      auto found = vmap.find(v);
      return found == vmap.end() ? v : static_cast<llvm::Value*>(found->second);
    };
    for (llvm::BasicBlock* exit : exits)
      for (llvm::PHINode& phi : exit->phis())
        for (unsigned k = 0, n = phi.getNumIncomingValues(); k < n; ++k)
          if (loop->contains(phi.getIncomingBlock(k)))
            phi.addIncoming(mapped(phi.getIncomingValue(k)),
                            llvm::cast<llvm::BasicBlock>(mapped(phi.getIncomingBlock(k))));

    // The dispatch: every hoisted check holds for the whole range.
    at = pre->getTerminator();
    llvm::IRBuilder<> b(at);
    llvm::Value* all = b.getTrue();
    for (const RangeTest& t : tests) {
      llvm::Value* x = expander.expandCodeFor(t.x, t.x->getType(), at);
      llvm::Value* y = expander.expandCodeFor(t.y, t.y->getType(), at);
      llvm::Value* n = nullptr;
      if (t.step) n = b.CreateZExtOrTrunc(expander.expandCodeFor(taken, taken->getType(), at), x->getType());
      b.SetInsertPoint(at);
      all = b.CreateAnd(all, emit_range_condition(b, t, x, y, n));
      settle(llvm::cast<llvm::BranchInst>(mapped(t.check.branch)), t.check.ok);
      t.check.branch->setMetadata(kKeptCheck, llvm::MDNode::get(f_.getContext(), {}));
    }
    llvm::BranchInst::Create(copy->getLoopPreheader(), checked_pre, all, pre);
    at->eraseFromParent();
    dt.recalculate(f_);
    llvm::formDedicatedExitBlocks(loop, &dt, &li, nullptr, true);
    llvm::formDedicatedExitBlocks(copy, &dt, &li, nullptr, true);
    return true;
  }

  llvm::Function& f_;
  llvm::FunctionAnalysisManager& am_;
};

}  // namespace

llvm::PreservedAnalyses CheckHoistingPass::run(llvm::Function& f, llvm::FunctionAnalysisManager& am) {
  // Block entries only (module.cpp, cpu_fission_entry.cpp): the kernel body
  // they inline is simplified first, and copies of its loops there would be
  // inlined again; the thread entry runs only kernels on fibers, whose
  // loops around barriers cannot be copied.
  if (f.isDeclaration() || !f.getName().ends_with(".cpu.block") || !Hoister(f, am).run())
    return llvm::PreservedAnalyses::all();
  return llvm::PreservedAnalyses::none();
}

}  // namespace cuhost::codegen
