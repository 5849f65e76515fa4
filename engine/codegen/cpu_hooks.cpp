// TargetHooks for the host: thread indices arrive as trailing parameters
// (ctx, tid.x, tid.y, tid.z) so the block loop can pass loop variables;
// block/grid sizes come from CuhostThreadCtx; barriers and warp operations
// call the cuhost_cpu_* runtime (model/cpu_abi.h); math goes to LLVM
// intrinsics or libm; static shared arrays are laid out at fixed offsets of
// ctx->shared; a failed check reports through the runtime and returns.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <set>

#include "codegen/lowering/lowerer.h"
#include "model/cpu_abi.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

// Byte offsets of CuhostThreadCtx fields (model/cpu_abi.h).
constexpr int kTidOffset = 0;
constexpr int kBidOffset = 12;
constexpr int kBdimOffset = 24;
constexpr int kGdimOffset = 36;
constexpr int kSharedOffset = 48;
constexpr int kDynamicSharedOffset = 56;
constexpr int kDynamicSharedBytesOffset = 72;

// Typing bounds alignment= by kCuhostCpuSharedAlign (sema/typing/arrays.cpp).
void check_shared_alignment(std::int64_t align) {
  CUHOST_CHECK(align <= kCuhostCpuSharedAlign)
      << "shared array alignment " << align << " above the CPU backend's " << kCuhostCpuSharedAlign;
}

class CpuHooks : public TargetHooks {
 public:
  bool is_gpu() const override { return false; }
  std::vector<llvm::Type*> context_param_types(llvm::Module& m) const override {
    llvm::LLVMContext& c = m.getContext();
    llvm::Type* i32 = llvm::Type::getInt32Ty(c);
    return {llvm::PointerType::get(c, 0), i32, i32, i32};
  }

  llvm::Value* ctx(Lowerer& l) { return l.context_args().at(0); }
  llvm::Value* field_i32(Lowerer& l, int offset) {
    llvm::Value* p = l.b().CreateConstInBoundsGEP1_64(l.b().getInt8Ty(), ctx(l), std::uint64_t(offset));
    auto* load = l.b().CreateAlignedLoad(l.b().getInt32Ty(), p, llvm::Align(4));
    return load;
  }
  llvm::Value* field_ptr(Lowerer& l, int offset) {
    llvm::Value* p = l.b().CreateConstInBoundsGEP1_64(l.b().getInt8Ty(), ctx(l), std::uint64_t(offset));
    return l.b().CreateAlignedLoad(l.b().getPtrTy(), p, llvm::Align(8));
  }

  llvm::FunctionCallee runtime(Lowerer& l, const char* name, llvm::Type* ret, std::vector<llvm::Type*> params) {
    return l.module().getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
  }
  // A failed check's report reads the context and its string arguments and
  // records into runtime state the module cannot see (cpu/runtime_abi.cpp):
  // saying so lets the optimizer keep context fields (block index, block
  // size) and array extents in registers across a loop holding checks,
  // which makes the checks analyzable and hoistable (cpu_check_hoisting.h).
  llvm::FunctionCallee error_reporter(Lowerer& l, const char* name, std::vector<llvm::Type*> params) {
    llvm::FunctionCallee fn = runtime(l, name, l.b().getVoidTy(), std::move(params));
    if (auto* f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
      f->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref) |
                          llvm::MemoryEffects::inaccessibleMemOnly());
      f->setDoesNotThrow();
      f->addFnAttr(llvm::Attribute::Cold);
    }
    return fn;
  }

  llvm::Value* linear_tid(Lowerer& l) {
    auto& b = l.b();
    llvm::Value* bx = field_i32(l, kBdimOffset);
    llvm::Value* by = field_i32(l, kBdimOffset + 4);
    const auto& a = l.context_args();
    return b.CreateAdd(a[1], b.CreateMul(b.CreateAdd(a[2], b.CreateMul(a[3], by)), bx));
  }

  llvm::Value* special_reg(Lowerer& l, SpecialReg reg, int axis) override {
    switch (reg) {
      case SpecialReg::Tid: return l.context_args().at(1 + axis);
      case SpecialReg::Bid: return field_i32(l, kBidOffset + 4 * axis);
      case SpecialReg::Bdim: return field_i32(l, kBdimOffset + 4 * axis);
      case SpecialReg::Gdim: return field_i32(l, kGdimOffset + 4 * axis);
      case SpecialReg::LaneId: return l.b().CreateAnd(linear_tid(l), l.i32(31));
      case SpecialReg::WarpSize: return l.i32(32);
    }
    return nullptr;
  }

  void syncthreads(Lowerer& l) override {
    l.b().CreateCall(runtime(l, "cuhost_cpu_syncthreads", l.b().getVoidTy(), {l.b().getPtrTy()}), {ctx(l)});
  }
  llvm::Value* syncthreads_op(Lowerer& l, BarrierOp op, llvm::Value* pred) override {
    const char* name = op == BarrierOp::Count ? "cuhost_cpu_syncthreads_count"
                       : op == BarrierOp::And ? "cuhost_cpu_syncthreads_and"
                                              : "cuhost_cpu_syncthreads_or";
    auto& b = l.b();
    return b.CreateCall(runtime(l, name, b.getInt32Ty(), {b.getPtrTy(), b.getInt32Ty()}), {ctx(l), pred});
  }
  void syncwarp(Lowerer& l, llvm::Value* mask) override {
    auto& b = l.b();
    b.CreateCall(runtime(l, "cuhost_cpu_syncwarp", b.getVoidTy(), {b.getPtrTy(), b.getInt32Ty()}), {ctx(l), mask});
  }
  llvm::Value* shfl(Lowerer& l, ShflMode mode, llvm::Value* mask, llvm::Value* value, llvm::Value* lane) override {
    auto& b = l.b();
    llvm::Type* t = value->getType();
    unsigned bits = t->getPrimitiveSizeInBits();
    llvm::Value* as_int = t->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(bits));
    llvm::Value* wide = bits < 64 ? b.CreateZExt(as_int, b.getInt64Ty()) : as_int;
    auto fn = runtime(l, "cuhost_cpu_shfl", b.getInt64Ty(),
                      {b.getPtrTy(), b.getInt32Ty(), b.getInt64Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()});
    llvm::Value* r = b.CreateCall(fn, {ctx(l), mask, wide, lane, l.i32(32), l.i32(int(mode))});
    if (bits < 64) r = b.CreateTrunc(r, b.getIntNTy(bits));
    return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
  }
  llvm::Value* vote(Lowerer& l, VoteMode mode, llvm::Value* mask, llvm::Value* pred) override {
    auto& b = l.b();
    auto fn =
        runtime(l, "cuhost_cpu_vote", b.getInt32Ty(), {b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()});
    llvm::Value* r = b.CreateCall(fn, {ctx(l), mask, b.CreateZExt(pred, b.getInt32Ty()), l.i32(int(mode))});
    return mode == VoteMode::Ballot ? r : b.CreateICmpNE(r, l.i32(0));
  }
  llvm::Value* activemask(Lowerer& l) override {
    auto& b = l.b();
    llvm::FunctionCallee fn = runtime(l, "cuhost_cpu_activemask", b.getInt32Ty(), {b.getPtrTy(), b.getInt32Ty()});
    // Each call is its own site: lanes in different branches must not share a mask.
    auto* f = llvm::cast<llvm::Function>(fn.getCallee());
    return b.CreateCall(fn, {ctx(l), l.i32(static_cast<std::int32_t>(f->getNumUses()))});
  }
  llvm::Value* lanemask_lt(Lowerer& l) override {
    auto& b = l.b();
    llvm::Value* lane = special_reg(l, SpecialReg::LaneId, 0);
    return b.CreateSub(b.CreateShl(l.i32(1), lane), l.i32(1));
  }
  void fence(Lowerer& l, FenceScope) override { l.b().CreateFence(llvm::AtomicOrdering::SequentiallyConsistent); }

  llvm::Value* math(Lowerer& l, const std::string& name, const std::vector<llvm::Value*>& args) override {
    auto& b = l.b();
    llvm::Type* t = args.at(0)->getType();
    static const std::map<std::string, llvm::Intrinsic::ID> unary = {
        {"sqrt", llvm::Intrinsic::sqrt},   {"sin", llvm::Intrinsic::sin},     {"cos", llvm::Intrinsic::cos},
        {"exp", llvm::Intrinsic::exp},     {"exp2", llvm::Intrinsic::exp2},   {"log", llvm::Intrinsic::log},
        {"log2", llvm::Intrinsic::log2},   {"log10", llvm::Intrinsic::log10}, {"fabs", llvm::Intrinsic::fabs},
        {"floor", llvm::Intrinsic::floor}, {"ceil", llvm::Intrinsic::ceil},   {"trunc", llvm::Intrinsic::trunc}};
    static const std::map<std::string, llvm::Intrinsic::ID> binary = {{"pow", llvm::Intrinsic::pow},
                                                                      {"copysign", llvm::Intrinsic::copysign},
                                                                      {"fmin", llvm::Intrinsic::minnum},
                                                                      {"fmax", llvm::Intrinsic::maxnum}};
    if (args.size() == 1) {
      auto it = unary.find(name);
      if (it != unary.end()) return b.CreateUnaryIntrinsic(it->second, args[0]);
    } else if (args.size() == 2) {
      auto it = binary.find(name);
      if (it != binary.end()) return b.CreateBinaryIntrinsic(it->second, args[0], args[1]);
      if (name == "fmod") return b.CreateFRem(args[0], args[1]);
    }
    std::string fn = name + (t->isFloatTy() ? "f" : "");
    std::vector<llvm::Type*> ps(args.size(), t);
    auto callee = l.module().getOrInsertFunction(fn, llvm::FunctionType::get(t, ps, false));
    return b.CreateCall(callee, args);
  }

  // NVIDIA's libdevice itself, compiled for the host (host_libdevice.h).
  llvm::Value* libdevice(Lowerer& l, const std::string& name, llvm::Type* ret,
                         const std::vector<llvm::Value*>& args) override {
    std::vector<llvm::Type*> ps;
    for (llvm::Value* a : args) ps.push_back(a->getType());
    llvm::FunctionCallee callee =
        l.module().getOrInsertFunction("__nv_" + name, llvm::FunctionType::get(ret, ps, false));
    return l.b().CreateCall(callee, args);
  }

  llvm::Value* shared_array(Lowerer& l, llvm::Type* elem, std::int64_t count, int align) override {
    check_shared_alignment(align);
    std::int64_t size = std::int64_t(l.module().getDataLayout().getTypeAllocSize(elem)) * count;
    std::int64_t& top = l.state().static_shared_bytes;
    std::int64_t offset = (top + align - 1) / align * align;
    top = offset + size;
    return l.b().CreateInBoundsGEP(l.b().getInt8Ty(), field_ptr(l, kSharedOffset), l.i64(offset));
  }
  llvm::Value* dynamic_shared(Lowerer& l, std::int64_t align) override {
    check_shared_alignment(align);  // the start is rounded up to it (static_shared_bytes)
    return field_ptr(l, kDynamicSharedOffset);
  }
  llvm::Value* dynamic_shared_bytes(Lowerer& l) override {
    llvm::Value* p =
        l.b().CreateConstInBoundsGEP1_64(l.b().getInt8Ty(), ctx(l), std::uint64_t(kDynamicSharedBytesOffset));
    return l.b().CreateAlignedLoad(l.b().getInt64Ty(), p, llvm::Align(8));
  }

  llvm::Value* const_array(Lowerer& l, const ir::ArrayConstant& data, const std::string& name) override {
    llvm::Constant* init = llvm::ConstantDataArray::get(l.ctx(), llvm::ArrayRef<std::uint8_t>(data.data));
    auto* g = new llvm::GlobalVariable(l.module(), init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                       "const." + name);
    g->setAlignment(llvm::Align(16));
    return g;
  }

  // The block loop does not keep ctx->tid current; error paths store it so
  // the runtime can name the failing thread.
  void store_tid(Lowerer& l) {
    auto& b = l.b();
    for (int a = 0; a < 3; ++a) {
      llvm::Value* p = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx(l), std::uint64_t(kTidOffset + 4 * a));
      b.CreateAlignedStore(l.context_args().at(1 + a), p, llvm::Align(4));
    }
  }

  void index_error(Lowerer& l, const std::string& array, llvm::Value* index, int dim, llvm::Value* extent) override {
    auto& b = l.b();
    store_tid(l);
    auto fn =
        error_reporter(l, "cuhost_cpu_index_error",
                       {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getInt64Ty(), b.getInt32Ty(), b.getInt64Ty()});
    b.CreateCall(fn, {ctx(l), b.CreateGlobalStringPtr(l.options().kernel_name), b.CreateGlobalStringPtr(array), index,
                      l.i32(dim), extent});
  }
  // The site travels as its encoded bytes (support/kernel_error.h), a
  // constant of the module, so a kernel loaded from the cache reports it too.
  void kernel_error(Lowerer& l, const KernelErrorSite& site, llvm::Value* code) override {
    auto& b = l.b();
    store_tid(l);
    auto fn = error_reporter(l, "cuhost_cpu_kernel_error", {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getInt64Ty()});
    b.CreateCall(fn, {ctx(l), b.CreateGlobalStringPtr(l.options().kernel_name),
                      b.CreateGlobalStringPtr(encode_site(site), "error.site"), code});
  }

  llvm::Value* string_constant(Lowerer& l, const std::string& text) override {
    return l.b().CreateGlobalStringPtr(text, "printf.str");
  }
  // The runtime formats like CUDA's vprintf and queues the line for the
  // launching thread (cpu/print_runtime.cpp).
  void vprintf(Lowerer& l, llvm::Value* format, llvm::Value* args) override {
    auto& b = l.b();
    b.CreateCall(runtime(l, "cuhost_cpu_vprintf", b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}), {format, args});
  }
};

}  // namespace

std::unique_ptr<TargetHooks> make_cpu_hooks() { return std::make_unique<CpuHooks>(); }

}  // namespace cuhost::codegen
