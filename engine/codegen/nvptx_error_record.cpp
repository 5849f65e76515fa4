// Emits the GPU report of a failed check: an atomic compare-and-swap claims
// the module's error record for the first failing thread, which then stores
// the site, the value and its thread and block indices. The sites (their
// encoded bytes, support/kernel_error.h) are visible constant globals the
// host reads by name when a record is set, so neither the kernel nor the
// compiled-kernel cache carries a separate table.
#include "codegen/nvptx_error_record.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

constexpr unsigned kGlobal = 1;

llvm::GlobalVariable* error_record(llvm::Module& m) {
  if (llvm::GlobalVariable* g = m.getNamedGlobal(kErrorRecordSymbol)) return g;
  auto* ty = llvm::ArrayType::get(llvm::Type::getInt64Ty(m.getContext()), kErrorRecordSlots);
  auto* g = new llvm::GlobalVariable(m, ty, false, llvm::GlobalValue::ExternalLinkage, llvm::Constant::getNullValue(ty),
                                     kErrorRecordSymbol, nullptr, llvm::GlobalValue::NotThreadLocal, kGlobal);
  g->setExternallyInitialized(true);
  g->setAlignment(llvm::Align(8));
  return g;
}

// Adds the site as the next numbered site global; returns its number.
std::int64_t add_site(llvm::Module& m, const KernelErrorSite& site) {
  std::int64_t n = 0;
  while (m.getNamedGlobal(concat(kErrorSitePrefix, n))) ++n;
  llvm::Constant* init = llvm::ConstantDataArray::getString(m.getContext(), encode_site(site), false);
  auto* g = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init,
                                     concat(kErrorSitePrefix, n), nullptr, llvm::GlobalValue::NotThreadLocal, kGlobal);
  g->setAlignment(llvm::Align(1));
  return n;
}

}  // namespace

void drop_unreferenced_error_record(llvm::Module& m) {
  llvm::GlobalVariable* record = m.getNamedGlobal(kErrorRecordSymbol);
  if (!record || !record->use_empty()) return;
  record->eraseFromParent();
  std::vector<llvm::GlobalVariable*> sites;
  for (llvm::GlobalVariable& g : m.globals())
    if (g.getName().starts_with(kErrorSitePrefix) && g.use_empty()) sites.push_back(&g);
  for (llvm::GlobalVariable* g : sites) g->eraseFromParent();
}

bool is_error_record_global(const std::string& name) {
  return name == kErrorRecordSymbol || name.rfind(kErrorSitePrefix, 0) == 0;
}

void emit_gpu_error_report(Lowerer& l, ErrorRecordKind kind, const KernelErrorSite& site, llvm::Value* value,
                           llvm::Value* dim, llvm::Value* extent) {
  auto& b = l.b();
  llvm::Module& m = l.module();
  llvm::GlobalVariable* record = error_record(m);
  const std::int64_t site_number = add_site(m, site);
  auto* i64 = b.getInt64Ty();
  auto slot = [&](int i) { return b.CreateConstInBoundsGEP2_64(record->getValueType(), record, 0, i); };

  llvm::Value* claimed =
      b.CreateAtomicCmpXchg(slot(kErrorKind), b.getInt64(0), b.getInt64(std::int64_t(kind)), llvm::MaybeAlign(8),
                            llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
  llvm::Value* first = b.CreateExtractValue(claimed, 1);
  auto* fill = llvm::BasicBlock::Create(l.ctx(), "error.record", l.function());
  auto* done = llvm::BasicBlock::Create(l.ctx(), "error.recorded", l.function());
  b.CreateCondBr(first, fill, done);

  b.SetInsertPoint(fill);
  auto store = [&](int i, llvm::Value* v) {
    if (v) b.CreateStore(b.CreateSExtOrTrunc(v, i64), slot(i));
  };
  store(kErrorSite, b.getInt64(site_number));
  store(kErrorValue, value);
  store(kErrorDim, dim);
  store(kErrorExtent, extent);
  using namespace llvm::Intrinsic;
  const ID tid[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y, nvvm_read_ptx_sreg_tid_z};
  const ID bid[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y, nvvm_read_ptx_sreg_ctaid_z};
  for (int a = 0; a < 3; ++a) {
    store(kErrorTid + a, b.CreateZExt(b.CreateIntrinsic(tid[a], {}, {}), i64));
    store(kErrorBid + a, b.CreateZExt(b.CreateIntrinsic(bid[a], {}, {}), i64));
  }
  b.CreateIntrinsic(nvvm_membar_gl, {}, {});
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace cuhost::codegen
