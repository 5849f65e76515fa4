// cuda.wmma (typing/wmma.cpp). A fragment value is the address of the
// thread's fragment storage, an entry-block alloca sized per target:
// - GPU: the struct the NVPTX wmma load intrinsic returns for it (a lane's
//   share: 8 <2 x half> for an fp16 16x16x16 matrix_a, 8 floats for an
//   accumulator, ...); load/mma/store are llvm.nvvm.wmma.<shape>.* calls
//   (SROA keeps the storage in registers). tf32 inputs are rounded with
//   cvt.rna.tf32.f32 after the load, as CUDA C's __float_to_tf32 would.
// - CPU: the whole tile in float32, row by row, in every lane; the work is
//   done by cpu/wmma_runtime.h (each lane computes the full product, lane L
//   stores the elements L, L + 32, ...).
// The input type's compute capability is checked against the GPU target.
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/target_hooks.h"
#include "sema/typing/wmma_fragments.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

using sema::WmmaElement;
using sema::WmmaFragment;
using sema::WmmaLayout;
using sema::WmmaUse;

const WmmaFragment& fragment_of(const ir::Type* t) { return *sema::wmma_fragment_of(t); }

std::string shape_name(const WmmaFragment& f) { return concat("m", f.m, "n", f.n, "k", f.k); }

const char* element_suffix(WmmaElement e) {
  switch (e) {
    case WmmaElement::F16: return "f16";
    case WmmaElement::BF16: return "bf16";
    case WmmaElement::TF32: return "tf32";
    default: return "f32";
  }
}

const char* use_letter(WmmaUse u) { return u == WmmaUse::MatrixA ? "a" : u == WmmaUse::MatrixB ? "b" : "c"; }

std::int32_t cpu_element_code(WmmaElement e) {
  switch (e) {
    case WmmaElement::F16: return 0;
    case WmmaElement::BF16: return 1;
    case WmmaElement::TF32: return 2;
    default: return 3;
  }
}

[[noreturn]] void target_error(Lowerer& l, const ast::Expr* e, const std::string& message) {
  throw UserError(ErrorKind::TypingError, message, l.where(e->loc), l.typed().captured->name);
}

llvm::Function* nvvm_intrinsic(Lowerer& l, const std::string& name, llvm::Type* pointer) {
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(name);
  if (id == llvm::Intrinsic::not_intrinsic)
    throw UserError(ErrorKind::LoweringError, concat("LLVM has no intrinsic ", name));
  std::vector<llvm::Type*> overloads;
  if (llvm::Intrinsic::isOverloaded(id)) overloads.push_back(pointer);
  return llvm::Intrinsic::getDeclaration(&l.module(), id, overloads);
}

// The load intrinsic of fragment `f` from memory laid out row- or column-major.
llvm::Function* gpu_load(Lowerer& l, const WmmaFragment& f, bool row_major) {
  return nvvm_intrinsic(l,
                        concat("llvm.nvvm.wmma.", shape_name(f), ".load.", use_letter(f.use), ".",
                               row_major ? "row" : "col", ".stride.", element_suffix(f.element)),
                        llvm::PointerType::get(l.ctx(), 0));
}

llvm::Type* gpu_storage_type(Lowerer& l, const WmmaFragment& f) {
  return gpu_load(l, f, f.layout != WmmaLayout::ColMajor)->getReturnType();
}

void check_target(Lowerer& l, const ast::Expr* e, WmmaElement input) {
  const int need = sema::wmma_required_cc(input);
  const int cc = l.options().cc;
  if (cc && cc < need)
    target_error(l, e,
                 concat("cuda.wmma ", sema::wmma_element_name(input), " fragments need compute capability ", need / 10,
                        ".", need % 10, " or newer; this kernel is compiled for ", cc / 10, ".", cc % 10));
}

llvm::Value* fragment_pointer(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  return l.expr_as(inf.ordered_args.at(i), inf.param_types.at(i)).v;
}

// The address of element `offset` of the array argument `array_index`, for a
// tile of rows x cols with rows (row-major) or columns `ldm` elements apart.
// With bounds checks (the CPU backend's default, debug=True on the GPU) a
// tile reaching outside the array reports an IndexError naming the array
// and the first (flat) element index out of range.
// The arguments are evaluated in source order: array, offset, then ldm (*ldm).
llvm::Value* tile_pointer(Lowerer& l, const sema::ExprInfo& inf, size_t array_index, size_t offset_index,
                          size_t ldm_index, llvm::Value** ldm_out, int rows, int cols, bool row_major) {
  auto& b = l.b();
  const ast::Expr* array_expr = inf.ordered_args.at(array_index);
  Val array = l.expr_as(array_expr, inf.param_types.at(array_index));
  llvm::Value* offset = l.expr_as(inf.ordered_args.at(offset_index), ir::int64()).v;
  llvm::Value* ldm = l.expr_as(inf.ordered_args.at(ldm_index), ir::int32()).v;
  *ldm_out = ldm;
  if (l.checks_enabled()) {
    llvm::Value* size = l.i64(1);
    for (unsigned d = 0; d < unsigned(array.t->ndim); ++d)
      size = b.CreateMul(size, b.CreateExtractValue(array.v, {1, d}));
    const int major = row_major ? rows : cols, minor = row_major ? cols : rows;
    llvm::Value* stride = b.CreateSExt(ldm, b.getInt64Ty());
    llvm::Value* last = b.CreateAdd(offset, b.CreateAdd(b.CreateMul(stride, l.i64(major - 1)), l.i64(minor - 1)));
    llvm::Value* below = b.CreateICmpSLT(offset, l.i64(0));
    llvm::Value* index = b.CreateSelect(below, offset, last);
    l.fail_if(b.CreateOr(below, b.CreateICmpSGE(last, size)),
              [&] { l.hooks().index_error(l, l.array_name(array_expr), index, 0, size); });
  }
  llvm::Value* data = b.CreateExtractValue(array.v, {0});
  return b.CreateGEP(l.memory_type(array.t->dtype), data, offset);
}

bool memory_row_major(Lowerer& l, const ast::Expr* layout) {
  return l.info(layout).type->key == "cuda.wmma.mem_row_major";
}

llvm::Value* tf32_bits(Lowerer& l, llvm::Value* f) {
  auto& b = l.b();
  auto* fty = llvm::FunctionType::get(b.getInt32Ty(), {b.getFloatTy()}, false);
  return b.CreateCall(fty, llvm::InlineAsm::get(fty, "cvt.rna.tf32.f32 $0, $1;", "=r,f", false), {f});
}

// The GPU register value of one storage element of fragment `f` holding `v` (float) everywhere.
llvm::Value* gpu_fill_element(Lowerer& l, const WmmaFragment& f, llvm::Type* element, llvm::Value* v) {
  auto& b = l.b();
  if (element->isFloatTy()) return v;
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(element))
    return b.CreateVectorSplat(vt->getNumElements(), b.CreateFPTrunc(v, vt->getElementType()));
  if (f.element == WmmaElement::TF32) return tf32_bits(l, v);
  // bf16 pairs in an i32.
  llvm::Value* bits =
      b.CreateZExt(b.CreateBitCast(b.CreateFPTrunc(v, b.getBFloatTy()), b.getInt16Ty()), b.getInt32Ty());
  return b.CreateOr(bits, b.CreateShl(bits, 16));
}

Val lower_fragment(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  const WmmaFragment& f = fragment_of(inf.type);
  llvm::AllocaInst* storage = nullptr;
  if (l.hooks().is_gpu()) {
    if (f.use != WmmaUse::Accumulator) check_target(l, e, f.element);
    storage = l.entry_alloca(gpu_storage_type(l, f), "wmma.fragment");
  } else {
    storage =
        l.entry_alloca(llvm::ArrayType::get(l.b().getFloatTy(), std::uint64_t(f.rows() * f.cols())), "wmma.fragment");
    storage->setAlignment(llvm::Align(16));
  }
  return {storage, inf.type};
}

Val lower_fill(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const WmmaFragment& f = fragment_of(inf.param_types.at(0));
  llvm::Value* frag = fragment_pointer(l, inf, 0);
  llvm::Value* v = l.expr_as(inf.ordered_args.at(1), ir::float32()).v;
  if (!l.hooks().is_gpu()) {
    llvm::FunctionCallee fill = l.module().getOrInsertFunction(
        "cuhost_cpu_wmma_fill",
        llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(), b.getFloatTy()}, false));
    b.CreateCall(fill, {frag, l.i32(f.rows() * f.cols()), l.i32(cpu_element_code(f.element)), v});
    return {nullptr, inf.type};
  }
  auto* st = llvm::cast<llvm::StructType>(gpu_storage_type(l, f));
  llvm::Value* agg = llvm::UndefValue::get(st);
  llvm::Value* element = gpu_fill_element(l, f, st->getElementType(0), v);
  for (unsigned i = 0; i < st->getNumElements(); ++i) agg = b.CreateInsertValue(agg, element, {i});
  b.CreateStore(agg, frag);
  return {nullptr, inf.type};
}

Val lower_load(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const WmmaFragment& f = fragment_of(inf.param_types.at(0));
  llvm::Value* frag = fragment_pointer(l, inf, 0);
  const bool row_major =
      f.use == WmmaUse::Accumulator ? memory_row_major(l, inf.ordered_args.at(4)) : f.layout == WmmaLayout::RowMajor;
  llvm::Value* ldm = nullptr;
  llvm::Value* address = tile_pointer(l, inf, 1, 2, 3, &ldm, f.rows(), f.cols(), row_major);
  if (!l.hooks().is_gpu()) {
    llvm::FunctionCallee load = l.module().getOrInsertFunction(
        "cuhost_cpu_wmma_load", llvm::FunctionType::get(b.getVoidTy(),
                                                        {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(),
                                                         b.getInt32Ty(), b.getInt64Ty(), b.getInt32Ty()},
                                                        false));
    b.CreateCall(load, {frag, address, l.i32(cpu_element_code(f.element)), l.i32(f.rows()), l.i32(f.cols()),
                        b.CreateSExt(ldm, b.getInt64Ty()), l.i32(row_major ? 1 : 0)});
    return {nullptr, inf.type};
  }
  llvm::Value* loaded = b.CreateCall(gpu_load(l, f, row_major), {address, ldm});
  if (f.element == WmmaElement::TF32) {
    auto* st = llvm::cast<llvm::StructType>(loaded->getType());
    for (unsigned i = 0; i < st->getNumElements(); ++i) {
      llvm::Value* x = b.CreateBitCast(b.CreateExtractValue(loaded, {i}), b.getFloatTy());
      loaded = b.CreateInsertValue(loaded, tf32_bits(l, x), {i});
    }
  }
  b.CreateStore(loaded, frag);
  return {nullptr, inf.type};
}

Val lower_store(Lowerer& l, const ast::Expr*, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const WmmaFragment& f = fragment_of(inf.param_types.at(2));
  const bool row_major = memory_row_major(l, inf.ordered_args.at(4));
  llvm::Value* ldm = nullptr;
  llvm::Value* address = tile_pointer(l, inf, 0, 1, 3, &ldm, f.rows(), f.cols(), row_major);
  llvm::Value* frag = fragment_pointer(l, inf, 2);
  if (!l.hooks().is_gpu()) {
    llvm::FunctionCallee store = l.module().getOrInsertFunction(
        "cuhost_cpu_wmma_store", llvm::FunctionType::get(b.getVoidTy(),
                                                         {b.getPtrTy(), b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(),
                                                          b.getInt64Ty(), b.getInt32Ty(), b.getInt32Ty()},
                                                         false));
    llvm::Value* lane = l.hooks().special_reg(l, SpecialReg::LaneId, 0);
    b.CreateCall(store, {address, frag, l.i32(f.rows()), l.i32(f.cols()), b.CreateSExt(ldm, b.getInt64Ty()),
                         l.i32(row_major ? 1 : 0), lane});
    return {nullptr, inf.type};
  }
  llvm::Function* fn =
      nvvm_intrinsic(l, concat("llvm.nvvm.wmma.", shape_name(f), ".store.d.", row_major ? "row" : "col", ".stride.f32"),
                     llvm::PointerType::get(l.ctx(), 0));
  llvm::Type* st_type = gpu_storage_type(l, f);
  llvm::Value* values = b.CreateLoad(st_type, frag);
  std::vector<llvm::Value*> args = {address};
  for (unsigned i = 0; i < llvm::cast<llvm::StructType>(st_type)->getNumElements(); ++i)
    args.push_back(b.CreateExtractValue(values, {i}));
  args.push_back(ldm);
  b.CreateCall(fn, args);
  return {nullptr, inf.type};
}

Val lower_mma(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const WmmaFragment& fa = fragment_of(inf.param_types.at(1));
  const WmmaFragment& fb = fragment_of(inf.param_types.at(2));
  const WmmaFragment& fc = fragment_of(inf.param_types.at(3));
  llvm::Value* d = fragment_pointer(l, inf, 0);
  llvm::Value* a = fragment_pointer(l, inf, 1);
  llvm::Value* bb = fragment_pointer(l, inf, 2);
  llvm::Value* c = fragment_pointer(l, inf, 3);
  if (!l.hooks().is_gpu()) {
    llvm::FunctionCallee mma = l.module().getOrInsertFunction(
        "cuhost_cpu_wmma_mma", llvm::FunctionType::get(b.getVoidTy(),
                                                       {b.getPtrTy(), b.getPtrTy(), b.getPtrTy(), b.getPtrTy(),
                                                        b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()},
                                                       false));
    b.CreateCall(mma, {d, a, bb, c, l.i32(fa.m), l.i32(fa.n), l.i32(fa.k)});
    return {nullptr, inf.type};
  }
  check_target(l, e, fa.element);
  const char* kind = fa.element == WmmaElement::F16 ? "f32.f32" : element_suffix(fa.element);
  llvm::Function* fn = nvvm_intrinsic(
      l,
      concat("llvm.nvvm.wmma.", shape_name(fa), ".mma.", fa.layout == WmmaLayout::RowMajor ? "row" : "col", ".",
             fb.layout == WmmaLayout::RowMajor ? "row" : "col", ".", kind),
      nullptr);
  std::vector<llvm::Value*> args;
  for (auto [p, f] : {std::pair{a, &fa}, std::pair{bb, &fb}, std::pair{c, &fc}}) {
    llvm::Type* st = gpu_storage_type(l, *f);
    llvm::Value* values = b.CreateLoad(st, p);
    for (unsigned i = 0; i < llvm::cast<llvm::StructType>(st)->getNumElements(); ++i)
      args.push_back(b.CreateExtractValue(values, {i}));
  }
  b.CreateStore(b.CreateCall(fn, args), d);
  return {nullptr, inf.type};
}

}  // namespace

void register_wmma(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.wmma.fragment"] = lower_fragment;
  table["cuda.wmma.fill_fragment"] = lower_fill;
  table["cuda.wmma.load_matrix_sync"] = lower_load;
  table["cuda.wmma.store_matrix_sync"] = lower_store;
  table["cuda.wmma.mma_sync"] = lower_mma;
}

}  // namespace cuhost::codegen
