// Loop fission at barriers on LLVM IR, the resumable function (see
// cpu_fission.h; the block entry is cpu_fission_entry.cpp). The kernel body is
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
// skipped; a thread that reported an error ends the block (error exits do
// not count as divergent returns). If live threads stop at different
// barriers the block reports "barrier inside divergent control flow" and
// ends (undefined on a GPU).
// syncthreads_count/and/or store their predicate per thread; the block entry
// reduces them between the loops and R reads the result on resuming.
#include "codegen/cpu_fission_resumable.h"

#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <map>
#include <set>

#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr int kMaxBarriers = 62;                      // ids 1..62 fit the i64 arrival mask (bit 0: exited)
constexpr std::uint64_t kMaxThreadFrameBytes = 1024;  // per thread, on the worker's stack (x 1024 threads)
constexpr std::size_t kMaxInlinedInstructions = 400000;

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

// A block that ends its thread after reporting an error (fail_if's failure
// block: a runtime report, then a return).
bool is_error_exit(const llvm::BasicBlock* bb) {
  if (!llvm::isa<llvm::ReturnInst>(bb->getTerminator())) return false;
  for (const llvm::Instruction& i : *bb)
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
      if (const llvm::Function* f = call->getCalledFunction())
        if (f->getName() == "cuhost_cpu_index_error" || f->getName() == "cuhost_cpu_kernel_error") return true;
  return false;
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
    find_uniform_exits();
    // Every region loop (two per barrier) inlines R before the dead regions
    // fold away: bound the work the optimizer is given.
    std::size_t size = r_->getInstructionCount();
    if (size * 2 * (barriers_.size() + 1) > kMaxInlinedInstructions) return drop();
    return true;
  }

  // Whether every live thread that runs region k (0: the kernel's start, k:
  // from barrier k) leaves it at the same barrier or return: all of the
  // region's exits lie outside divergent control flow.
  bool uniform_exit(std::size_t k) const { return uniform_exit_[k]; }
  bool reports_errors() const { return reports_errors_; }

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
      bool error = is_error_exit(ret->getParent());
      reports_errors_ = reports_errors_ || error;
      llvm::ReturnInst::Create(c_, llvm::ConstantInt::get(i32, error ? kReportedErrorExit : 0), ret->getIterator());
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
      barrier_exits_.push_back(llvm::ReturnInst::Create(c_, llvm::ConstantInt::get(i32, k + 1), pre));
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

  // What a value depends on. Fixed: the same for every thread at any time
  // (kernel parameters, block-wide context fields, constants, locals assigned
  // once with a fixed value). Remat: a pure function of fixed values and the
  // thread index, safe to compute again anywhere. Uniform: the same for every
  // live thread at a given point (also block-uniform locals).
  enum class Mode { Fixed = 0, Remat = 1, Uniform = 2 };

  bool is_ctx_field_load(llvm::LoadInst* l) {
    auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(l->getPointerOperand());
    llvm::Argument* ctx = r_->getArg(nbody_ - 4);
    if (l->isVolatile() || !gep || gep->getPointerOperand() != ctx || gep->getNumIndices() != 1 ||
        !gep->getSourceElementType()->isIntegerTy(8))
      return false;
    auto* off = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1));
    // ctx->bid / bdim / gdim / shared / dynamic_shared (tid is not kept current)
    return off && off->getSExtValue() >= 12 && off->getSExtValue() < 64;
  }

  bool depends_only(llvm::Value* v, Mode mode, int depth = 0) {
    if (depth > 64) return false;
    if (llvm::isa<llvm::Constant>(v)) return true;
    if (auto* arg = llvm::dyn_cast<llvm::Argument>(v)) {
      if (arg->getParent() != r_) return false;
      unsigned k = arg->getArgNo();
      if (k + 3 < nbody_) return true;                      // slots and ctx
      if (k < nbody_) return mode == Mode::Remat;           // tid.x/y/z
      return mode == Mode::Uniform && arg == resume_arg();  // the region being run
    }
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i) return false;
    auto& memo = memo_[int(mode)];
    auto known = memo.find(i);
    if (known != memo.end()) return known->second;
    memo[i] = false;  // cycles through memory are not fixed
    bool ok = false;
    if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i)) {
      const llvm::Value* p = l->getPointerOperand();
      if (is_ctx_field_load(l))
        ok = true;
      else if (mode == Mode::Remat)
        ok = rematerialized_.count(p) != 0;  // substituted by its expression when cloned
      else
        ok = fixed_.count(p) || (mode == Mode::Uniform && uniform_.count(p));
    } else if (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::CmpInst>(i) ||
               llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::GetElementPtrInst>(i) ||
               llvm::isa<llvm::InsertValueInst>(i) || llvm::isa<llvm::ExtractValueInst>(i) ||
               llvm::isa<llvm::UnaryOperator>(i)) {
      ok = mode != Mode::Remat || llvm::isSafeToSpeculativelyExecute(i);
      for (llvm::Value* op : i->operands())
        if (ok && !depends_only(op, mode, depth + 1)) ok = false;
    }
    memo[i] = ok;
    return ok;
  }

  // Greatest fixed point: drop members of `set` until every remaining one
  // satisfies keep(alloca).
  template <class Keep>
  void shrink(std::set<const llvm::Value*>& set, Keep keep) {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& m : memo_) m.clear();
      for (auto it = set.begin(); it != set.end();) {
        if (!keep(const_cast<llvm::AllocaInst*>(llvm::cast<llvm::AllocaInst>(*it)))) {
          it = set.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
    }
  }

  // Blocks control-dependent on a branch whose condition is not uniform.
  // A branch into an error exit does not count: the failing thread ends the
  // block (kReportedErrorExit), so the threads that go on all took the other
  // way. Its edge into the exit is left out while the post-dominator tree is
  // built (the exit would otherwise make every block after the check depend
  // on it), then put back.
  std::set<llvm::BasicBlock*> divergent_blocks() {
    struct Cut {
      llvm::BranchInst* branch;
      unsigned successor;
      llvm::BasicBlock* exit;
    };
    std::vector<Cut> cut;
    for (llvm::BasicBlock& a : *r_) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(a.getTerminator());
      if (!br || !br->isConditional()) continue;
      for (unsigned k = 0; k < 2; ++k) {
        llvm::BasicBlock* exit = br->getSuccessor(k);
        if (is_error_exit(exit) && !is_error_exit(br->getSuccessor(1 - k))) {
          br->setSuccessor(k, br->getSuccessor(1 - k));
          cut.push_back({br, k, exit});
          break;
        }
      }
    }
    std::set<llvm::BasicBlock*> out = divergent_blocks_of_cfg();
    for (const Cut& x : cut) x.branch->setSuccessor(x.successor, x.exit);
    return out;
  }

  std::set<llvm::BasicBlock*> divergent_blocks_of_cfg() {
    std::set<llvm::BasicBlock*> out;
    llvm::PostDominatorTree pdt(*r_);
    for (llvm::BasicBlock& a : *r_) {
      llvm::Instruction* t = a.getTerminator();
      if (t->getNumSuccessors() < 2) continue;
      llvm::Value* cond = nullptr;
      if (auto* br = llvm::dyn_cast<llvm::BranchInst>(t))
        cond = br->getCondition();
      else if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t))
        cond = sw->getCondition();
      if (cond && depends_only(cond, Mode::Uniform)) continue;
      llvm::DomTreeNode* an = pdt.getNode(&a);
      llvm::DomTreeNode* stop = an ? an->getIDom() : nullptr;
      for (llvm::BasicBlock* succ : llvm::successors(&a))
        for (llvm::DomTreeNode* n = pdt.getNode(succ); n && n != stop; n = n->getIDom())
          if (n->getBlock()) out.insert(n->getBlock());
    }
    return out;
  }

  // A copy of the pure expression v (Remat) at the builder's point; loads of
  // rematerialized locals are replaced by their expressions.
  llvm::Value* clone_expr(llvm::Value* v, llvm::IRBuilder<>& b, std::map<llvm::Value*, llvm::Value*>& done) {
    if (llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::AllocaInst>(v)) return v;
    auto it = done.find(v);
    if (it != done.end()) return it->second;
    auto* i = llvm::cast<llvm::Instruction>(v);
    llvm::Value* r = nullptr;
    auto* l = llvm::dyn_cast<llvm::LoadInst>(i);
    auto store = l ? single_store_.find(l->getPointerOperand()) : single_store_.end();
    if (l && store != single_store_.end() && rematerialized_.count(l->getPointerOperand())) {
      r = clone_expr(store->second->getValueOperand(), b, done);
    } else {
      llvm::Instruction* c = i->clone();
      for (unsigned k = 0; k < c->getNumOperands(); ++k) c->setOperand(k, clone_expr(i->getOperand(k), b, done));
      b.Insert(c);
      r = c;
    }
    done[v] = r;
    return r;
  }

  // Marks the regions whose exits (the `ret`s reachable from the region's
  // start: barriers reached and returns) are all in blocks no divergent
  // branch controls, so every live thread leaves the region at the same
  // one. Such a region's loop needs no per-thread bookkeeping.
  void find_uniform_exits() {
    auto* sw = llvm::cast<llvm::SwitchInst>(r_->getEntryBlock().getTerminator());
    uniform_exit_.assign(barriers_.size() + 1, false);
    for (std::size_t k = 0; k <= barriers_.size(); ++k) {
      llvm::BasicBlock* start = k == 0 ? sw->getDefaultDest() : barriers_[k - 1].resume;
      std::set<llvm::BasicBlock*> seen;
      std::vector<llvm::BasicBlock*> work = {start};
      bool uniform = true;
      while (!work.empty() && uniform) {
        llvm::BasicBlock* bb = work.back();
        work.pop_back();
        if (!seen.insert(bb).second) continue;
        if (llvm::isa<llvm::ReturnInst>(bb->getTerminator())) {
          // An error exit ends the block (kReportedErrorExit): no other
          // thread goes on from it.
          if (!is_error_exit(bb)) uniform = !divergent_.count(bb);
          continue;
        }
        for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
      }
      uniform_exit_[k] = uniform;
    }
  }

  // Allocas live at some barrier: rematerialized at each resume point, moved
  // to a block slot, carried through block in/out slots (uniform locals) or
  // moved to per-thread storage.
  bool move_live_allocas() {
    llvm::BasicBlock* entry = &r_->getEntryBlock();
    const llvm::DataLayout& dl = m_.getDataLayout();
    std::map<llvm::AllocaInst*, std::vector<llvm::StoreInst*>> simple;
    std::vector<llvm::AllocaInst*> order;
    for (llvm::Instruction& i : *entry) {
      auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i);
      if (!a) continue;
      order.push_back(a);
      bool ok = true;
      std::vector<llvm::StoreInst*> stores;
      for (llvm::User* u : a->users()) {
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(u)) {
          if (l->getPointerOperand() != a) ok = false;
        } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u)) {
          if (s->getPointerOperand() != a || s->getValueOperand() == a) ok = false;
          stores.push_back(s);
        } else {
          ok = false;
        }
      }
      if (!ok) continue;
      simple[a] = stores;
      if (stores.size() == 1) single_store_[a] = stores[0];
    }
    // Liveness at each resume point, before anything is inserted.
    std::map<llvm::AllocaInst*, std::vector<size_t>> live_at;
    for (llvm::AllocaInst* a : order)
      for (size_t k = 0; k < barriers_.size(); ++k)
        if (!simple.count(a) || read_before_written(a, barriers_[k].resume)) live_at[a].push_back(k);

    for (auto& [a, st] : single_store_) fixed_.insert(a);
    shrink(fixed_,
           [&](llvm::AllocaInst* a) { return depends_only(single_store_.at(a)->getValueOperand(), Mode::Fixed); });
    for (auto& [a, st] : single_store_) rematerialized_.insert(a);
    shrink(rematerialized_,
           [&](llvm::AllocaInst* a) { return depends_only(single_store_.at(a)->getValueOperand(), Mode::Remat); });
    for (auto& [a, st] : simple)
      if (!fixed_.count(a)) uniform_.insert(a);
    std::set<llvm::BasicBlock*> divergent;
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& m : memo_) m.clear();
      divergent = divergent_blocks();
      for (auto it = uniform_.begin(); it != uniform_.end();) {
        bool ok = true;
        for (llvm::StoreInst* s : simple.at(const_cast<llvm::AllocaInst*>(llvm::cast<llvm::AllocaInst>(*it))))
          if (divergent.count(s->getParent()) || !depends_only(s->getValueOperand(), Mode::Uniform)) ok = false;
        if (!ok) {
          it = uniform_.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
    }
    divergent_ = divergent;

    std::uint64_t thread_bytes = 0;
    struct Move {
      llvm::AllocaInst* a;
      int kind;  // 0 per-thread, 1 block slot, 2 in/out, 3 rematerialized
    };
    std::vector<Move> moves;
    for (llvm::AllocaInst* a : order) {
      if (!live_at.count(a)) continue;
      int kind = 0;
      if (rematerialized_.count(a))
        kind = 3;
      else if (fixed_.count(a))
        kind = 1;
      else if (uniform_.count(a))
        kind = 2;
      else
        thread_bytes += dl.getTypeAllocSize(a->getAllocatedType());
      moves.push_back({a, kind});
    }
    if (thread_bytes > kMaxThreadFrameBytes) return false;

    llvm::IRBuilder<> ib(entry->getTerminator());
    llvm::Type* ptr = llvm::PointerType::get(c_, 0);
    auto frame_ptr = [&](const Storage& s) {
      size_t k = storage_.size();
      storage_.push_back(s);
      return ib.CreateAlignedLoad(ptr, ib.CreateConstInBoundsGEP1_64(ptr, frames_arg(), k), llvm::Align(8));
    };
    for (const Move& mv : moves) {
      llvm::AllocaInst* a = mv.a;
      llvm::Type* t = a->getAllocatedType();
      if (mv.kind == 3) {
        llvm::StoreInst* st = single_store_.at(a);
        for (size_t k : live_at.at(a)) {
          llvm::IRBuilder<> rb(&*barriers_[k].resume->getFirstInsertionPt());
          std::map<llvm::Value*, llvm::Value*> done;
          rb.CreateStore(clone_expr(st->getValueOperand(), rb, done), a);
        }
      } else if (mv.kind == 2) {
        // in: one block slot, read by every thread; out: another block slot
        // every thread that reaches a barrier writes (all with the same
        // value: the local is uniform), copied into `in` between regions.
        llvm::Value* in = frame_ptr({t, a->getAlign(), false, int(storage_.size()) + 1});
        llvm::Value* out = frame_ptr({t, a->getAlign(), false, -1});
        // Every region restores it and every barrier saves it: a region
        // that does not read it still carries it to the next one.
        for (size_t k = 0; k < barriers_.size(); ++k) {
          llvm::IRBuilder<> rb(&*barriers_[k].resume->getFirstInsertionPt());
          rb.CreateStore(rb.CreateLoad(t, in), a);
          llvm::IRBuilder<> pb(barrier_exits_[k]);
          pb.CreateStore(pb.CreateLoad(t, a), out);
        }
      } else {
        Storage s{t, a->getAlign(), mv.kind == 0, -1};
        llvm::Value* base = frame_ptr(s);
        llvm::Value* addr = s.per_thread ? ib.CreateInBoundsGEP(t, base, lin_arg()) : base;
        a->replaceAllUsesWith(addr);
        a->eraseFromParent();
      }
    }
    // ctx fields other than tid do not change while a block runs.
    for (llvm::BasicBlock& bb : *r_)
      for (llvm::Instruction& i : bb)
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i); l && is_ctx_field_load(l))
          l->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(c_, {}));
    return thread_bytes <= kMaxThreadFrameBytes;
  }

  llvm::Function* body_;
  llvm::Module& m_;
  llvm::LLVMContext& c_;
  llvm::Function* r_ = nullptr;
  unsigned nbody_ = 0;
  std::vector<Barrier> barriers_;
  std::vector<Storage> storage_;
  std::map<llvm::Instruction*, bool> memo_[3];
  std::set<const llvm::Value*> fixed_, uniform_, rematerialized_;
  std::set<llvm::BasicBlock*> divergent_;  // blocks under a divergent branch (before the moves)
  bool reports_errors_ = false;            // some return of R is an error exit
  std::vector<bool> uniform_exit_;         // per region (see uniform_exit)
  std::map<const llvm::Value*, llvm::StoreInst*> single_store_;
  std::vector<llvm::ReturnInst*> barrier_exits_;  // the `ret id` of each barrier
};

}  // namespace

bool build_resumable(llvm::Function* body, ResumableRegions* out) {
  Fission fission(body);
  if (!fission.build()) return false;
  out->resumable = fission.resumable();
  out->barriers = fission.barriers();
  out->storage = fission.storage();
  out->uniform_exit.clear();
  for (std::size_t k = 0; k <= out->barriers.size(); ++k) out->uniform_exit.push_back(fission.uniform_exit(k));
  out->reports_errors = fission.reports_errors();
  return true;
}

}  // namespace cuhost::codegen
