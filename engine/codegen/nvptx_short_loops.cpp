// Short counted loops run without cancellation points (see
// nvptx_short_loops.h).
#include "codegen/nvptx_short_loops.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "codegen/nvptx_cancellation.h"
#include "codegen/nvptx_chunked_loops.h"
#include "codegen/nvptx_flag_check.h"

namespace cuhost::codegen {

namespace {

uint64_t instruction_count(const llvm::Function& fn) {
  uint64_t n = 0;
  for (const llvm::BasicBlock& bb : fn) n += bb.size();
  return n;
}

// A load or store of a constant global (libdevice's coefficient tables):
// served by the caches, counted as an instruction.
bool reads_constant_table(const llvm::Instruction& inst) {
  const llvm::Value* address = llvm::getLoadStorePointerOperand(&inst);
  if (!address) return false;
  auto* global = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(address));
  return global && global->isConstant() && llvm::isa<llvm::LoadInst>(inst);
}

// Inline PTX of one instruction or a few without labels or branches (the
// conversions cuhost's lowering writes so), with no side effects.
bool straight_line_ptx(const llvm::CallBase& call) {
  auto* text = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand());
  if (!text || text->hasSideEffects()) return false;
  llvm::StringRef constraints = text->getConstraintString();
  if (constraints.contains("memory") || constraints.contains('*')) return false;  // reads or writes memory
  llvm::StringRef code = text->getAsmString();
  return !code.contains("bra") && !code.contains(':') && !code.contains("call") && !code.contains("exit");
}

// The work of one iteration in kUncheckedWork's units; 0 when the body
// calls something of unknown length.
uint64_t iteration_cost(llvm::Loop* loop) {
  uint64_t cost = 0;
  for (llvm::BasicBlock* bb : loop->blocks()) {
    for (llvm::Instruction& inst : *bb) {
      cost += 1;
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        if (llvm::isa<llvm::IntrinsicInst>(call)) {
          if (call->mayReadOrWriteMemory()) cost += kMemoryAccessCost;
          continue;
        }
        if (straight_line_ptx(*call)) continue;
        llvm::Function* callee = call->getCalledFunction();
        // User device functions (their loops have their own points, their
        // length is unknown) and foreign code: not versioned.
        if (!callee || callee->isDeclaration() || !is_libdevice_function(*callee)) return 0;
        cost += kCallCost + 4 * instruction_count(*callee);
        continue;
      }
      if (inst.mayReadOrWriteMemory() && !reads_constant_table(inst)) cost += kMemoryAccessCost;
    }
  }
  return cost;
}

}  // namespace

bool is_libdevice_function(const llvm::Function& fn) {
  llvm::StringRef name = fn.getName();
  return name.starts_with("__nv_") || name.starts_with("__internal_");
}

uint64_t unchecked_iterations(llvm::Loop* loop) {
  const llvm::Function& fn = *loop->getHeader()->getParent();
  if (fn.getCallingConv() != llvm::CallingConv::PTX_Kernel) return 0;  // a caller may loop around it
  if (loop->getParentLoop() || !loop->getSubLoops().empty()) return 0;
  uint64_t cost = iteration_cost(loop);
  if (cost == 0) return 0;
  uint64_t iterations = kUncheckedWork / cost;
  return iterations > kCancellationInterval ? iterations : 0;
}

bool version_short_loop(ChunkPlan& plan, llvm::Loop* loop, uint64_t iterations, llvm::GlobalVariable* flag_address,
                        llvm::LoopInfo& loops, llvm::DominatorTree& dt, llvm::ScalarEvolution& se) {
  llvm::BasicBlock* preheader = loop->getLoopPreheader();
  llvm::BasicBlock* exit = loop->getExitBlock();
  if (!preheader || preheader != plan.preheader || !exit || !loop->hasDedicatedExits()) return false;
  if (plan.kind == ChunkPlan::Kind::NotEqual) {
    // The span |step| * iterations must fit the type (chunk_span's constant).
    const llvm::APInt& step = llvm::cast<llvm::ConstantInt>(plan.step)->getValue();
    if (step.abs().getActiveBits() + 64 - __builtin_clzll(iterations) >= step.getBitWidth()) return false;
  }
  // Values of the loop used after it go through phis of the exit block,
  // which then also take the copy's values.
  llvm::formLCSSA(*loop, dt, &loops, &se);

  // preheader: short = (the loop's bound lies within `iterations` steps)
  //            br short, copy.preheader, original.preheader
  llvm::BasicBlock* original_entry =
      llvm::SplitBlock(preheader, preheader->getTerminator(), &dt, &loops, nullptr, "cancel.long");
  plan.preheader = original_entry;
  llvm::IRBuilder<> b(preheader->getTerminator());
  llvm::Value* end = chunk_end(b, plan, first_tested(b, plan), chunk_span(b, plan, iterations));
  llvm::Value* is_short = b.CreateICmpEQ(end, plan.bound, "cancel.short");

  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock*, 16> blocks;
  llvm::Loop* copy = llvm::cloneLoopWithPreheader(original_entry, preheader, loop, map, ".short", &loops, &dt, blocks);
  llvm::remapInstructionsInBlocks(blocks, map);
  // The copy is entered through one read of the flag, before the loop (a
  // read outside the loop leaves its uniformity alone): a grid of many
  // short threads still stops, wave after wave, once the flag is raised.
  llvm::BasicBlock* copy_entry = copy->getLoopPreheader();
  llvm::BasicBlock* entry_check =
      llvm::BasicBlock::Create(preheader->getContext(), "cancel.short.check", preheader->getParent(), copy_entry);
  llvm::IRBuilder<> cb(entry_check);
  check_flag(cb, flag_address, copy_entry);
  preheader->getTerminator()->eraseFromParent();
  llvm::BranchInst::Create(entry_check, original_entry, is_short, preheader);

  for (llvm::PHINode& phi : exit->phis()) {
    unsigned incoming = phi.getNumIncomingValues();
    for (unsigned i = 0; i < incoming; ++i) {
      llvm::BasicBlock* from = phi.getIncomingBlock(i);
      if (!loop->contains(from)) continue;
      llvm::Value* value = phi.getIncomingValue(i);
      auto mapped = map.find(value);
      phi.addIncoming(mapped != map.end() ? static_cast<llvm::Value*>(mapped->second) : value,
                      llvm::cast<llvm::BasicBlock>(map[from]));
    }
  }
  dt.recalculate(*preheader->getParent());
  return true;
}

}  // namespace cuhost::codegen
