// Cancellation points for GPU kernel deadlines (see nvptx_cancellation.h).
#include "codegen/nvptx_cancellation.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace cuhost::codegen {

namespace {

constexpr unsigned kGlobalAddressSpace = 1;

llvm::GlobalVariable* flag_address_global(llvm::Module& m) {
  if (auto* g = m.getNamedGlobal(kGpuCancelFlagSymbol)) return g;
  llvm::Type* i64 = llvm::Type::getInt64Ty(m.getContext());
  // Weak: a module linking PTX that cuhost compiled under the same option
  // (compile_ptx output, declare_device) holds one definition of it too.
  auto* g = new llvm::GlobalVariable(m, i64, /*isConstant=*/false, llvm::GlobalValue::WeakAnyLinkage,
                                     llvm::ConstantInt::get(i64, 0), kGpuCancelFlagSymbol, nullptr,
                                     llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace,
                                     /*isExternallyInitialized=*/true);
  g->setAlignment(llvm::Align(8));
  return g;
}

// Loops that may run kCancellationInterval iterations or more: a loop whose
// trip count is bounded below that would never reach its check.
std::vector<llvm::Loop*> long_loops(llvm::Function& fn, llvm::DominatorTree& dt, llvm::LoopInfo& loops) {
  llvm::TargetLibraryInfoImpl tli_impl(llvm::Triple(fn.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo tli(tli_impl, &fn);
  llvm::AssumptionCache ac(fn);
  llvm::ScalarEvolution se(fn, tli, ac, dt, loops);
  std::vector<llvm::Loop*> out;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    unsigned max_trips = se.getSmallConstantMaxTripCount(loop);  // 0: unknown
    if (max_trips != 0 && max_trips < kCancellationInterval) continue;
    out.push_back(loop);
  }
  return out;
}

// A loop's countdown to its next check: in the header,
//   n = phi(interval from outside the loop, n.after from the latches)
//   n.dec = n - 1; tick = n.dec == 0
// (a subtract and a compare-and-branch per iteration; a counter that resets
// is not merged into the loop's induction variable by strength reduction).
// Adding it only adds instructions, so the loop structure stays valid for
// the next loop's counter; split_at_tick changes the CFG once all exist.
struct Countdown {
  llvm::PHINode* count;
  llvm::Instruction* dec;
  llvm::Instruction* tick;
};

Countdown add_countdown(llvm::Loop* loop) {
  llvm::BasicBlock* header = loop->getHeader();
  llvm::Type* i32 = llvm::Type::getInt32Ty(header->getContext());
  llvm::SmallVector<llvm::BasicBlock*, 4> preds(llvm::predecessors(header));
  llvm::IRBuilder<> b(header, header->getFirstNonPHIIt());
  Countdown c;
  c.count = b.CreatePHI(i32, unsigned(preds.size()), "cancel.count");
  c.dec = llvm::cast<llvm::Instruction>(b.CreateSub(c.count, b.getInt32(1), "cancel.count.dec"));
  // From the latches: n.dec for now; split_at_tick makes it n.after.
  for (llvm::BasicBlock* pred : preds)
    c.count->addIncoming(loop->contains(pred) ? static_cast<llvm::Value*>(c.dec) : b.getInt32(kCancellationInterval),
                         pred);
  c.tick = llvm::cast<llvm::Instruction>(b.CreateICmpEQ(c.dec, b.getInt32(0), "cancel.tick"));
  return c;
}

// header: ... tick; br tick, check, rest
// check:  addr = load @flag_address; br addr != 0, read, rest
// read:   f = load volatile addr; br f != 0, stop, rest
// stop:   exit (PTX); unreachable
// rest:   n.after = phi(n.dec from header, interval from check and read); the header's other code
void split_at_tick(const Countdown& c, llvm::GlobalVariable* flag_address) {
  llvm::BasicBlock* header = c.tick->getParent();
  llvm::Function& fn = *header->getParent();
  llvm::LLVMContext& ctx = fn.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::BasicBlock* rest = llvm::SplitBlock(header, c.tick->getNextNode());
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "cancel.check", &fn, rest);
  llvm::BasicBlock* read = llvm::BasicBlock::Create(ctx, "cancel.read", &fn, rest);
  llvm::BasicBlock* stop = llvm::BasicBlock::Create(ctx, "cancel.stop", &fn, rest);
  llvm::MDBuilder md(ctx);
  header->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> b(header);
  b.CreateCondBr(c.tick, check, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(check);
  llvm::LoadInst* address = b.CreateAlignedLoad(i64, flag_address, llvm::Align(8), "cancel.flag.address");
  address->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx, {}));
  b.CreateCondBr(b.CreateICmpNE(address, b.getInt64(0)), read, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(read);
  llvm::Value* flag = b.CreateIntToPtr(address, llvm::PointerType::get(ctx, kGlobalAddressSpace));
  // Host-mapped memory: a volatile load reads it again each time (PTX
  // ld.volatile, which is relaxed at system scope), never from a stale cache.
  llvm::Value* raised = b.CreateAlignedLoad(i32, flag, llvm::Align(4), /*isVolatile=*/true, "cancel.flag");
  b.CreateCondBr(b.CreateICmpNE(raised, b.getInt32(0)), stop, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(stop);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_exit, {}, {});
  b.CreateUnreachable();

  b.SetInsertPoint(rest, rest->begin());
  llvm::PHINode* after = b.CreatePHI(i32, 3, "cancel.count.after");
  after->addIncoming(c.dec, header);
  after->addIncoming(b.getInt32(kCancellationInterval), check);
  after->addIncoming(b.getInt32(kCancellationInterval), read);
  for (unsigned i = 0; i < c.count->getNumIncomingValues(); ++i)
    if (c.count->getIncomingValue(i) == c.dec) c.count->setIncomingValue(i, after);
}

}  // namespace

unsigned insert_gpu_cancellation_points(llvm::Module& m) {
  llvm::GlobalVariable* flag_address = nullptr;
  unsigned count = 0;
  for (llvm::Function& fn : m) {
    if (fn.isDeclaration()) continue;
    llvm::DominatorTree dt(fn);
    llvm::LoopInfo loops(dt);
    std::vector<llvm::Loop*> chosen = long_loops(fn, dt, loops);
    if (chosen.empty()) continue;
    if (!flag_address) flag_address = flag_address_global(m);
    std::vector<Countdown> countdowns;
    for (llvm::Loop* loop : chosen) countdowns.push_back(add_countdown(loop));
    for (const Countdown& c : countdowns) split_at_tick(c, flag_address);
    count += unsigned(countdowns.size());
  }
  return count;
}

}  // namespace cuhost::codegen
