// The host CPU description (see host_target.h), worked out the way ORC's
// JITTargetMachineBuilder::detectHost() does, with CUHOST_CPU applied.
#include "codegen/host_target.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

#include <cstdlib>
#include <memory>
#include <mutex>

#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

std::string error_text(llvm::Error err) {
  std::string out;
  llvm::handleAllErrors(std::move(err), [&](const llvm::ErrorInfoBase& e) { out += e.message(); });
  return out;
}

HostTarget detect() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw UserError(ErrorKind::CompileError, "cannot target the host CPU: " + error_text(jtmb.takeError()));
  HostTarget t;
  t.triple = jtmb->getTargetTriple().str();
  t.cpu = jtmb->getCPU();
  if (t.cpu.empty()) t.cpu = llvm::sys::getHostCPUName().str();
  t.features = jtmb->getFeatures().getString();
  if (const char* forced = std::getenv("CUHOST_CPU"); forced && *forced) {
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(t.triple, error);
    std::unique_ptr<llvm::MCSubtargetInfo> sti(target ? target->createMCSubtargetInfo(t.triple, "", "") : nullptr);
    if (!sti || !sti->isCPUStringValid(forced))
      throw UserError(ErrorKind::ValueError, concat("CUHOST_CPU='", forced, "' is not a CPU LLVM knows for ", t.triple,
                                                    " (e.g. x86-64, x86-64-v3, haswell, znver3)"));
    t.cpu = forced;
    t.features.clear();
    jtmb->setCPU(t.cpu);
    jtmb->getFeatures() = llvm::SubtargetFeatures();
  }
  auto dl = jtmb->getDefaultDataLayoutForTarget();
  if (!dl) throw UserError(ErrorKind::CompileError, "no data layout for the host: " + error_text(dl.takeError()));
  t.data_layout = dl->getStringRepresentation();
  return t;
}

}  // namespace

const HostTarget& host_target() {
  // Not a function-local static initialized by detect(): a throw there must
  // reach the caller every time, not only the first.
  static std::mutex mutex;
  static std::unique_ptr<HostTarget> cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cached) cached = std::make_unique<HostTarget>(detect());
  return *cached;
}

}  // namespace cuhost::codegen
