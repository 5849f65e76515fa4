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

// header: phis | n = phi(0 from outside, n.next from the latches)
//                n.next = n + 1; tick = n.next % interval == 0
// Only adds instructions, so the loop structure stays valid for the next
// loop's counter (split_at_tick changes the CFG once all counters exist).
llvm::Instruction* add_counter(llvm::Loop* loop) {
  llvm::BasicBlock* header = loop->getHeader();
  llvm::Type* i32 = llvm::Type::getInt32Ty(header->getContext());
  llvm::SmallVector<llvm::BasicBlock*, 4> preds(llvm::predecessors(header));
  llvm::IRBuilder<> b(header, header->getFirstNonPHIIt());
  llvm::PHINode* count = b.CreatePHI(i32, unsigned(preds.size()), "cancel.count");
  llvm::Value* next = b.CreateAdd(count, b.getInt32(1), "cancel.count.next");
  for (llvm::BasicBlock* pred : preds) count->addIncoming(loop->contains(pred) ? next : b.getInt32(0), pred);
  return llvm::cast<llvm::Instruction>(
      b.CreateICmpEQ(b.CreateAnd(next, b.getInt32(kCancellationInterval - 1)), b.getInt32(0), "cancel.tick"));
}

// header: ... tick; br tick, check, rest
// check:  addr = load @flag_address; f = load volatile addr; br addr && f, stop, rest
// stop:   exit (PTX); unreachable
void split_at_tick(llvm::Instruction* tick, llvm::GlobalVariable* flag_address) {
  llvm::BasicBlock* header = tick->getParent();
  llvm::Function& fn = *header->getParent();
  llvm::LLVMContext& ctx = fn.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::BasicBlock* rest = llvm::SplitBlock(header, tick->getNextNode());
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "cancel.check", &fn, rest);
  llvm::BasicBlock* stop = llvm::BasicBlock::Create(ctx, "cancel.stop", &fn, rest);
  llvm::MDBuilder md(ctx);
  header->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> b(header);
  b.CreateCondBr(tick, check, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(check);
  llvm::LoadInst* address = b.CreateAlignedLoad(i64, flag_address, llvm::Align(8), "cancel.flag.address");
  address->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx, {}));
  llvm::Value* flag = b.CreateIntToPtr(address, llvm::PointerType::get(ctx, kGlobalAddressSpace));
  // Host-mapped memory: a volatile load reads it again each time (PTX
  // ld.volatile, which is relaxed at system scope), never from a stale cache.
  llvm::BasicBlock* read = llvm::BasicBlock::Create(ctx, "cancel.read", &fn, rest);
  b.CreateCondBr(b.CreateICmpNE(address, b.getInt64(0)), read, rest, md.createUnlikelyBranchWeights());
  b.SetInsertPoint(read);
  llvm::Value* raised = b.CreateAlignedLoad(i32, flag, llvm::Align(4), /*isVolatile=*/true, "cancel.flag");
  b.CreateCondBr(b.CreateICmpNE(raised, b.getInt32(0)), stop, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(stop);
  b.CreateIntrinsic(llvm::Intrinsic::nvvm_exit, {}, {});
  b.CreateUnreachable();
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
    std::vector<llvm::Instruction*> ticks;
    for (llvm::Loop* loop : chosen) ticks.push_back(add_counter(loop));
    for (llvm::Instruction* tick : ticks) split_at_tick(tick, flag_address);
    count += unsigned(ticks.size());
  }
  return count;
}

}  // namespace cuhost::codegen
