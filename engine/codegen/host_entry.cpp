// The host entry of a jitted function (host_entry.h): arguments come from
// 8-byte slots, the body runs with a one-thread CPU context of its own, and
// the result is spread into 8-byte slots for the Python side to box.
#include "codegen/host_entry.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>

#include "codegen/lowering/lowerer.h"
#include "codegen/module.h"
#include "model/cpu_abi.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

int host_slot_count(const ir::Type* t) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::NoneType:
    case K::Void: return 0;
    case K::Boolean:
    case K::Integer:
    case K::CPointer:
    case K::Record: return 1;
    case K::Float: return 1;
    case K::Complex: return 2;
    case K::Array: return 1 + 2 * t->ndim;
    case K::Tuple: {
      int n = 0;
      for (const ir::Type* e : t->elements) {
        int c = host_slot_count(e);
        if (c < 0) return -1;
        n += c;
      }
      return n;
    }
    case K::Optional: {
      int c = host_slot_count(t->pointee);
      return c < 0 ? -1 : 1 + c;
    }
    case K::EnumMember: return host_slot_count(t->pointee);  // its value
    default: return -1;
  }
}

std::string host_boundary_refusal(const ir::Type* t) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::Tuple:
      for (const ir::Type* e : t->elements)
        if (host_slot_count(e) < 0) return host_boundary_refusal(e);
      return "";
    case K::Optional:
    case K::EnumMember: return host_boundary_refusal(t->pointee);
    case K::Extension: return concat("values of the extension type ", t->str(), " cannot be boxed or unboxed");
    default:
      if (host_slot_count(t) >= 0) return "";
      return concat("values of type ", t->str(), " cannot cross between Python and compiled code");
  }
}

namespace {

class SlotReader {
 public:
  SlotReader(llvm::IRBuilder<>& b, llvm::Value* base) : b_(b), base_(base) {}

  llvm::Value* read(const ir::Type* t) {
    using K = ir::TypeKind;
    llvm::LLVMContext& c = b_.getContext();
    switch (t->kind) {
      case K::NoneType:
      case K::Void: return llvm::Constant::getNullValue(llvm_type_of(c, t));
      case K::Boolean: return b_.CreateICmpNE(load(b_.getInt8Ty()), b_.getInt8(0));
      case K::Complex: {
        llvm::Value* agg = llvm::UndefValue::get(llvm_type_of(c, t));
        llvm::Type* f = t->bits == 64 ? b_.getFloatTy() : b_.getDoubleTy();
        agg = b_.CreateInsertValue(agg, load(f), {0});
        return b_.CreateInsertValue(agg, load(f), {1});
      }
      case K::Array: {
        llvm::Value* agg = llvm::UndefValue::get(llvm_type_of(c, t));
        agg = b_.CreateInsertValue(agg, load(b_.getPtrTy()), {0});
        for (unsigned d = 0; d < unsigned(t->ndim); ++d) agg = b_.CreateInsertValue(agg, load(b_.getInt64Ty()), {1, d});
        for (unsigned d = 0; d < unsigned(t->ndim); ++d) agg = b_.CreateInsertValue(agg, load(b_.getInt64Ty()), {2, d});
        return agg;
      }
      case K::Tuple: {
        llvm::Value* agg = llvm::UndefValue::get(llvm_type_of(c, t));
        for (unsigned i = 0; i < t->elements.size(); ++i) agg = b_.CreateInsertValue(agg, read(t->elements[i]), {i});
        return agg;
      }
      case K::EnumMember: return read(t->pointee);  // its value
      default: return load(llvm_type_of(c, t));
    }
  }

 private:
  llvm::Value* load(llvm::Type* type) {
    llvm::Value* p = b_.CreateConstInBoundsGEP1_64(b_.getInt64Ty(), base_, next_++);
    return b_.CreateAlignedLoad(type, p, llvm::Align(8));
  }

  llvm::IRBuilder<>& b_;
  llvm::Value* base_;
  std::uint64_t next_ = 0;
};

class SlotWriter {
 public:
  SlotWriter(llvm::IRBuilder<>& b, llvm::Value* base) : b_(b), base_(base) {}

  void write(llvm::Value* v, const ir::Type* t) {
    using K = ir::TypeKind;
    switch (t->kind) {
      case K::NoneType:
      case K::Void: return;
      case K::Boolean: store(b_.CreateZExt(v, b_.getInt64Ty())); return;
      case K::Complex:
        store(b_.CreateExtractValue(v, {0}));
        store(b_.CreateExtractValue(v, {1}));
        return;
      case K::Array:
        store(b_.CreateExtractValue(v, {0}));
        for (unsigned d = 0; d < unsigned(t->ndim); ++d) store(b_.CreateExtractValue(v, {1, d}));
        for (unsigned d = 0; d < unsigned(t->ndim); ++d) store(b_.CreateExtractValue(v, {2, d}));
        return;
      case K::Tuple:
        for (unsigned i = 0; i < t->elements.size(); ++i) write(b_.CreateExtractValue(v, {i}), t->elements[i]);
        return;
      case K::Optional:
        store(b_.CreateZExt(b_.CreateExtractValue(v, {0}), b_.getInt64Ty()));
        write(b_.CreateExtractValue(v, {1}), t->pointee);
        return;
      case K::EnumMember: write(v, t->pointee); return;  // its value
      default: store(v); return;
    }
  }

 private:
  void store(llvm::Value* v) {
    llvm::Value* p = b_.CreateConstInBoundsGEP1_64(b_.getInt64Ty(), base_, next_++);
    // Narrow values fill the low bytes of a zeroed slot (little-endian hosts).
    if (v->getType()->isIntegerTy() && v->getType()->getIntegerBitWidth() < 64) v = b_.CreateZExt(v, b_.getInt64Ty());
    if (!v->getType()->isIntegerTy(64) && !v->getType()->isPointerTy())
      b_.CreateAlignedStore(b_.getInt64(0), p, llvm::Align(8));
    b_.CreateAlignedStore(v, p, llvm::Align(8));
  }

  llvm::IRBuilder<>& b_;
  llvm::Value* base_;
  std::uint64_t next_ = 0;
};

// A CuhostThreadCtx of one thread in a one-thread grid (model/cpu_abi.h), on
// the entry's stack: what the body's context parameters need when no
// launch runs it.
llvm::Value* one_thread_context(llvm::IRBuilder<>& b) {
  llvm::Type* bytes = llvm::ArrayType::get(b.getInt8Ty(), sizeof(CuhostThreadCtx));
  llvm::AllocaInst* ctx = b.CreateAlloca(bytes, nullptr, "ctx");
  ctx->setAlignment(llvm::Align(alignof(CuhostThreadCtx)));
  b.CreateMemSet(ctx, b.getInt8(0), sizeof(CuhostThreadCtx), llvm::Align(alignof(CuhostThreadCtx)));
  for (std::size_t offset : {offsetof(CuhostThreadCtx, bdim), offsetof(CuhostThreadCtx, gdim)})
    for (int axis = 0; axis < 3; ++axis)
      b.CreateAlignedStore(b.getInt32(1), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, offset + 4 * axis),
                           llvm::Align(4));
  return ctx;
}

}  // namespace

void emit_host_entry(LoweredModule& out, ModuleState& state, const ModuleRequest& r) {
  llvm::Module& m = *out.module;
  llvm::LLVMContext& c = m.getContext();
  const sema::TypedFunction& tf = *r.typed;
  CUHOST_CHECK(!state.hooks->is_gpu()) << "host entries are compiled for the host";
  llvm::Function* impl = state.function_for(r.typed);
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  std::string name = (tf.symbol.empty() ? tf.captured->name : tf.symbol) + kHostEntrySuffix;
  auto* f = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getInt32Ty(c), {ptr, ptr}, false),
                                   llvm::GlobalValue::ExternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addParamAttr(0, llvm::Attribute::NoAlias);
  f->addParamAttr(1, llvm::Attribute::NoAlias);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
  llvm::Value* ctx = one_thread_context(b);
  SlotReader reader(b, f->getArg(0));
  std::vector<llvm::Value*> args;
  for (const ir::Type* a : tf.arg_types) args.push_back(reader.read(a));
  // The context parameters: the context, then thread index (0, 0, 0).
  std::vector<llvm::Type*> context_types = state.hooks->context_param_types(m);
  for (size_t i = 0; i < context_types.size(); ++i)
    args.push_back(i == 0 ? ctx : llvm::Constant::getNullValue(context_types[i]));
  bool void_ret = is_void_type(tf.return_type);
  llvm::AllocaInst* slot = tf.raises && !void_ret ? b.CreateAlloca(llvm_type_of(c, tf.return_type)) : nullptr;
  InternalCall call = call_internal(b, impl, tf, args, slot);
  if (!void_ret) SlotWriter(b, f->getArg(1)).write(call.result, tf.return_type);
  b.CreateRet(call.status ? call.status : b.getInt32(0));
  out.entry_symbol = name;
  out.keep.push_back(name);
}

}  // namespace cuhost::codegen
