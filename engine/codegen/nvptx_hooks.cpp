// TargetHooks for the GPU: NVVM intrinsics for special registers, barriers,
// warp operations and fences; libdevice (__nv_*) for math; shared memory as
// addrspace(3) globals (one external [0 x i8] for the dynamic segment);
// constant arrays in addrspace(4); a failed check fills the module's error
// record (nvptx_error_record.h) for the host to report after the launch.
#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <set>

#include "codegen/lowering/lowerer.h"
#include "codegen/nvptx_error_record.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr unsigned kGlobal = 1;
constexpr unsigned kShared = 3;
constexpr unsigned kConstant = 4;

class NvptxHooks : public TargetHooks {
 public:
  bool is_gpu() const override { return true; }
  std::vector<llvm::Type*> context_param_types(llvm::Module&) const override { return {}; }

  llvm::Value* special_reg(Lowerer& l, SpecialReg reg, int axis) override {
    using namespace llvm::Intrinsic;
    static const ID tid[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y, nvvm_read_ptx_sreg_tid_z};
    static const ID bid[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y, nvvm_read_ptx_sreg_ctaid_z};
    static const ID bdim[] = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y, nvvm_read_ptx_sreg_ntid_z};
    static const ID gdim[] = {nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y, nvvm_read_ptx_sreg_nctaid_z};
    ID id = not_intrinsic;
    switch (reg) {
      case SpecialReg::Tid: id = tid[axis]; break;
      case SpecialReg::Bid: id = bid[axis]; break;
      case SpecialReg::Bdim: id = bdim[axis]; break;
      case SpecialReg::Gdim: id = gdim[axis]; break;
      case SpecialReg::LaneId: id = nvvm_read_ptx_sreg_laneid; break;
      case SpecialReg::WarpSize: return l.i32(32);
    }
    return l.b().CreateIntrinsic(id, {}, {});
  }

  void syncthreads(Lowerer& l) override { l.b().CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); }

  llvm::Value* syncthreads_op(Lowerer& l, BarrierOp op, llvm::Value* pred) override {
    using namespace llvm::Intrinsic;
    ID id = op == BarrierOp::Count ? nvvm_barrier0_popc : op == BarrierOp::And ? nvvm_barrier0_and : nvvm_barrier0_or;
    return l.b().CreateIntrinsic(id, {}, {pred});
  }

  void syncwarp(Lowerer& l, llvm::Value* mask) override {
    l.b().CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {mask});
  }

  llvm::Value* shfl32(Lowerer& l, ShflMode mode, llvm::Value* mask, llvm::Value* v, llvm::Value* lane) {
    using namespace llvm::Intrinsic;
    bool f = v->getType()->isFloatTy();
    ID id;
    switch (mode) {
      case ShflMode::Idx: id = f ? nvvm_shfl_sync_idx_f32 : nvvm_shfl_sync_idx_i32; break;
      case ShflMode::Up: id = f ? nvvm_shfl_sync_up_f32 : nvvm_shfl_sync_up_i32; break;
      case ShflMode::Down: id = f ? nvvm_shfl_sync_down_f32 : nvvm_shfl_sync_down_i32; break;
      default: id = f ? nvvm_shfl_sync_bfly_f32 : nvvm_shfl_sync_bfly_i32; break;
    }
    // c = ((32 - width) << 8) | clamp: full-warp width, clamp 0 for up, 31 otherwise.
    llvm::Value* c = l.i32(mode == ShflMode::Up ? 0 : 0x1f);
    return l.b().CreateIntrinsic(id, {}, {mask, v, lane, c});
  }

  llvm::Value* shfl(Lowerer& l, ShflMode mode, llvm::Value* mask, llvm::Value* value, llvm::Value* lane) override {
    auto& b = l.b();
    llvm::Type* t = value->getType();
    unsigned bits = t->getPrimitiveSizeInBits();
    if (bits == 32) return shfl32(l, mode, mask, value, lane);
    llvm::Value* as_int = t->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(bits));
    if (bits < 32) {
      llvm::Value* r = shfl32(l, mode, mask, b.CreateSExt(as_int, b.getInt32Ty()), lane);
      r = b.CreateTrunc(r, b.getIntNTy(bits));
      return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
    }
    llvm::Value* lo = b.CreateTrunc(as_int, b.getInt32Ty());
    llvm::Value* hi = b.CreateTrunc(b.CreateLShr(as_int, 32), b.getInt32Ty());
    lo = shfl32(l, mode, mask, lo, lane);
    hi = shfl32(l, mode, mask, hi, lane);
    llvm::Value* r = b.CreateOr(b.CreateZExt(lo, b.getInt64Ty()), b.CreateShl(b.CreateZExt(hi, b.getInt64Ty()), 32));
    return t->isIntegerTy() ? r : b.CreateBitCast(r, t);
  }

  llvm::Value* vote(Lowerer& l, VoteMode mode, llvm::Value* mask, llvm::Value* pred) override {
    using namespace llvm::Intrinsic;
    ID id = mode == VoteMode::All   ? nvvm_vote_all_sync
            : mode == VoteMode::Any ? nvvm_vote_any_sync
            : mode == VoteMode::Eq  ? nvvm_vote_uni_sync
                                    : nvvm_vote_ballot_sync;
    return l.b().CreateIntrinsic(id, {}, {mask, pred});
  }

  llvm::Value* activemask(Lowerer& l) override {
    return l.b().CreateIntrinsic(llvm::Intrinsic::nvvm_activemask, {}, {});
  }
  llvm::Value* lanemask_lt(Lowerer& l) override {
    return l.b().CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {}, {});
  }

  void fence(Lowerer& l, FenceScope s) override {
    using namespace llvm::Intrinsic;
    ID id = s == FenceScope::Block ? nvvm_membar_cta : s == FenceScope::Device ? nvvm_membar_gl : nvvm_membar_sys;
    l.b().CreateIntrinsic(id, {}, {});
  }

  llvm::Value* math(Lowerer& l, const std::string& name, const std::vector<llvm::Value*>& args) override {
    auto& b = l.b();
    llvm::Type* t = args.at(0)->getType();
    bool f32 = t->isFloatTy();
    // Operations PTX has natively stay LLVM intrinsics (no libdevice call).
    if (name == "fabs") return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, args[0]);
    if (name == "copysign") return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, args[0], args[1]);
    if (name == "sqrt" && !l.options().fastmath) return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, args[0]);
    std::string fn = "__nv_" + name + (f32 ? "f" : "");
    // fastmath: libdevice's approximate float32 versions, as numba-cuda
    // (sin.approx, lg2.approx, ex2.approx, tanh.approx...).
    static const std::set<std::string> fast = {"sin", "cos",  "tan",   "exp", "exp10",
                                               "log", "log2", "log10", "pow", "tanh"};
    if (l.options().fastmath && f32 && fast.count(name)) fn = "__nv_fast_" + name + "f";
    std::vector<llvm::Type*> ps(args.size(), t);
    llvm::FunctionCallee callee = l.module().getOrInsertFunction(fn, llvm::FunctionType::get(t, ps, false));
    return b.CreateCall(callee, args);
  }

  llvm::Value* libdevice(Lowerer& l, const std::string& name, llvm::Type* ret,
                         const std::vector<llvm::Value*>& args) override {
    std::vector<llvm::Type*> ps;
    for (llvm::Value* a : args) ps.push_back(a->getType());
    llvm::FunctionCallee callee =
        l.module().getOrInsertFunction("__nv_" + name, llvm::FunctionType::get(ret, ps, false));
    return l.b().CreateCall(callee, args);
  }

  llvm::Value* shared_array(Lowerer& l, llvm::Type* elem, std::int64_t count, int align) override {
    auto* ty = llvm::ArrayType::get(elem, std::uint64_t(count));
    // numba-cuda's name (`_cudapy_smem_<n>`), which readers of inspect_llvm()
    // look for; n counts the module's static shared arrays.
    unsigned n = 0;
    for (const llvm::GlobalVariable& other : l.module().globals())
      if (other.getName().starts_with("_cudapy_smem_")) ++n;
    auto* g =
        new llvm::GlobalVariable(l.module(), ty, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(ty),
                                 concat("_cudapy_smem_", n), nullptr, llvm::GlobalValue::NotThreadLocal, kShared);
    g->setAlignment(llvm::Align(align));
    // The array a kernel declares is the shared memory it gets, as with
    // numba-cuda (get_shared_mem_per_block counts it): LLVM would delete a
    // shared array whose every load it forwards from the thread's own
    // stores, and with it the block's allocation.
    llvm::appendToCompilerUsed(l.module(), {g});
    return l.b().CreateAddrSpaceCast(g, l.b().getPtrTy());
  }

  llvm::Value* dynamic_shared(Lowerer& l, std::int64_t align) override {
    const char* name = "cuhost_dynamic_shared";
    llvm::GlobalVariable* g = l.module().getGlobalVariable(name, true);
    if (!g) {
      auto* ty = llvm::ArrayType::get(l.b().getInt8Ty(), 0);
      g = new llvm::GlobalVariable(l.module(), ty, false, llvm::GlobalValue::ExternalLinkage, nullptr, name, nullptr,
                                   llvm::GlobalValue::NotThreadLocal, kShared);
      g->setAlignment(llvm::Align(16));
    }
    // The driver starts the window on a 16-byte boundary after the static
    // arrays, whatever the declaration says: a larger alignment is made by
    // the caller at run time (lowering/memory.cpp), and declaring it here
    // would let LLVM fold that rounding away.
    (void)align;
    return l.b().CreateAddrSpaceCast(g, l.b().getPtrTy());
  }

  llvm::Value* dynamic_shared_bytes(Lowerer& l) override {
    // %dynamic_smem_size has no NVVM intrinsic in LLVM 19: read it with inline PTX.
    auto* fty = llvm::FunctionType::get(l.b().getInt32Ty(), false);
    auto* asm_ = llvm::InlineAsm::get(fty, "mov.u32 $0, %dynamic_smem_size;", "=r", false);
    return l.b().CreateZExt(l.b().CreateCall(fty, asm_), l.b().getInt64Ty());
  }

  llvm::Value* const_array(Lowerer& l, const ir::ArrayConstant& data, const std::string& name) override {
    llvm::Constant* init = llvm::ConstantDataArray::get(l.ctx(), llvm::ArrayRef<std::uint8_t>(data.data));
    auto* g = new llvm::GlobalVariable(l.module(), init->getType(), true, llvm::GlobalValue::InternalLinkage, init,
                                       "const." + name, nullptr, llvm::GlobalValue::NotThreadLocal, kConstant);
    g->setAlignment(llvm::Align(16));
    return l.b().CreateAddrSpaceCast(g, l.b().getPtrTy());
  }

  void index_error(Lowerer& l, const std::string& array, llvm::Value* index, int dim, llvm::Value* extent) override {
    KernelErrorSite site;
    site.form = KernelErrorForm::Index;
    site.message = array;
    emit_gpu_error_report(l, ErrorRecordKind::Index, site, index, l.i64(dim), extent);
  }
  void kernel_error(Lowerer& l, const KernelErrorSite& site, llvm::Value* code) override {
    emit_gpu_error_report(l, ErrorRecordKind::Kernel, site, code, nullptr, nullptr);
  }

  // Strings live in constant memory, as numba-cuda places them (PTX has no
  // generic globals; the constant cache serves every thread); vprintf takes
  // generic pointers.
  llvm::Value* string_constant(Lowerer& l, const std::string& text) override {
    llvm::Constant* init = llvm::ConstantDataArray::getString(l.ctx(), text, true);
    auto* g = new llvm::GlobalVariable(l.module(), init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                       "printf.str", nullptr, llvm::GlobalValue::NotThreadLocal, kConstant);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    g->setAlignment(llvm::Align(1));
    return l.b().CreateAddrSpaceCast(g, l.b().getPtrTy());
  }

  // CUDA's device-side printf: int vprintf(const char* format, void* args).
  void vprintf(Lowerer& l, llvm::Value* format, llvm::Value* args) override {
    auto& b = l.b();
    auto callee = l.module().getOrInsertFunction(
        "vprintf", llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}, false));
    b.CreateCall(callee, {format, args});
  }
};

}  // namespace

std::unique_ptr<TargetHooks> make_nvptx_hooks() { return std::make_unique<NvptxHooks>(); }

}  // namespace cuhost::codegen
