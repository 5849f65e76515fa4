// cuda.mma (typing/mma.cpp): register fragments for PTX's mma.sync,
// ldmatrix and cp.async. Fragments are tuples of the lane's registers, so
// on the GPU each call is one NVVM intrinsic on values (no memory):
// llvm.nvvm.mma.m16n8k16.row.col.{f32.f32,bf16}, llvm.nvvm.mma.m16n8k8.row.
// col.tf32, llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16,
// llvm.nvvm.cp.async.cg.shared.global.16 and the commit/wait intrinsics;
// LLVM 19 has no intrinsic for fp8 (e4m3/e5m2) mma.sync, which is inline
// PTX. On the CPU backend the lanes are fibers: mma_sync and ldmatrix
// gather the addresses of every lane's registers (or rows) with 32 warp
// shuffles, compute the lane's result in cpu/mma_runtime.h, and end with a
// __syncwarp so no lane's registers go out of scope while another reads
// them; cp.async copies at once (commit/wait are then nothing to do).
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/nvptx_backend.h"
#include "codegen/target_hooks.h"
#include "sema/typing/mma_kinds.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

using sema::MmaInput;
using sema::MmaKind;

constexpr unsigned kSharedSpace = 3, kGlobalSpace = 1;

[[noreturn]] void target_error(Lowerer& l, const ast::Expr* e, const std::string& message) {
  throw UserError(ErrorKind::TypingError, message, l.where(e->loc), l.typed().captured->name);
}

// The compute capability the GPU target has, checked against `need` (major * 10 + minor).
void check_target(Lowerer& l, const ast::Expr* e, int need, const std::string& what) {
  const int cc = l.options().cc;
  if (l.hooks().is_gpu() && cc && cc < need)
    target_error(l, e,
                 concat(what, " needs compute capability ", need / 10, ".", need % 10,
                        " or newer; this kernel is compiled for ", cc / 10, ".", cc % 10));
}

llvm::Function* nvvm_intrinsic(Lowerer& l, const std::string& name, std::vector<llvm::Type*> overloads = {}) {
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(name);
  if (id == llvm::Intrinsic::not_intrinsic)
    throw UserError(ErrorKind::LoweringError, concat("LLVM has no intrinsic ", name));
  if (!llvm::Intrinsic::isOverloaded(id)) overloads.clear();
  return llvm::Intrinsic::getDeclaration(&l.module(), id, overloads);
}

// The elements of a tuple argument, converted to `element`.
std::vector<llvm::Value*> tuple_elements(Lowerer& l, const ast::Expr* e, const ir::Type* element) {
  Val v = l.expr_as(e, l.info(e).type);
  std::vector<llvm::Value*> out;
  for (unsigned i = 0; i < v.t->elements.size(); ++i)
    out.push_back(l.convert({l.b().CreateExtractValue(v.v, {i}), v.t->elements[i]}, element).v);
  return out;
}

Val register_tuple(Lowerer& l, const ir::Type* type, const std::vector<llvm::Value*>& values) {
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(type));
  for (unsigned i = 0; i < values.size(); ++i) agg = l.b().CreateInsertValue(agg, values[i], {i});
  return {agg, type};
}

// The address of element `offset` of array argument `array_index`; with
// bounds checks (the CPU backend's default, debug=True on the GPU) the
// `count` elements from there must lie inside the array (an IndexError
// naming the array and the first flat index out of range). On the GPU the
// address is computed in `space` (the instruction's state space: shared or
// global), so NVPTX folds constant offsets into the instruction's address.
llvm::Value* element_pointer(Lowerer& l, const sema::ExprInfo& inf, size_t array_index, size_t offset_index,
                             std::int64_t count, unsigned space = 0) {
  auto& b = l.b();
  const ast::Expr* array_expr = inf.ordered_args.at(array_index);
  Val array = l.expr_as(array_expr, inf.param_types.at(array_index));
  llvm::Value* offset = l.expr_as(inf.ordered_args.at(offset_index), ir::int64()).v;
  if (l.checks_enabled()) {
    llvm::Value* size = l.i64(1);
    for (unsigned d = 0; d < unsigned(array.t->ndim); ++d)
      size = b.CreateMul(size, b.CreateExtractValue(array.v, {1, d}));
    llvm::Value* last = b.CreateAdd(offset, l.i64(count - 1));
    llvm::Value* below = b.CreateICmpSLT(offset, l.i64(0));
    llvm::Value* index = b.CreateSelect(below, offset, last);
    l.fail_if(b.CreateOr(below, b.CreateICmpSGE(last, size)),
              [&] { l.hooks().index_error(l, l.array_name(array_expr), index, 0, size); });
  }
  llvm::Value* data = b.CreateExtractValue(array.v, {0});
  if (space != 0 && l.hooks().is_gpu()) data = b.CreateAddrSpaceCast(data, llvm::PointerType::get(l.ctx(), space));
  return b.CreateGEP(l.memory_type(array.t->dtype), data, offset);
}

// CPU: the 32 lanes' values of `address` (a pointer), gathered with shuffles
// into an array of 32 pointers; returns that array's address.
llvm::Value* gather_lane_pointers(Lowerer& l, llvm::Value* address) {
  auto& b = l.b();
  llvm::AllocaInst* all = l.entry_alloca(llvm::ArrayType::get(b.getPtrTy(), 32), "mma.lanes");
  llvm::Value* mine = b.CreatePtrToInt(address, b.getInt64Ty());
  for (int s = 0; s < 32; ++s) {
    llvm::Value* theirs = l.hooks().shfl(l, ShflMode::Idx, l.i32(-1), mine, l.i32(s));
    b.CreateStore(b.CreateIntToPtr(theirs, b.getPtrTy()),
                  b.CreateConstInBoundsGEP2_32(all->getAllocatedType(), all, 0, s));
  }
  return all;
}

llvm::Value* fp8_mma_asm(Lowerer& l, const MmaKind& kind, const std::vector<llvm::Value*>& args) {
  auto& b = l.b();
  llvm::Type* f = b.getFloatTy();
  llvm::Type* i = b.getInt32Ty();
  auto* ret = llvm::StructType::get(l.ctx(), {f, f, f, f});
  auto* fty = llvm::FunctionType::get(ret, {i, i, i, i, i, i, f, f, f, f}, false);
  const std::string text = concat("mma.sync.aligned.m16n8k32.row.col.f32.", kind.ptx_type, ".", kind.ptx_type,
                                  ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};");
  auto* asm_ = llvm::InlineAsm::get(fty, text, "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f", false);
  // PTX ISA 8.4 introduced fp8 mma.sync; LLVM 19 writes 7.8 for sm_90.
  l.module().addModuleFlag(llvm::Module::Max, kPtxVersionFlag, 84);
  return b.CreateCall(fty, asm_, args);
}

Val lower_mma_sync(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const MmaKind& kind = *sema::mma_kind_named(l.info(inf.ordered_args.at(0)).type->key.substr(9));
  std::vector<llvm::Value*> a = tuple_elements(l, inf.ordered_args.at(1), ir::uint32());
  std::vector<llvm::Value*> bb = tuple_elements(l, inf.ordered_args.at(2), ir::uint32());
  std::vector<llvm::Value*> c = tuple_elements(l, inf.ordered_args.at(3), ir::float32());
  std::vector<llvm::Value*> d;
  if (!l.hooks().is_gpu()) {
    // This lane's registers in memory: a0..a3, b0..b1, c0..c3.
    auto* regs_type = llvm::ArrayType::get(b.getInt32Ty(), 10);
    llvm::AllocaInst* regs = l.entry_alloca(regs_type, "mma.registers");
    std::vector<llvm::Value*> all = a;
    all.insert(all.end(), bb.begin(), bb.end());
    for (llvm::Value* x : c) all.push_back(b.CreateBitCast(x, b.getInt32Ty()));
    for (int i = 0; i < 10; ++i) b.CreateStore(all[i], b.CreateConstInBoundsGEP2_32(regs_type, regs, 0, i));
    llvm::Value* lanes = gather_lane_pointers(l, regs);
    auto* out_type = llvm::ArrayType::get(b.getFloatTy(), 4);
    llvm::AllocaInst* out = l.entry_alloca(out_type, "mma.d");
    llvm::FunctionCallee fn = l.module().getOrInsertFunction(
        "cuhost_cpu_mma",
        llvm::FunctionType::get(b.getVoidTy(), {b.getInt32Ty(), b.getInt32Ty(), b.getPtrTy(), b.getPtrTy()}, false));
    b.CreateCall(fn, {l.i32(int(kind.input)), l.hooks().special_reg(l, SpecialReg::LaneId, 0), lanes, out});
    l.hooks().syncwarp(l, l.i32(-1));
    for (int i = 0; i < 4; ++i)
      d.push_back(b.CreateLoad(b.getFloatTy(), b.CreateConstInBoundsGEP2_32(out_type, out, 0, i)));
    return register_tuple(l, inf.type, d);
  }
  check_target(l, e, kind.required_cc, concat("cuda.mma.mma_sync(cuda.mma.", kind.name, ")"));
  llvm::Value* result = nullptr;
  if (kind.input == MmaInput::E4M3 || kind.input == MmaInput::E5M2) {
    std::vector<llvm::Value*> args = a;
    args.insert(args.end(), bb.begin(), bb.end());
    args.insert(args.end(), c.begin(), c.end());
    result = fp8_mma_asm(l, kind, args);
  } else {
    std::vector<llvm::Value*> args;
    if (kind.input == MmaInput::F16) {
      // fp16 operands are <2 x half> pairs; the intrinsic is named by its accumulator types.
      auto* pair = llvm::FixedVectorType::get(b.getHalfTy(), 2);
      for (llvm::Value* x : a) args.push_back(b.CreateBitCast(x, pair));
      for (llvm::Value* x : bb) args.push_back(b.CreateBitCast(x, pair));
    } else {
      args = a;
      args.insert(args.end(), bb.begin(), bb.end());
    }
    args.insert(args.end(), c.begin(), c.end());
    const std::string suffix = kind.input == MmaInput::F16 ? "f32.f32" : kind.ptx_type;
    result = b.CreateCall(
        nvvm_intrinsic(l, concat("llvm.nvvm.mma.m", kind.m, "n", kind.n, "k", kind.k, ".row.col.", suffix)), args);
  }
  for (unsigned i = 0; i < 4; ++i) d.push_back(b.CreateExtractValue(result, {i}));
  return register_tuple(l, inf.type, d);
}

Val lower_ldmatrix(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ast::Expr* num_arg = inf.ordered_args.at(2);
  const ast::Expr* trans_arg = inf.ordered_args.at(3);
  const int num = num_arg ? int(l.info(num_arg).constant->i) : 4;
  const bool trans = trans_arg && l.info(trans_arg).constant->b;
  llvm::Value* row = element_pointer(l, inf, 0, 1, 8, kSharedSpace);
  std::vector<llvm::Value*> regs;
  if (!l.hooks().is_gpu()) {
    llvm::Value* rows = gather_lane_pointers(l, row);
    auto* out_type = llvm::ArrayType::get(b.getInt32Ty(), unsigned(num));
    llvm::AllocaInst* out = l.entry_alloca(out_type, "ldmatrix.out");
    llvm::FunctionCallee fn = l.module().getOrInsertFunction(
        "cuhost_cpu_ldmatrix",
        llvm::FunctionType::get(b.getVoidTy(),
                                {b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getPtrTy(), b.getPtrTy()}, false));
    b.CreateCall(fn, {l.hooks().special_reg(l, SpecialReg::LaneId, 0), l.i32(num), l.i32(trans ? 1 : 0), rows, out});
    // Another lane may write the rows once it moves on: not before every lane has read them.
    l.hooks().syncwarp(l, l.i32(-1));
    for (int i = 0; i < num; ++i)
      regs.push_back(b.CreateLoad(b.getInt32Ty(), b.CreateConstInBoundsGEP2_32(out_type, out, 0, i)));
    return register_tuple(l, inf.type, regs);
  }
  check_target(l, e, 75, "cuda.mma.ldmatrix()");
  llvm::Type* shared_ptr = llvm::PointerType::get(l.ctx(), kSharedSpace);
  llvm::Function* fn = nvvm_intrinsic(
      l, concat("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x", num, trans ? ".trans" : "", ".b16"), {shared_ptr});
  llvm::Value* loaded = b.CreateCall(fn, {row});
  if (num == 1)
    regs.push_back(loaded);
  else
    for (unsigned i = 0; i < unsigned(num); ++i) regs.push_back(b.CreateExtractValue(loaded, {i}));
  return register_tuple(l, inf.type, regs);
}

Val lower_cp_async(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const llvm::DataLayout& layout = l.module().getDataLayout();
  auto elements_of_16_bytes = [&](size_t array_index) {
    const std::int64_t size =
        std::int64_t(layout.getTypeAllocSize(l.memory_type(inf.param_types.at(array_index)->dtype)));
    return (16 + size - 1) / size;
  };
  llvm::Value* dst = element_pointer(l, inf, 0, 1, elements_of_16_bytes(0), kSharedSpace);
  llvm::Value* src = element_pointer(l, inf, 2, 3, elements_of_16_bytes(2), kGlobalSpace);
  if (!l.hooks().is_gpu()) {
    b.CreateMemCpy(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1), 16);
    return {nullptr, inf.type};
  }
  check_target(l, e, 80, "cuda.mma.cp_async()");
  b.CreateCall(nvvm_intrinsic(l, "llvm.nvvm.cp.async.cg.shared.global.16"), {dst, src});
  return {nullptr, inf.type};
}

Val lower_commit_group(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  if (l.hooks().is_gpu()) {
    check_target(l, e, 80, "cuda.mma.commit_group()");
    l.b().CreateCall(nvvm_intrinsic(l, "llvm.nvvm.cp.async.commit.group"), {});
  }
  return {nullptr, inf.type};
}

Val lower_wait_group(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  if (l.hooks().is_gpu()) {
    check_target(l, e, 80, "cuda.mma.wait_group()");
    const std::int64_t n = l.info(inf.ordered_args.at(0)).constant->i;
    l.b().CreateCall(nvvm_intrinsic(l, "llvm.nvvm.cp.async.wait.group"), {l.i32(std::int32_t(n))});
  }
  return {nullptr, inf.type};
}

Val lower_to_tf32(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  check_target(l, e, 80, "cuda.mma.to_tf32()");
  llvm::Value* x = l.expr_as(inf.ordered_args.at(0), ir::float32()).v;
  auto* fty = llvm::FunctionType::get(b.getInt32Ty(), {b.getFloatTy()}, false);
  if (!l.hooks().is_gpu())
    return {b.CreateCall(l.module().getOrInsertFunction("cuhost_cpu_to_tf32", fty), {x}), inf.type};
  return {b.CreateCall(fty, llvm::InlineAsm::get(fty, "cvt.rna.tf32.f32 $0, $1;", "=r,f", false), {x}), inf.type};
}

}  // namespace

void register_mma(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.mma.mma_sync"] = lower_mma_sync;
  table["cuda.mma.ldmatrix"] = lower_ldmatrix;
  table["cuda.mma.cp_async"] = lower_cp_async;
  table["cuda.mma.commit_group"] = lower_commit_group;
  table["cuda.mma.wait_group"] = lower_wait_group;
  table["cuda.mma.to_tf32"] = lower_to_tf32;
}

}  // namespace cuhost::codegen
