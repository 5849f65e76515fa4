// Thread-block clusters (typing/clusters.cpp). GPU (sm_90): block_rank and
// num_blocks read %cluster_ctarank / %cluster_nctarank, sync() is
// barrier.cluster.arrive + barrier.cluster.wait, map_shared_rank(array, r)
// maps the array's data address with `mapa` (llvm.nvvm.mapa: a generic
// address of this block's shared memory to the same variable in block r of
// the cluster) and keeps its shape and strides. CPU: cpu/cluster_runtime.h.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

void require_sm90(Lowerer& l, const ast::Expr* e, const char* what) {
  const int cc = l.options().cc;
  if (cc && cc < 90)
    throw UserError(ErrorKind::TypingError,
                    concat(what,
                           " needs thread-block clusters, which compute capability 9.0 (sm_90) and newer have; "
                           "this kernel is compiled for ",
                           cc / 10, ".", cc % 10),
                    l.where(e->loc), l.typed().captured->name);
}

llvm::Value* cpu_call(Lowerer& l, const char* name, llvm::Type* ret, std::vector<llvm::Value*> extra) {
  auto& b = l.b();
  std::vector<llvm::Value*> args = {l.context_args().at(0)};
  std::vector<llvm::Type*> types = {b.getPtrTy()};
  for (llvm::Value* v : extra) {
    args.push_back(v);
    types.push_back(v->getType());
  }
  llvm::FunctionCallee f = l.module().getOrInsertFunction(name, llvm::FunctionType::get(ret, types, false));
  return b.CreateCall(f, args);
}

llvm::Value* gpu_intrinsic(Lowerer& l, llvm::Intrinsic::ID id, std::vector<llvm::Value*> args = {}) {
  return l.b().CreateCall(llvm::Intrinsic::getDeclaration(&l.module(), id), args);
}

Val this_cluster(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  if (l.hooks().is_gpu()) require_sm90(l, e, "cuda.cg.this_cluster()");
  return {llvm::UndefValue::get(l.llvm_type(inf.type)), inf.type};
}

Val sync(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  if (!l.hooks().is_gpu()) {
    cpu_call(l, "cuhost_cpu_cluster_sync", l.b().getVoidTy(), {});
    return {nullptr, inf.type};
  }
  require_sm90(l, e, "cluster.sync()");
  gpu_intrinsic(l, llvm::Intrinsic::nvvm_barrier_cluster_arrive);
  gpu_intrinsic(l, llvm::Intrinsic::nvvm_barrier_cluster_wait);
  return {nullptr, inf.type};
}

IntrinsicFn special(const char* cpu_name, llvm::Intrinsic::ID gpu_id) {
  return [cpu_name, gpu_id](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    if (!l.hooks().is_gpu()) return {cpu_call(l, cpu_name, l.b().getInt32Ty(), {}), inf.type};
    require_sm90(l, e, "cuda.cg.this_cluster()");
    return {gpu_intrinsic(l, gpu_id), inf.type};
  };
}

Val map_shared_rank(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  Val array = l.expr_as(inf.ordered_args.at(0), inf.param_types.at(0));
  llvm::Value* rank = l.expr_as(inf.ordered_args.at(1), ir::int32()).v;
  llvm::Value* data = b.CreateExtractValue(array.v, {0});
  llvm::Value* mapped = nullptr;
  if (!l.hooks().is_gpu()) {
    mapped = cpu_call(l, "cuhost_cpu_cluster_map", b.getPtrTy(), {data, rank});
  } else {
    require_sm90(l, e, "map_shared_rank()");
    mapped = gpu_intrinsic(l, llvm::Intrinsic::nvvm_mapa, {data, rank});
  }
  return {b.CreateInsertValue(array.v, mapped, {0}), inf.type};
}

}  // namespace

void register_clusters(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.cg.this_cluster"] = this_cluster;
  table["cuda.cg.ClusterGroup.sync"] = sync;
  table["cuda.cg.ClusterGroup.block_rank"] =
      special("cuhost_cpu_cluster_rank", llvm::Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank);
  table["cuda.cg.ClusterGroup.num_blocks"] =
      special("cuhost_cpu_cluster_size", llvm::Intrinsic::nvvm_read_ptx_sreg_cluster_nctarank);
  table["cuda.cg.ClusterGroup.map_shared_rank"] = map_shared_rank;
}

}  // namespace cuhost::codegen
