// Loop fission's block entry (S.cpu.block, see cpu_fission.h): the block's
// threads run region by region, each region one loop over the threads that
// calls the resumable body R (cpu_fission_resumable.h) with the region's id,
// inlined so each loop keeps only its region's code. After a region the
// entry stops when every thread exited, reports threads that stopped at
// different barriers, reduces syncthreads_count/and/or predicates and
// carries block-uniform locals into the next region. A region whose threads
// all leave at one place (uniform_exit) keeps no per-thread state while no
// thread has exited. A thread that reported an error (a failed check) ends
// the block at once: the launch has failed.
#include "codegen/cpu_fission.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <functional>

#include "codegen/cpu_fission_resumable.h"
#include "codegen/module.h"
#include "support/diagnostics.h"
#include "support/kernel_error.h"

namespace cuhost::codegen {
namespace {

constexpr int kBdimOffset = 24;          // CuhostThreadCtx::bdim (model/cpu_abi.h)
constexpr std::uint64_t kCtxBytes = 72;  // sizeof(CuhostThreadCtx)

// A do-while loop 0..hi-1 (hi >= 1) around body(iv) at the builder's point.
llvm::BranchInst* emit_loop(llvm::IRBuilder<>& b, llvm::Value* hi, const std::string& name,
                            const std::function<void(llvm::Value*)>& body) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& c = f->getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(c, name, f);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, name + ".end", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* iv = b.CreatePHI(hi->getType(), 2, name + ".i");
  iv->addIncoming(llvm::ConstantInt::get(hi->getType(), 0), pre);
  body(iv);
  llvm::Value* next = b.CreateAdd(iv, llvm::ConstantInt::get(hi->getType(), 1), "", true, true);
  iv->addIncoming(next, b.GetInsertBlock());
  llvm::BranchInst* latch = b.CreateCondBr(b.CreateICmpSLT(next, hi), head, exit);
  b.SetInsertPoint(exit);
  return latch;
}

}  // namespace

bool emit_cpu_fission_block(LoweredModule& out, llvm::Function* body, const std::vector<llvm::Type*>& slot_types,
                            const std::string& symbol, const std::string& kernel_name) {
  ResumableRegions regions;
  if (!build_resumable(body, &regions)) return false;
  llvm::Function* r = regions.resumable;
  const std::vector<Barrier>& barriers = regions.barriers;
  const std::vector<Storage>& storage = regions.storage;
  llvm::Module& m = *body->getParent();
  llvm::LLVMContext& c = m.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i8 = llvm::Type::getInt8Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);

  out.cpu_block_symbol = symbol + ".cpu.block";
  auto* f = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false),
                                   llvm::GlobalValue::ExternalLinkage, out.cpu_block_symbol, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addParamAttr(1, llvm::Attribute::NoAlias);
  // The whole CuhostThreadCtx is readable: its loads may be hoisted out of conditions.
  f->addParamAttr(1, llvm::Attribute::getWithDereferenceableBytes(c, kCtxBytes));
  f->addParamAttr(1, llvm::Attribute::getWithAlignment(c, llvm::Align(8)));
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(c, "entry", f);
  llvm::IRBuilder<> b(entry);
  llvm::Value* params = f->getArg(0);
  llvm::Value* ctx = f->getArg(1);
  std::vector<llvm::Value*> args;
  for (size_t i = 0; i < slot_types.size(); ++i) {
    llvm::Value* p = b.CreateAlignedLoad(ptr, b.CreateConstInBoundsGEP1_64(ptr, params, i), llvm::Align(8));
    args.push_back(b.CreateLoad(slot_types[i], p));
  }
  llvm::Value* dims[3];
  for (int a = 0; a < 3; ++a)
    dims[a] = b.CreateAlignedLoad(i32, b.CreateConstInBoundsGEP1_64(i8, ctx, kBdimOffset + 4 * a), llvm::Align(4));
  llvm::Value* n32 = b.CreateMul(b.CreateMul(dims[0], dims[1]), dims[2]);
  llvm::Value* n = b.CreateZExt(n32, i64, "nthreads");

  // Storage: per-thread arrays (dynamic allocas of n slots) and block slots.
  llvm::Value* frames =
      b.CreateAlloca(llvm::ArrayType::get(ptr, std::max<std::size_t>(1, storage.size())), nullptr, "frames");
  llvm::Value* mask_var = b.CreateAlloca(i64, nullptr, "arrived");
  llvm::Value* exited_any = b.CreateAlloca(i8, nullptr, "exited.any");
  llvm::Value* cur = b.CreateAlloca(i32, nullptr, "region");
  llvm::Value* result = b.CreateAlloca(i32, nullptr, "barrier.result");
  llvm::Value* last_exit = b.CreateAlloca(i32, nullptr, "region.exit");
  llvm::AllocaInst* state = b.CreateAlloca(i8, n, "thread.state");
  state->setAlignment(llvm::Align(64));
  llvm::AllocaInst* preds = b.CreateAlloca(i32, n, "thread.pred");
  preds->setAlignment(llvm::Align(64));
  std::vector<llvm::AllocaInst*> slot_allocas;
  for (size_t k = 0; k < storage.size(); ++k) {
    llvm::AllocaInst* slot = b.CreateAlloca(storage[k].type, storage[k].per_thread ? n : nullptr, "frame");
    slot_allocas.push_back(slot);
    slot->setAlignment(storage[k].per_thread ? std::max(storage[k].align, llvm::Align(64)) : storage[k].align);
    b.CreateAlignedStore(slot, b.CreateConstInBoundsGEP2_64(llvm::ArrayType::get(ptr, storage.size()), frames, 0, k),
                         llvm::Align(8));
  }
  b.CreateStore(b.getInt8(0), exited_any);
  b.CreateStore(b.getInt32(0), cur);
  b.CreateStore(b.getInt32(0), result);

  llvm::BasicBlock* dispatch = llvm::BasicBlock::Create(c, "dispatch", f);
  llvm::BasicBlock* combine = llvm::BasicBlock::Create(c, "combine", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(c, "done", f);
  b.CreateBr(dispatch);
  b.SetInsertPoint(dispatch);
  llvm::SwitchInst* sw = b.CreateSwitch(b.CreateLoad(i32, cur), done, unsigned(barriers.size() + 1));

  // One region: every live thread runs R from barrier k to its next barrier.
  // `checked`: some threads exited, skip them. `tracked`: record where each
  // thread stopped (an untracked region's threads all stop at one place,
  // the last one's, and none exited before: no per-thread state is kept).
  auto thread_loops = [&](int k, bool checked, bool tracked) {
    b.CreateStore(b.getInt64(0), mask_var);
    emit_loop(b, dims[2], "tz", [&](llvm::Value* z) {
      emit_loop(b, dims[1], "ty", [&](llvm::Value* y) {
        llvm::MDNode* group = llvm::MDNode::getDistinct(c, {});
        llvm::BranchInst* latch = emit_loop(b, dims[0], "tx", [&](llvm::Value* x) {
          llvm::Value* lin = b.CreateZExt(
              b.CreateAdd(x,
                          b.CreateMul(dims[0], b.CreateAdd(y, b.CreateMul(dims[1], z), "", true, true), "", true, true),
                          "", true, true),
              i64, "lin");
          llvm::Value* st = b.CreateInBoundsGEP(i8, state, lin);
          llvm::BasicBlock* skip = nullptr;
          if (checked) {
            llvm::BasicBlock* run = llvm::BasicBlock::Create(c, "live", f);
            skip = llvm::BasicBlock::Create(c, "next.thread", f);
            b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i8, st), b.getInt8(0)), run, skip);
            b.SetInsertPoint(run);
          }
          std::vector<llvm::Value*> call_args = args;
          call_args.insert(call_args.end(), {ctx, x, y, z, frames, lin, b.getInt32(k), result, preds});
          llvm::CallInst* rc = b.CreateCall(r, call_args);
          rc->setMetadata(llvm::LLVMContext::MD_access_group, group);
          if (regions.reports_errors) {
            // The launch failed: the block ends here (as the runtime
            // abandons a block after an error), so the region's other
            // threads need not track whether this one exited.
            llvm::BasicBlock* go_on = llvm::BasicBlock::Create(c, "no.error", f);
            b.CreateCondBr(b.CreateICmpEQ(rc, b.getInt32(kReportedErrorExit)), done, go_on,
                           llvm::MDBuilder(c).createBranchWeights(1, 1 << 20));
            b.SetInsertPoint(go_on);
          }
          if (!tracked) {
            b.CreateStore(rc, last_exit);
          } else {
            b.CreateStore(b.CreateTrunc(rc, i8), st)->setMetadata(llvm::LLVMContext::MD_access_group, group);
            llvm::Value* bit = b.CreateShl(b.getInt64(1), b.CreateZExt(rc, i64));
            b.CreateStore(b.CreateOr(b.CreateLoad(i64, mask_var), bit), mask_var);
          }
          if (checked) {
            b.CreateBr(skip);
            b.SetInsertPoint(skip);
          }
        });
        // Between two barriers the threads of a block are unordered (a
        // dependence between two of them would be a data race on a GPU):
        // the x loop's iterations are independent.
        llvm::Metadata* parallel[] = {llvm::MDString::get(c, "llvm.loop.parallel_accesses"), group};
        llvm::Metadata* loop_md[] = {nullptr, llvm::MDNode::get(c, parallel)};
        llvm::MDNode* loop_id = llvm::MDNode::getDistinct(c, loop_md);
        loop_id->replaceOperandWith(0, loop_id);
        latch->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
      });
    });
    if (!tracked) b.CreateStore(b.CreateShl(b.getInt64(1), b.CreateZExt(b.CreateLoad(i32, last_exit), i64)), mask_var);
    b.CreateBr(combine);
  };
  for (size_t k = 0; k <= barriers.size(); ++k) {
    llvm::BasicBlock* region = llvm::BasicBlock::Create(c, concat("region", k), f);
    sw->addCase(llvm::cast<llvm::ConstantInt>(b.getInt32(int(k))), region);
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(c, concat("region", k, ".all"), f);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(c, concat("region", k, ".live"), f);
    b.SetInsertPoint(region);
    b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i8, exited_any), b.getInt8(0)), slow, fast);
    b.SetInsertPoint(fast);
    thread_loops(int(k), false, !regions.uniform_exit[k]);
    b.SetInsertPoint(slow);
    thread_loops(int(k), true, true);
  }

  // After a region: stop when every thread exited, report divergence, else
  // reduce the predicates of a syncthreads_count/and/or and go on.
  b.SetInsertPoint(combine);
  llvm::Value* mask = b.CreateLoad(i64, mask_var);
  llvm::Value* exited_now = b.CreateICmpNE(b.CreateAnd(mask, b.getInt64(1)), b.getInt64(0));
  b.CreateStore(b.CreateOr(b.CreateLoad(i8, exited_any), b.CreateZExt(exited_now, i8)), exited_any);
  llvm::Value* live = b.CreateAnd(mask, b.getInt64(~std::uint64_t(1)));
  llvm::BasicBlock* some = llvm::BasicBlock::Create(c, "some.live", f);
  b.CreateCondBr(b.CreateICmpEQ(live, b.getInt64(0)), done, some);
  b.SetInsertPoint(some);
  llvm::Value* next64 = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, live, b.getTrue());
  llvm::Value* next = b.CreateTrunc(next64, i32);
  llvm::Value* single = b.CreateICmpEQ(b.CreateAnd(live, b.CreateSub(live, b.getInt64(1))), b.getInt64(0));
  llvm::BasicBlock* diverged = llvm::BasicBlock::Create(c, "diverged", f);
  llvm::BasicBlock* go_on = llvm::BasicBlock::Create(c, "uniform", f);
  b.CreateCondBr(single, go_on, diverged);

  b.SetInsertPoint(diverged);
  {
    std::vector<llvm::Constant*> messages;
    messages.push_back(llvm::ConstantPointerNull::get(llvm::PointerType::get(c, 0)));
    for (const Barrier& bar : barriers) {
      KernelErrorSite site;  // a cuda.KernelError (support/kernel_error.h)
      site.message =
          concat("barrier inside divergent control flow in kernel '", kernel_name, "' (line ", bar.line, ")");
      messages.push_back(b.CreateGlobalStringPtr(encode_site(site), "fission.site"));
    }
    auto* aty = llvm::ArrayType::get(ptr, messages.size());
    auto* table = new llvm::GlobalVariable(m, aty, true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantArray::get(aty, messages), "fission.messages");
    llvm::Value* msg =
        b.CreateAlignedLoad(ptr, b.CreateInBoundsGEP(aty, table, {b.getInt64(0), next64}), llvm::Align(8));
    auto fn = m.getOrInsertFunction("cuhost_cpu_kernel_error",
                                    llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, i64}, false));
    b.CreateCall(fn, {ctx, b.CreateGlobalStringPtr(kernel_name), msg, b.getInt64(0)});
    b.CreateRetVoid();
  }

  b.SetInsertPoint(go_on);
  b.CreateStore(next, cur);
  // Block-uniform locals: the value the threads left at the barrier goes in.
  for (size_t k = 0; k < storage.size(); ++k) {
    if (storage[k].copy_from < 0) continue;
    llvm::Type* ty = storage[k].type;
    b.CreateStore(b.CreateLoad(ty, slot_allocas[size_t(storage[k].copy_from)]), slot_allocas[k]);
  }
  llvm::SwitchInst* red = b.CreateSwitch(next, dispatch);
  for (size_t k = 0; k < barriers.size(); ++k) {
    if (barriers[k].kind == BarrierKind::Plain) continue;
    llvm::BasicBlock* rb = llvm::BasicBlock::Create(c, concat("reduce", k + 1), f);
    red->addCase(llvm::cast<llvm::ConstantInt>(b.getInt32(int(k + 1))), rb);
    b.SetInsertPoint(rb);
    llvm::Value* count_var = mask_var;  // reused: the arrival mask is consumed
    llvm::Value* arrived_var = b.CreateAlloca(i32, nullptr, "arrived.n");
    // (allocas outside the entry block are moved there below)
    b.CreateStore(b.getInt64(0), count_var);
    b.CreateStore(b.getInt32(0), arrived_var);
    // With no thread exited, every thread arrived (an untracked region
    // leaves the states as they were).
    llvm::Value* all_live = b.CreateICmpEQ(b.CreateLoad(i8, exited_any), b.getInt8(0));
    emit_loop(b, n, "red", [&](llvm::Value* t) {
      llvm::Value* here = b.CreateOr(
          all_live, b.CreateICmpEQ(b.CreateLoad(i8, b.CreateInBoundsGEP(i8, state, t)), b.getInt8(int(k + 1))));
      llvm::Value* p = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, preds, t));
      llvm::Value* yes = b.CreateAnd(here, b.CreateICmpNE(p, b.getInt32(0)));
      b.CreateStore(b.CreateAdd(b.CreateLoad(i64, count_var), b.CreateZExt(yes, i64)), count_var);
      b.CreateStore(b.CreateAdd(b.CreateLoad(i32, arrived_var), b.CreateZExt(here, i32)), arrived_var);
    });
    llvm::Value* cnt = b.CreateTrunc(b.CreateLoad(i64, count_var), i32);
    llvm::Value* res = cnt;
    if (barriers[k].kind == BarrierKind::And)
      res = b.CreateZExt(b.CreateICmpEQ(cnt, b.CreateLoad(i32, arrived_var)), i32);
    else if (barriers[k].kind == BarrierKind::Or)
      res = b.CreateZExt(b.CreateICmpNE(cnt, b.getInt32(0)), i32);
    b.CreateStore(res, result);
    b.CreateBr(dispatch);
  }
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  // Keep every static alloca in the entry block (mem2reg/SROA only look there).
  std::vector<llvm::AllocaInst*> late;
  for (llvm::BasicBlock& bb : *f)
    if (&bb != entry)
      for (llvm::Instruction& i : bb)
        if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) late.push_back(a);
  for (llvm::AllocaInst* a : late) a->moveBefore(&*entry->getFirstInsertionPt());
  out.keep.push_back(out.cpu_block_symbol);
  return true;
}

}  // namespace cuhost::codegen
