// Loop fission at barriers on LLVM IR (see cpu_fission.h). The kernel body is
// cloned into a resumable function R(..., frames, lin, resume, result, preds)
// that starts at barrier `resume` (0: the kernel's start) and returns the id
// of the next barrier it reaches (0: the thread exited). Values live across a
// barrier move to storage owned by the block entry: one slot per thread
// (indexed by the linear thread id, so loops stay vectorizable) or, for a
// local assigned once with a block-uniform value, one slot per block.
//
// The block entry runs region 0 as a loop over the block's threads (R inlined
// with a constant resume id, so each loop keeps only its region's code), then
// the region every live thread stopped at, and so on; threads that exited are
// skipped. If live threads stop at different barriers the block reports
// "barrier inside divergent control flow" and ends (undefined on a GPU).
// syncthreads_count/and/or store their predicate per thread; the block entry
// reduces them between the loops and R reads the result on resuming.
#include "codegen/cpu_fission.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "codegen/module.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr int kMaxBarriers = 62;                     // ids 1..62 fit the i64 arrival mask (bit 0: exited)
constexpr std::uint64_t kMaxThreadFrameBytes = 1024;  // per thread, on the worker's stack (x 1024 threads)
constexpr int kBdimOffset = 24;                      // CuhostThreadCtx::bdim (cpu/cpu_abi.h)

enum class BarrierKind { Plain = -1, Count = 0, And = 1, Or = 2 };

struct Barrier {
  llvm::CallInst* call = nullptr;
  BarrierKind kind = BarrierKind::Plain;
  int line = 0;
  llvm::BasicBlock* resume = nullptr;
};

struct Storage {
  llvm::Type* type = nullptr;
  llvm::Align align;
  bool per_thread = true;
};

BarrierKind barrier_kind(const llvm::CallInst* c, bool& is_barrier) {
  is_barrier = false;
  const llvm::Function* f = c->getCalledFunction();
  if (!f) return BarrierKind::Plain;
  llvm::StringRef n = f->getName();
  is_barrier = true;
  if (n == "cuhost_cpu_syncthreads") return BarrierKind::Plain;
  if (n == "cuhost_cpu_syncthreads_count") return BarrierKind::Count;
  if (n == "cuhost_cpu_syncthreads_and") return BarrierKind::And;
  if (n == "cuhost_cpu_syncthreads_or") return BarrierKind::Or;
  is_barrier = false;
  return BarrierKind::Plain;
}

int line_of(const llvm::Instruction* i) {
  if (llvm::MDNode* md = i->getMetadata("cuhost.line"))
    if (md->getNumOperands() == 1)
      if (auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0))) return int(c->getSExtValue());
  return 0;
}

// The IR-level part: clones `body` into a resumable function and records
// what the block entry must provide. Every failure leaves the module unchanged.
class Fission {
 public:
  Fission(llvm::Function* body) : body_(body), m_(*body->getParent()), c_(m_.getContext()) {}

  bool build() {
    if (!make_resumable()) return drop();
    if (!collect_barriers()) return drop();
    split_and_demote();
    cut_at_barriers();
    if (!move_live_allocas()) return drop();
    return true;
  }

  llvm::Function* resumable() const { return r_; }
  const std::vector<Barrier>& barriers() const { return barriers_; }
  const std::vector<Storage>& storage() const { return storage_; }
  unsigned body_args() const { return nbody_; }

 private:
  bool drop() {
    if (r_) r_->eraseFromParent();
    r_ = nullptr;
    return false;
  }

  llvm::Argument* frames_arg() { return r_->getArg(nbody_); }
  llvm::Argument* lin_arg() { return r_->getArg(nbody_ + 1); }
  llvm::Argument* resume_arg() { return r_->getArg(nbody_ + 2); }
  llvm::Argument* result_arg() { return r_->getArg(nbody_ + 3); }
  llvm::Argument* preds_arg() { return r_->getArg(nbody_ + 4); }

  bool make_resumable() {
    nbody_ = body_->arg_size();
    if (nbody_ < 4 || !body_->getReturnType()->isVoidTy()) return false;
    std::vector<llvm::Type*> ps(body_->getFunctionType()->param_begin(), body_->getFunctionType()->param_end());
    llvm::Type* ptr = llvm::PointerType::get(c_, 0);
    llvm::Type* i64 = llvm::Type::getInt64Ty(c_);
    llvm::Type* i32 = llvm::Type::getInt32Ty(c_);
    ps.insert(ps.end(), {ptr, i64, i32, ptr, ptr});
    r_ = llvm::Function::Create(llvm::FunctionType::get(i32, ps, false), llvm::GlobalValue::InternalLinkage,
                                body_->getName() + ".resumable", m_);
    llvm::ValueToValueMapTy vm;
    for (unsigned i = 0; i < nbody_; ++i) vm[body_->getArg(i)] = r_->getArg(i);
    llvm::SmallVector<llvm::ReturnInst*, 8> rets;
    llvm::CloneFunctionInto(r_, body_, vm, llvm::CloneFunctionChangeType::LocalChangesOnly, rets);
    for (llvm::ReturnInst* ret : rets) {
      llvm::ReturnInst::Create(c_, llvm::ConstantInt::get(i32, 0), ret->getIterator());
      ret->eraseFromParent();
    }
    r_->addFnAttr(llvm::Attribute::AlwaysInline);
    r_->addFnAttr(llvm::Attribute::NoUnwind);
    r_->addParamAttr(nbody_, llvm::Attribute::NoAlias);
    r_->addParamAttr(nbody_ + 3, llvm::Attribute::NoAlias);
    r_->addParamAttr(nbody_ + 4, llvm::Attribute::NoAlias);
    return true;
  }

  bool collect_barriers() {
    llvm::BasicBlock* entry = &r_->getEntryBlock();
    for (llvm::BasicBlock& bb : *r_) {
      for (llvm::Instruction& i : bb) {
        if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i))
          if (&bb != entry || a->isArrayAllocation() || !a->isStaticAlloca()) return false;
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (!call) continue;
        if (!call->getCalledFunction()) continue;
        bool is_barrier = false;
        BarrierKind k = barrier_kind(call, is_barrier);
        if (is_barrier) {
          barriers_.push_back({call, k, line_of(call), nullptr});
          continue;
        }
        // Warp operations need fibers (fission_supported refuses them already).
        llvm::StringRef n = call->getCalledFunction()->getName();
        if (n.starts_with("cuhost_cpu_") && n != "cuhost_cpu_index_error" && n != "cuhost_cpu_kernel_error")
          return false;
      }
    }
    if (barriers_.empty() || barriers_.size() > std::size_t(kMaxBarriers)) return false;
    std::stable_sort(barriers_.begin(), barriers_.end(),
                     [](const Barrier& a, const Barrier& b) { return a.line < b.line; });
    return true;
  }

  // Splits each block after its barrier call; reductions read their result
  // from `result` after the barrier; then every value used outside its block
  // and every phi goes through a stack slot, so no SSA value crosses a barrier.
  void split_and_demote() {
    for (Barrier& b : barriers_) {
      b.resume = b.call->getParent()->splitBasicBlock(b.call->getNextNode(), "barrier.resume");
      if (b.kind != BarrierKind::Plain) {
        llvm::IRBuilder<> ib(&*b.resume->getFirstInsertionPt());
        llvm::Value* v = ib.CreateAlignedLoad(ib.getInt32Ty(), result_arg(), llvm::Align(4), "barrier.result");
        b.call->replaceAllUsesWith(v);
      }
    }
    llvm::BasicBlock* entry = &r_->getEntryBlock();
    std::vector<llvm::Instruction*> escaping;
    for (llvm::BasicBlock& bb : *r_)
      for (llvm::Instruction& i : bb) {
        if (llvm::isa<llvm::AllocaInst>(i) && &bb == entry) continue;
        if (llvm::isa<llvm::PHINode>(i)) continue;
        for (const llvm::User* u : i.users()) {
          auto* ui = llvm::cast<llvm::Instruction>(u);
          if (ui->getParent() != &bb || llvm::isa<llvm::PHINode>(ui)) {
            escaping.push_back(&i);
            break;
          }
        }
      }
    for (llvm::Instruction* i : escaping) llvm::DemoteRegToStack(*i, false, entry->begin());
    std::vector<llvm::PHINode*> phis;
    for (llvm::BasicBlock& bb : *r_)
      for (llvm::PHINode& p : bb.phis()) phis.push_back(&p);
    for (llvm::PHINode* p : phis) llvm::DemotePHIToStack(p, entry->begin());
  }

  // Each barrier becomes `store pred; ret id`; the entry dispatches on `resume`.
  void cut_at_barriers() {
    llvm::Type* i32 = llvm::Type::getInt32Ty(c_);
    for (size_t k = 0; k < barriers_.size(); ++k) {
      Barrier& b = barriers_[k];
      llvm::BasicBlock* pre = b.call->getParent();
      if (b.kind != BarrierKind::Plain) {
        llvm::IRBuilder<> ib(b.call);
        llvm::Value* slot = ib.CreateInBoundsGEP(i32, preds_arg(), lin_arg());
        ib.CreateAlignedStore(b.call->getArgOperand(1), slot, llvm::Align(4));
      }
      b.call->eraseFromParent();
      b.call = nullptr;
      pre->getTerminator()->eraseFromParent();
      llvm::ReturnInst::Create(c_, llvm::ConstantInt::get(i32, k + 1), pre);
    }
    llvm::BasicBlock* entry = &r_->getEntryBlock();
    std::vector<llvm::AllocaInst*> allocas;
    for (llvm::Instruction& i : *entry)
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) allocas.push_back(a);
    for (auto a = allocas.rbegin(); a != allocas.rend(); ++a) (*a)->moveBefore(&entry->front());
    auto it = entry->begin();
    while (llvm::isa<llvm::AllocaInst>(*it)) ++it;
    llvm::BasicBlock* start = entry->splitBasicBlock(it, "start");
    entry->getTerminator()->eraseFromParent();
    llvm::IRBuilder<> ib(entry);
    llvm::SwitchInst* sw = ib.CreateSwitch(resume_arg(), start, unsigned(barriers_.size()));
    for (size_t k = 0; k < barriers_.size(); ++k)
      sw->addCase(llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(i32), k + 1), barriers_[k].resume);
  }

  // Whether a load of `a` can run, on some path from the start of `from`,
  // before a store to it (the alloca only has plain loads and stores).
  bool read_before_written(llvm::AllocaInst* a, llvm::BasicBlock* from) {
    std::set<llvm::BasicBlock*> seen;
    std::vector<llvm::BasicBlock*> work = {from};
    while (!work.empty()) {
      llvm::BasicBlock* bb = work.back();
      work.pop_back();
      if (!seen.insert(bb).second) continue;
      bool killed = false;
      for (llvm::Instruction& i : *bb) {
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
          if (l->getPointerOperand() == a) return true;
        } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          if (s->getPointerOperand() == a) {
            killed = true;
            break;
          }
        }
      }
      if (killed) continue;
      for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
    }
    return false;
  }

  // Same value for every thread of the block at any time: kernel parameters,
  // block-wide context fields (not tid), constants and pure operations on them.
  bool uniform(llvm::Value* v, int depth = 0) {
    if (depth > 64) return false;
    if (llvm::isa<llvm::Constant>(v)) return true;
    if (auto* arg = llvm::dyn_cast<llvm::Argument>(v)) return arg->getParent() == r_ && arg->getArgNo() + 3 < nbody_;
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i) return false;
    auto known = uniform_memo_.find(i);
    if (known != uniform_memo_.end()) return known->second;
    bool u = false;
    if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i); l && uniform_allocas_.count(l->getPointerOperand())) {
      u = true;  // a local assigned once with a uniform value
    } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i)) {
      // ctx->bid / bdim / gdim / shared / dynamic_shared
      auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(l->getPointerOperand());
      llvm::Argument* ctx = r_->getArg(nbody_ - 4);
      if (!l->isVolatile() && gep && gep->getPointerOperand() == ctx && gep->getNumIndices() == 1 &&
          gep->getSourceElementType()->isIntegerTy(8)) {
        if (auto* off = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1)))
          u = off->getSExtValue() >= 12 && off->getSExtValue() < 64;
      }
    } else if (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::CmpInst>(i) ||
               llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::GetElementPtrInst>(i) ||
               llvm::isa<llvm::InsertValueInst>(i) || llvm::isa<llvm::ExtractValueInst>(i) ||
               llvm::isa<llvm::UnaryOperator>(i)) {
      u = true;
      for (llvm::Value* op : i->operands())
        if (!uniform(op, depth + 1)) {
          u = false;
          break;
        }
    }
    uniform_memo_[i] = u;
    return u;
  }

  // Allocas live at some barrier move to block-entry storage.
  bool move_live_allocas() {
    llvm::BasicBlock* entry = &r_->getEntryBlock();
    const llvm::DataLayout& dl = m_.getDataLayout();
    std::vector<std::pair<llvm::AllocaInst*, Storage>> moved;
    std::uint64_t thread_bytes = 0;
    std::map<llvm::AllocaInst*, std::vector<llvm::StoreInst*>> simple_allocas;
    for (llvm::Instruction& i : *entry) {
      auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i);
      if (!a) continue;
      bool simple = true;
      std::vector<llvm::StoreInst*> stores;
      for (llvm::User* u : a->users()) {
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(u)) {
          if (l->getPointerOperand() != a) simple = false;
        } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u)) {
          if (s->getPointerOperand() != a || s->getValueOperand() == a) simple = false;
          stores.push_back(s);
        } else {
          simple = false;
        }
      }
      if (simple) simple_allocas[a] = stores;
    }
    // Locals stored once with a uniform value: the greatest fixed point,
    // starting from every single-store local.
    for (auto& [a, stores] : simple_allocas)
      if (stores.size() == 1) uniform_allocas_.insert(a);
    for (bool changed = true; changed;) {
      changed = false;
      uniform_memo_.clear();
      for (auto& [a, stores] : simple_allocas)
        if (uniform_allocas_.count(a) && !uniform(stores[0]->getValueOperand())) {
          uniform_allocas_.erase(a);
          changed = true;
        }
    }
    for (llvm::Instruction& i : *entry) {
      auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i);
      if (!a) continue;
      bool simple = simple_allocas.count(a) != 0;
      bool live = !simple;
      for (size_t k = 0; simple && !live && k < barriers_.size(); ++k)
        live = read_before_written(a, barriers_[k].resume);
      if (!live) continue;
      Storage s;
      s.type = a->getAllocatedType();
      s.align = a->getAlign();
      s.per_thread = !uniform_allocas_.count(a);
      if (s.per_thread) thread_bytes += dl.getTypeAllocSize(s.type);
      moved.push_back({a, s});
    }
    if (thread_bytes > kMaxThreadFrameBytes) return false;
    llvm::IRBuilder<> ib(entry->getTerminator());
    llvm::Type* ptr = llvm::PointerType::get(c_, 0);
    for (size_t k = 0; k < moved.size(); ++k) {
      auto [a, s] = moved[k];
      llvm::Value* base =
          ib.CreateAlignedLoad(ptr, ib.CreateConstInBoundsGEP1_64(ptr, frames_arg(), k), llvm::Align(8));
      llvm::Value* addr = s.per_thread ? ib.CreateInBoundsGEP(s.type, base, lin_arg()) : base;
      a->replaceAllUsesWith(addr);
      a->eraseFromParent();
      storage_.push_back(s);
    }
    return true;
  }

  llvm::Function* body_;
  llvm::Module& m_;
  llvm::LLVMContext& c_;
  llvm::Function* r_ = nullptr;
  unsigned nbody_ = 0;
  std::vector<Barrier> barriers_;
  std::vector<Storage> storage_;
  std::map<llvm::Instruction*, bool> uniform_memo_;
  std::set<const llvm::Value*> uniform_allocas_;
};

// A do-while loop 0..hi-1 (hi >= 1) around body(iv) at the builder's point.
void emit_loop(llvm::IRBuilder<>& b, llvm::Value* hi, const std::string& name,
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
  b.CreateCondBr(b.CreateICmpSLT(next, hi), head, exit);
  b.SetInsertPoint(exit);
}

}  // namespace

bool emit_cpu_fission_block(LoweredModule& out, llvm::Function* body, const std::vector<llvm::Type*>& slot_types,
                            const std::string& symbol, const std::string& kernel_name) {
  Fission fission(body);
  if (!fission.build()) return false;
  llvm::Function* r = fission.resumable();
  const std::vector<Barrier>& barriers = fission.barriers();
  const std::vector<Storage>& storage = fission.storage();
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
  llvm::Value* frames = b.CreateAlloca(llvm::ArrayType::get(ptr, std::max<std::size_t>(1, storage.size())), nullptr,
                                       "frames");
  llvm::Value* mask_var = b.CreateAlloca(i64, nullptr, "arrived");
  llvm::Value* exited_any = b.CreateAlloca(i8, nullptr, "exited.any");
  llvm::Value* cur = b.CreateAlloca(i32, nullptr, "region");
  llvm::Value* result = b.CreateAlloca(i32, nullptr, "barrier.result");
  llvm::AllocaInst* state = b.CreateAlloca(i8, n, "thread.state");
  state->setAlignment(llvm::Align(64));
  llvm::AllocaInst* preds = b.CreateAlloca(i32, n, "thread.pred");
  preds->setAlignment(llvm::Align(64));
  for (size_t k = 0; k < storage.size(); ++k) {
    llvm::AllocaInst* slot = b.CreateAlloca(storage[k].type, storage[k].per_thread ? n : nullptr, "frame");
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
  auto thread_loops = [&](int k, bool checked) {
    b.CreateStore(b.getInt64(0), mask_var);
    emit_loop(b, dims[2], "tz", [&](llvm::Value* z) {
      emit_loop(b, dims[1], "ty", [&](llvm::Value* y) {
        emit_loop(b, dims[0], "tx", [&](llvm::Value* x) {
          llvm::Value* lin = b.CreateZExt(
              b.CreateAdd(x, b.CreateMul(dims[0], b.CreateAdd(y, b.CreateMul(dims[1], z), "", true, true), "", true,
                                         true),
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
          llvm::Value* rc = b.CreateCall(r, call_args);
          b.CreateStore(b.CreateTrunc(rc, i8), st);
          llvm::Value* bit = b.CreateShl(b.getInt64(1), b.CreateZExt(rc, i64));
          b.CreateStore(b.CreateOr(b.CreateLoad(i64, mask_var), bit), mask_var);
          if (checked) {
            b.CreateBr(skip);
            b.SetInsertPoint(skip);
          }
        });
      });
    });
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
    thread_loops(int(k), false);
    b.SetInsertPoint(slow);
    thread_loops(int(k), true);
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
    for (const Barrier& bar : barriers)
      messages.push_back(b.CreateGlobalStringPtr(
          concat("barrier inside divergent control flow in kernel '", kernel_name, "' (line ", bar.line, ")")));
    auto* aty = llvm::ArrayType::get(ptr, messages.size());
    auto* table = new llvm::GlobalVariable(m, aty, true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantArray::get(aty, messages), "fission.messages");
    llvm::Value* msg = b.CreateAlignedLoad(ptr, b.CreateInBoundsGEP(aty, table, {b.getInt64(0), next64}),
                                           llvm::Align(8));
    auto fn = m.getOrInsertFunction("cuhost_cpu_kernel_error",
                                    llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, i64}, false));
    b.CreateCall(fn, {ctx, b.CreateGlobalStringPtr(kernel_name), msg, b.getInt64(0)});
    b.CreateRetVoid();
  }

  b.SetInsertPoint(go_on);
  b.CreateStore(next, cur);
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
    emit_loop(b, n, "red", [&](llvm::Value* t) {
      llvm::Value* here = b.CreateICmpEQ(b.CreateLoad(i8, b.CreateInBoundsGEP(i8, state, t)), b.getInt8(int(k + 1)));
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
