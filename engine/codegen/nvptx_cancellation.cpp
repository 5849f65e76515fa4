// Cancellation points for GPU kernel deadlines (see nvptx_cancellation.h).
#include "codegen/nvptx_cancellation.h"

#include "codegen/nvptx_chunked_loops.h"
#include "codegen/nvptx_flag_check.h"
#include "codegen/nvptx_short_loops.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <optional>
#include <utility>
#include <vector>

namespace cuhost::codegen {

namespace {

// Loops that may run kCancellationInterval iterations or more: a loop whose
// trip count is bounded below that would never reach its check.
std::vector<llvm::Loop*> long_loops(llvm::LoopInfo& loops, llvm::ScalarEvolution& se) {
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
// check:  (check_flag) -> rest
// rest:   n.after = phi(n.dec from header, interval from check and read); the header's other code
void split_at_tick(const Countdown& c, llvm::GlobalVariable* flag_address) {
  llvm::BasicBlock* header = c.tick->getParent();
  llvm::Function& fn = *header->getParent();
  llvm::LLVMContext& ctx = fn.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::BasicBlock* rest = llvm::SplitBlock(header, c.tick->getNextNode());
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "cancel.check", &fn, rest);
  llvm::MDBuilder md(ctx);
  header->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> b(header);
  b.CreateCondBr(c.tick, check, rest, md.createUnlikelyBranchWeights());

  b.SetInsertPoint(check);
  auto [from_check, from_read] = check_flag(b, flag_address, rest);

  b.SetInsertPoint(rest, rest->begin());
  llvm::PHINode* after = b.CreatePHI(i32, 3, "cancel.count.after");
  after->addIncoming(c.dec, header);
  after->addIncoming(b.getInt32(kCancellationInterval), from_check);
  after->addIncoming(b.getInt32(kCancellationInterval), from_read);
  for (unsigned i = 0; i < c.count->getNumIncomingValues(); ++i)
    if (c.count->getIncomingValue(i) == c.dec) c.count->setIncomingValue(i, after);
}

// One 32-bit special register read through inline PTX (%envreg has no
// NVVM intrinsic).
llvm::Value* read_envreg(llvm::IRBuilder<>& b, const char* name) {
  auto* type = llvm::FunctionType::get(b.getInt32Ty(), false);
  auto* asm_read =
      llvm::InlineAsm::get(type, std::string("mov.u32 $0, %") + name + ";", "=r", /*hasSideEffects=*/false);
  return b.CreateCall(type, asm_read);
}

llvm::Value* sreg(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id) { return b.CreateIntrinsic(id, {}, {}); }

// Under a deadline a grid.sync() must not wait inside cudadevrt's barrier,
// whose spin has no cancellation point: a block that was stopped never
// arrives, and the others would wait forever. Each `cudaCGSynchronize` call
// becomes the same arrive-and-flip barrier written here, on the driver's grid
// workspace (the ABI cooperative_groups.h documents: its address in %envreg1
// (high) and %envreg2 (low) of a cooperative launch, the arrival counter at
// byte 4; block 0 adds 0x80000000 - (blocks - 1), every other block 1, so
// the counter's top bit flips once all have arrived). Every thread reads the
// phase before the block barrier and spins until it flips, so the spin is a
// loop like any other: it gets its countdown, and every waiting thread
// leaves at the deadline.
unsigned replace_grid_syncs(llvm::Function& fn) {
  std::vector<llvm::CallInst*> syncs;
  for (llvm::BasicBlock& bb : fn)
    for (llvm::Instruction& inst : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function* callee = call->getCalledFunction(); callee && callee->getName() == "cudaCGSynchronize")
          syncs.push_back(call);
  for (llvm::CallInst* call : syncs) {
    llvm::LLVMContext& ctx = fn.getContext();
    llvm::BasicBlock* before = call->getParent();
    llvm::BasicBlock* after = llvm::SplitBlock(before, call);
    llvm::BasicBlock* arrive = llvm::BasicBlock::Create(ctx, "gridsync.arrive", &fn, after);
    llvm::BasicBlock* spin = llvm::BasicBlock::Create(ctx, "gridsync.spin", &fn, after);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "gridsync.done", &fn, after);
    before->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> b(before);
    llvm::Type* i32 = b.getInt32Ty();
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Value* workspace = b.CreateOr(b.CreateShl(b.CreateZExt(read_envreg(b, "envreg1"), i64), 32),
                                        b.CreateZExt(read_envreg(b, "envreg2"), i64));
    llvm::Value* counter = b.CreateIntToPtr(b.CreateAdd(workspace, b.getInt64(4)), b.getPtrTy());
    llvm::Value* phase = b.CreateAlignedLoad(i32, counter, llvm::Align(4), /*isVolatile=*/true, "gridsync.phase");
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    using I = llvm::Intrinsic::ID;
    auto any_nonzero = [&](I x, I y, I z) { return b.CreateOr(b.CreateOr(sreg(b, x), sreg(b, y)), sreg(b, z)); };
    llvm::Value* master =
        b.CreateICmpEQ(any_nonzero(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z),
                       b.getInt32(0));
    b.CreateCondBr(master, arrive, spin);

    b.SetInsertPoint(arrive);
    llvm::Value* first_block = b.CreateICmpEQ(
        any_nonzero(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                    llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z),
        b.getInt32(0));
    llvm::Value* blocks = b.CreateMul(b.CreateMul(sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x),
                                                  sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y)),
                                      sreg(b, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z));
    llvm::Value* add = b.CreateSelect(
        first_block, b.CreateSub(b.getInt32(0x80000000u), b.CreateSub(blocks, b.getInt32(1))), b.getInt32(1));
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});  // the block's writes before its arrival
    b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, counter, add, llvm::Align(4), llvm::AtomicOrdering::Monotonic);
    b.CreateBr(spin);

    b.SetInsertPoint(spin);
    llvm::Value* now = b.CreateAlignedLoad(i32, counter, llvm::Align(4), /*isVolatile=*/true, "gridsync.now");
    llvm::Value* flipped = b.CreateICmpNE(b.CreateAnd(b.CreateXor(phase, now), b.getInt32(0x80000000u)), b.getInt32(0));
    b.CreateCondBr(flipped, done, spin);

    b.SetInsertPoint(done);
    b.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});  // the other blocks' writes after it
    b.CreateBr(after);

    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), 0));
    call->eraseFromParent();
  }
  return unsigned(syncs.size());
}

}  // namespace

unsigned insert_gpu_cancellation_points(llvm::Module& m) {
  llvm::GlobalVariable* flag_address = nullptr;
  unsigned count = 0;
  for (llvm::Function& fn : m) {
    if (fn.isDeclaration()) continue;
    replace_grid_syncs(fn);
    // libdevice's own functions (`__nv_*`, and the `__internal_*` helpers
    // they call, such as the Payne-Hanek argument reduction of sin and cos):
    // their loops are bounded by the floating-point format (a few dozen
    // iterations). A point there would change nothing a deadline needs, and
    // would make a helper that a hot loop calls too large for the driver's
    // compiler to inline (10% of a loop of transcendentals: each iteration
    // then keeps a call, and with it a convergence barrier around the loop's
    // own check).
    if (is_libdevice_function(fn)) continue;
    llvm::DominatorTree dt(fn);
    llvm::LoopInfo loops(dt);
    llvm::TargetLibraryInfoImpl tli_impl(llvm::Triple(m.getTargetTriple()));
    llvm::TargetLibraryInfo tli(tli_impl, &fn);
    llvm::AssumptionCache ac(fn);
    llvm::ScalarEvolution se(fn, tli, ac, dt, loops);
    std::vector<llvm::Loop*> chosen = long_loops(loops, se);
    if (chosen.empty()) continue;
    if (!flag_address) flag_address = flag_address_global(m);
    // Every loop is read before any is changed: counted loops get chunks,
    // the others a countdown (instructions only), then the CFG changes.
    std::vector<std::pair<ChunkPlan, llvm::Loop*>> chunked;
    std::vector<Countdown> countdowns;
    for (llvm::Loop* loop : chosen) {
      if (std::optional<ChunkPlan> plan = plan_chunks(loop, se))
        chunked.emplace_back(*plan, loop);
      else
        countdowns.push_back(add_countdown(loop));
    }
    // A kernel's short outermost loops get a copy without points
    // (nvptx_short_loops.h), taken when the loop ends soon enough.
    for (auto& [plan, loop] : chunked)
      if (uint64_t iterations = unchecked_iterations(loop))
        version_short_loop(plan, loop, iterations, flag_address, loops, dt, se);
    for (const auto& [plan, loop] : chunked) chunk_loop(plan, flag_address);
    for (const Countdown& c : countdowns) split_at_tick(c, flag_address);
    count += unsigned(chunked.size());
    count += unsigned(countdowns.size());
  }
  return count;
}

}  // namespace cuhost::codegen
