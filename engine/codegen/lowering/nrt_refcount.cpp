// Reference counting of NRT arrays in the lowering (see nrt.h): the
// meminfo field of array values, NRT_incref/NRT_decref on every array a
// value holds, and the Lowerer's ownership rules: variables own a
// reference, statements release the new references they made (temps), and
// exits release the variables (lowerer.cpp's statement and return lowering
// call these).
#include "codegen/lowering/nrt.h"

#include <set>

#include "codegen/debug_info.h"

namespace cuhost::codegen {

namespace {
thread_local bool t_meminfo = false;

bool gpu_module(Lowerer& l) { return l.hooks().is_gpu(); }

// Calls `fn` on the meminfo of every array in `v` (arrays nested in tuples too).
void each_meminfo(Lowerer& l, llvm::Value* v, const ir::Type* t, llvm::Function* fn) {
  if (t->is_array()) {
    auto& b = l.b();
    llvm::Value* meminfo = b.CreateExtractValue(v, {kMeminfoField});
    if (auto* c = llvm::dyn_cast<llvm::Constant>(meminfo); c && c->isNullValue()) return;
    // The null test inline, so that arrays known to own nothing (kernel
    // arguments, local arrays) cost no call once the optimizer sees it.
    llvm::Function* f = b.GetInsertBlock()->getParent();
    auto* call = llvm::BasicBlock::Create(l.ctx(), "nrt.ref", f);
    auto* done = llvm::BasicBlock::Create(l.ctx(), "nrt.ref.done", f);
    b.CreateCondBr(b.CreateIsNull(meminfo), done, call);
    b.SetInsertPoint(call);
    b.CreateCall(fn, {meminfo});
    b.CreateBr(done);
    b.SetInsertPoint(done);
    return;
  }
  if (t->is_tuple()) {
    for (unsigned i = 0; i < t->elements.size(); ++i)
      if (holds_references(t->elements[i])) each_meminfo(l, l.b().CreateExtractValue(v, {i}), t->elements[i], fn);
    return;
  }
  if (t->kind == ir::TypeKind::Optional) {  // {valid, payload}: a None holds nothing
    auto& b = l.b();
    llvm::Function* f = b.GetInsertBlock()->getParent();
    auto* some = llvm::BasicBlock::Create(l.ctx(), "nrt.some", f);
    auto* done = llvm::BasicBlock::Create(l.ctx(), "nrt.some.done", f);
    b.CreateCondBr(b.CreateExtractValue(v, {0}), some, done);
    b.SetInsertPoint(some);
    each_meminfo(l, b.CreateExtractValue(v, {1}), t->pointee, fn);
    b.CreateBr(done);
    b.SetInsertPoint(done);
  }
}

}  // namespace

bool arrays_carry_meminfo() { return t_meminfo; }
MeminfoLayoutScope::MeminfoLayoutScope(bool enabled) : previous_(t_meminfo) { t_meminfo = enabled; }
MeminfoLayoutScope::~MeminfoLayoutScope() { t_meminfo = previous_; }

bool holds_references(const ir::Type* t) {
  if (!t_meminfo || !t) return false;
  if (t->is_array()) return true;
  if (t->kind == ir::TypeKind::Optional) return holds_references(t->pointee);
  if (t->is_tuple())
    for (const ir::Type* e : t->elements)
      if (holds_references(e)) return true;
  return false;
}

llvm::Value* keep_meminfo(Lowerer& l, llvm::Value* view, llvm::Value* base) {
  if (!t_meminfo) return view;
  return l.b().CreateInsertValue(view, l.b().CreateExtractValue(base, {kMeminfoField}), {kMeminfoField});
}

void incref_value(Lowerer& l, Val v) {
  if (!v.v || !holds_references(v.t)) return;
  each_meminfo(l, v.v, v.t, nrt_incref(l.module(), gpu_module(l)));
}

void decref_value(Lowerer& l, Val v) {
  if (!v.v || !holds_references(v.t)) return;
  each_meminfo(l, v.v, v.t, nrt_decref(l.module(), gpu_module(l)));
}

void Lowerer::own_temp(Val v) {
  if (holds_references(v.t) && v.v) temps_.push_back(v);
}

void Lowerer::release_temps(size_t from) {
  for (size_t k = from; k < temps_.size(); ++k) decref_value(*this, temps_[k]);
}

bool Lowerer::slot_owns_references(const std::string& name) {
  const ir::Type* t = tf_.locals.at(name);
  if (!holds_references(t)) return false;
  if (!state_.debug_info || !state_.debug_info->full()) return true;
  // debug=True: the versions of a variable share one slot; where they differ
  // in type, what it holds is not known to be this version's references
  // (they are then never released: a leak, never a bad free).
  // (Arrays of one rank share a layout, whatever their dtypes.)
  auto same_layout = [t](const ir::Type* o) {
    return o == t || (o->is_array() && t->is_array() && o->ndim == t->ndim);
  };
  llvm::Value* slot = local_slot(name);
  for (const auto& [other, ot] : tf_.locals)
    if (!same_layout(ot) && local_slot(other) == slot) return false;
  return true;
}

void Lowerer::release_locals() {
  if (!state_.options.nrt) return;
  std::set<llvm::Value*> done;  // debug=True: the versions of a variable share one slot
  for (const auto& [name, t] : tf_.locals) {
    if (!slot_owns_references(name)) continue;
    llvm::Value* slot = local_slot(name);
    if (!done.insert(slot).second) continue;
    decref_value(*this, {builder_.CreateLoad(llvm_type(t), slot), t});
  }
}

}  // namespace cuhost::codegen
