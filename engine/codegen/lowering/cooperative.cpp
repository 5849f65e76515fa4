// Cooperative groups: cuda.cg.this_grid() has no bits; grid.sync() is, on the
// GPU, cudadevrt's grid synchronization (cudaCGGetIntrinsicHandle for the
// grid scope, then cudaCGSynchronize, as numba-cuda lowers it; the kernel
// links libcudadevrt and is launched with cuLaunchCooperativeKernel) and,
// on the CPU, the launcher's grid barrier (cpu/grid_barrier.h).
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "ir/foreign.h"
#include "support/install_layout.h"

namespace cuhost::codegen {

namespace {

std::shared_ptr<const ir::ForeignFunction> cudadevrt() {
  static const std::shared_ptr<const ir::ForeignFunction> f = [] {
    auto ff = std::make_shared<ir::ForeignFunction>();
    ff->name = "cudaCGSynchronize";
    ff->python_name = "cuda.cg.GridGroup.sync";
    ff->abi = ir::Abi::C;
    ff->use_cooperative = true;
    ir::LinkItem item;
    item.kind = ir::LinkKind::Archive;
    item.path = support::cudadevrt_path();
    item.name = "libcudadevrt.a";
    ff->link.push_back(item);
    return ff;
  }();
  return f;
}

Val grid_sync(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  if (!l.hooks().is_gpu()) {
    llvm::FunctionCallee f = l.module().getOrInsertFunction(
        "cuhost_cpu_grid_sync", llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false));
    b.CreateCall(f, {l.context_args().at(0)});
    return {nullptr, inf.type};
  }
  llvm::FunctionCallee handle = l.module().getOrInsertFunction(
      "cudaCGGetIntrinsicHandle", llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false));
  llvm::FunctionCallee sync = l.module().getOrInsertFunction(
      "cudaCGSynchronize", llvm::FunctionType::get(b.getInt32Ty(), {b.getInt64Ty(), b.getInt32Ty()}, false));
  llvm::Value* h = b.CreateCall(handle, {b.getInt32(1)});  // 1: the grid scope
  b.CreateCall(sync, {h, b.getInt32(0)});
  l.state().foreign_used.push_back(cudadevrt());
  return {nullptr, inf.type};
}

}  // namespace

void register_cooperative(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.cg.this_grid"] = [](Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) -> Val {
    return {llvm::UndefValue::get(l.llvm_type(inf.type)), inf.type};
  };
  table["cuda.cg.GridGroup.sync"] = grid_sync;
}

}  // namespace cuhost::codegen
