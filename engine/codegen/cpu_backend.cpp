// The host half of stage 7: a TargetMachine for the host CPU with its
// native features (the same triple and data layout the ORC JIT uses).
#include "codegen/cpu_backend.h"

#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include <mutex>
#include <set>

#include "codegen/host_target.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

std::unique_ptr<llvm::TargetMachine> make_host_target_machine() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::string triple = host_target().triple;
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) throw UserError(ErrorKind::CompileError, "host target unavailable: " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(triple, host_target().cpu, host_target().features,
                                                                      options, llvm::Reloc::PIC_, std::nullopt,
                                                                      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) throw UserError(ErrorKind::CompileError, "cannot create a target machine for the host");
  return tm;
}

void internalize_except(llvm::Module& m, const std::vector<std::string>& keep) {
  std::set<std::string> kept(keep.begin(), keep.end());
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !kept.count(f.getName().str())) f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

}  // namespace cuhost::codegen
