// The NRT runtime functions as IR in the kernel's own module (see nrt.h):
// a meminfo is {i64 refcount, ptr data, i64 size} at the start of one heap
// block whose rest holds the data, aligned; the heap is `malloc`/`free`
// (the CUDA device heap on the GPU; on the CPU the C library's, through
// cuhost_cpu_nrt_malloc/free). Allocations
// and frees bump the counters numba's rtsys reads when counting is on:
// {enabled, alloc, free, mi_alloc, mi_free}, i64 each, updated atomically;
// on the CPU they are the runtime's `cuhost_nrt_stats`, on the GPU a block
// of device memory whose address the loader writes into the module's
// `cuhost_nrt_stats_ptr` (null: nothing is counted).
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include "codegen/lowering/nrt.h"

namespace cuhost::codegen {

namespace {

enum Counter : unsigned { kEnabled = 0, kAlloc = 1, kFree = 2, kMiAlloc = 3, kMiFree = 4 };

// The heap: the device's malloc/free on the GPU, the runtime's wrappers of
// the C library's on the CPU (cpu/nrt_runtime.h).
llvm::FunctionCallee heap_alloc(llvm::Module& m, bool gpu) {
  llvm::LLVMContext& c = m.getContext();
  return m.getOrInsertFunction(
      gpu ? "malloc" : "cuhost_cpu_nrt_malloc",
      llvm::FunctionType::get(llvm::PointerType::get(c, 0), {llvm::Type::getInt64Ty(c)}, false));
}

llvm::FunctionCallee heap_free(llvm::Module& m, bool gpu) {
  llvm::LLVMContext& c = m.getContext();
  return m.getOrInsertFunction(
      gpu ? "free" : "cuhost_cpu_nrt_free",
      llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::get(c, 0)}, false));
}

// The counters' address (generic pointer), null when there are none.
llvm::Value* stats_block(llvm::IRBuilder<>& b, llvm::Module& m, bool gpu) {
  llvm::LLVMContext& c = m.getContext();
  llvm::Type* block = llvm::ArrayType::get(llvm::Type::getInt64Ty(c), 5);
  if (!gpu) {
    llvm::GlobalVariable* g = m.getGlobalVariable(kNrtStatsSymbol);
    if (!g) g = new llvm::GlobalVariable(m, block, false, llvm::GlobalValue::ExternalLinkage, nullptr, kNrtStatsSymbol);
    return g;
  }
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::GlobalVariable* g = m.getGlobalVariable(kNrtStatsPointerSymbol);
  if (!g) {
    g = new llvm::GlobalVariable(m, ptr, false, llvm::GlobalValue::ExternalLinkage,
                                 llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr)),
                                 kNrtStatsPointerSymbol, nullptr, llvm::GlobalValue::NotThreadLocal, 1);
    g->setAlignment(llvm::Align(8));
  }
  llvm::Value* generic = b.CreateAddrSpaceCast(g, ptr);
  auto* load = b.CreateLoad(ptr, generic, "nrt.stats");
  load->setVolatile(true);  // written by the host after the module is loaded
  return load;
}

// Adds 1 to counter `which` when counting is on: void cuhost_nrt_count(i32 which).
llvm::Function* count_fn(llvm::Module& m, bool gpu) {
  const char* name = "cuhost_nrt_count";
  if (llvm::Function* f = m.getFunction(name)) return f;
  llvm::LLVMContext& c = m.getContext();
  auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::Type::getInt32Ty(c)}, false);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  auto* entry = llvm::BasicBlock::Create(c, "entry", f);
  auto* counting = llvm::BasicBlock::Create(c, "counting", f);
  auto* add = llvm::BasicBlock::Create(c, "add", f);
  auto* done = llvm::BasicBlock::Create(c, "done", f);
  llvm::IRBuilder<> b(entry);
  llvm::Value* block = stats_block(b, m, gpu);
  b.CreateCondBr(b.CreateIsNull(block), done, counting);
  b.SetInsertPoint(counting);
  auto* enabled = b.CreateLoad(b.getInt64Ty(), block, "enabled");
  enabled->setVolatile(true);  // switched by rtsys between launches
  b.CreateCondBr(b.CreateICmpEQ(enabled, b.getInt64(0)), done, add);
  b.SetInsertPoint(add);
  llvm::Value* slot = b.CreateGEP(b.getInt64Ty(), block, b.CreateZExt(f->getArg(0), b.getInt64Ty()));
  b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, slot, b.getInt64(1), llvm::Align(8), llvm::AtomicOrdering::Monotonic);
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

// Defines the NRT function `name` once per module; `write(f)` writes its
// body. A declaration already there (foreign code linked in calls it) is
// replaced by the definition, as a linker would resolve it.
template <typename Write>
llvm::Function* define_once(llvm::Module& m, const char* name, llvm::FunctionType* fty, Write&& write) {
  llvm::Function* old = m.getFunction(name);
  if (old && !old->isDeclaration()) return old;
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, std::string(name) + (old ? ".def" : ""), m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  // Calls stay calls (numba's PTX shows call.uni to each of them).
  f->addFnAttr(llvm::Attribute::NoInline);
  write(f);
  if (old) {
    old->replaceAllUsesWith(f);
    old->eraseFromParent();
    f->setName(name);
  }
  return f;
}

// NRT_incref / NRT_decref / NRT_Free: `void name(pointer)`, doing nothing
// for a null pointer; `body` writes the non-null case at b and branches to
// `done`.
template <typename Body>
llvm::Function* null_checked_function(llvm::Module& m, const char* name, Body&& body) {
  llvm::LLVMContext& c = m.getContext();
  auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::get(c, 0)}, false);
  return define_once(m, name, fty, [&](llvm::Function* f) {
    auto* entry = llvm::BasicBlock::Create(c, "entry", f);
    auto* live = llvm::BasicBlock::Create(c, "live", f);
    auto* done = llvm::BasicBlock::Create(c, "done", f);
    llvm::IRBuilder<> b(entry);
    b.CreateCondBr(b.CreateIsNull(f->getArg(0)), done, live);
    b.SetInsertPoint(live);
    body(b, f->getArg(0), done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
  });
}

}  // namespace

void drop_unreferenced_nrt_stats(llvm::Module& m) {
  llvm::GlobalVariable* g = m.getNamedGlobal(kNrtStatsPointerSymbol);
  if (g && g->use_empty()) g->eraseFromParent();
}

llvm::Value* nrt_meminfo_data(llvm::IRBuilder<>& b, llvm::Value* meminfo) {
  llvm::Value* field = b.CreateGEP(b.getInt8Ty(), meminfo, b.getInt64(8));
  return b.CreateLoad(b.getPtrTy(), field, "nrt.data");
}

llvm::Function* nrt_meminfo_alloc(llvm::Module& m, bool gpu) {
  llvm::LLVMContext& c = m.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  auto* fty = llvm::FunctionType::get(ptr, {llvm::Type::getInt64Ty(c), llvm::Type::getInt32Ty(c)}, false);
  return define_once(m, "NRT_MemInfo_alloc_aligned", fty, [&](llvm::Function* f) {
    auto* entry = llvm::BasicBlock::Create(c, "entry", f);
    auto* ok = llvm::BasicBlock::Create(c, "ok", f);
    auto* failed = llvm::BasicBlock::Create(c, "failed", f);
    llvm::IRBuilder<> b(entry);
    llvm::Value* size = f->getArg(0);
    llvm::Value* align = b.CreateZExt(f->getArg(1), b.getInt64Ty());
    // header (24 bytes) + data + room to align the data
    llvm::Value* total = b.CreateAdd(b.CreateAdd(size, b.getInt64(24)), align);
    llvm::Value* raw = b.CreateCall(heap_alloc(m, gpu), {total}, "raw");
    b.CreateCondBr(b.CreateIsNull(raw), failed, ok);
    b.SetInsertPoint(failed);
    b.CreateRet(llvm::ConstantPointerNull::get(b.getPtrTy()));
    b.SetInsertPoint(ok);
    llvm::Function* count = count_fn(m, gpu);
    b.CreateCall(count, {b.getInt32(kAlloc)});
    b.CreateCall(count, {b.getInt32(kMiAlloc)});
    llvm::Value* start = b.CreatePtrToInt(b.CreateGEP(b.getInt8Ty(), raw, b.getInt64(24)), b.getInt64Ty());
    llvm::Value* mask =
        b.CreateSub(b.CreateSelect(b.CreateICmpEQ(align, b.getInt64(0)), b.getInt64(1), align), b.getInt64(1));
    llvm::Value* aligned = b.CreateAnd(b.CreateAdd(start, mask), b.CreateNot(mask));
    llvm::Value* data = b.CreateGEP(b.getInt8Ty(), raw, b.CreateSub(aligned, b.CreatePtrToInt(raw, b.getInt64Ty())));
    b.CreateStore(b.getInt64(1), raw);
    b.CreateStore(data, b.CreateGEP(b.getInt8Ty(), raw, b.getInt64(8)));
    b.CreateStore(size, b.CreateGEP(b.getInt8Ty(), raw, b.getInt64(16)));
    b.CreateRet(raw);
  });
}

llvm::Function* nrt_incref(llvm::Module& m, bool gpu) {
  (void)gpu;
  return null_checked_function(m, "NRT_incref", [](llvm::IRBuilder<>& b, llvm::Value* meminfo, llvm::BasicBlock* done) {
    b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, meminfo, b.getInt64(1), llvm::Align(8),
                      llvm::AtomicOrdering::Monotonic);
    b.CreateBr(done);
  });
}

llvm::Function* nrt_decref(llvm::Module& m, bool gpu) {
  return null_checked_function(
      m, "NRT_decref", [&](llvm::IRBuilder<>& b, llvm::Value* meminfo, llvm::BasicBlock* done) {
        llvm::Function* f = b.GetInsertBlock()->getParent();
        auto* release = llvm::BasicBlock::Create(m.getContext(), "release", f, done);
        llvm::Value* old = b.CreateAtomicRMW(llvm::AtomicRMWInst::Sub, meminfo, b.getInt64(1), llvm::Align(8),
                                             llvm::AtomicOrdering::AcquireRelease);
        b.CreateCondBr(b.CreateICmpEQ(old, b.getInt64(1)), release, done);
        b.SetInsertPoint(release);  // the last reference: the block (meminfo and data) goes back to the heap
        b.CreateCall(heap_free(m, gpu), {meminfo});
        llvm::Function* count = count_fn(m, gpu);
        b.CreateCall(count, {b.getInt32(kFree)});
        b.CreateCall(count, {b.getInt32(kMiFree)});
        b.CreateBr(done);
      });
}

llvm::Function* nrt_allocate(llvm::Module& m, bool gpu) {
  llvm::LLVMContext& c = m.getContext();
  auto* fty = llvm::FunctionType::get(llvm::PointerType::get(c, 0), {llvm::Type::getInt64Ty(c)}, false);
  return define_once(m, "NRT_Allocate", fty, [&](llvm::Function* f) {
    auto* entry = llvm::BasicBlock::Create(c, "entry", f);
    auto* ok = llvm::BasicBlock::Create(c, "ok", f);
    auto* done = llvm::BasicBlock::Create(c, "done", f);
    llvm::IRBuilder<> b(entry);
    llvm::Value* raw = b.CreateCall(heap_alloc(m, gpu), {f->getArg(0)}, "raw");
    b.CreateCondBr(b.CreateIsNull(raw), done, ok);
    b.SetInsertPoint(ok);
    b.CreateCall(count_fn(m, gpu), {b.getInt32(kAlloc)});
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRet(raw);
  });
}

llvm::Function* nrt_free(llvm::Module& m, bool gpu) {
  return null_checked_function(m, "NRT_Free", [&](llvm::IRBuilder<>& b, llvm::Value* raw, llvm::BasicBlock* done) {
    b.CreateCall(heap_free(m, gpu), {raw});
    b.CreateCall(count_fn(m, gpu), {b.getInt32(kFree)});
    b.CreateBr(done);
  });
}

}  // namespace cuhost::codegen
