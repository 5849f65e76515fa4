// libcuhost_clang: clang-19's driver and compiler in the process (see
// clang_in_process.h). Running clang as a child costs ~20 ms before it reads
// a line (exec, then the dynamic loader relocating libLLVM and libclang-cpp);
// in the process, libLLVM is already loaded. As clang's own driver does for
// its in-process compiler (-fintegrated-cc1), the compile runs under a
// CrashRecoveryContext, so a compiler crash on some input fails that compile
// instead of the host.
#include "ffi/clang_module/clang_in_process.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Driver/Tool.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex g_mutex;  // one compile at a time: the driver reads process-wide LLVM options

char* copy_out(const std::string& text) {
  char* p = static_cast<char*>(std::malloc(text.size() + 1));
  if (p) std::memcpy(p, text.c_str(), text.size() + 1);
  return p;
}

int compile(const std::vector<const char*>& args, std::string& messages) {
  llvm::raw_string_ostream out(messages);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> driver_options(new clang::DiagnosticOptions());
  clang::DiagnosticsEngine driver_diagnostics(new clang::DiagnosticIDs(), driver_options,
                                              new clang::TextDiagnosticPrinter(out, driver_options.get()));
  // The driver turns the arguments into its jobs; in process only the
  // compiler's own job runs (one source to bitcode: one job of the "clang"
  // tool). Anything else needs the executable.
  clang::driver::Driver driver(args[0], llvm::sys::getDefaultTargetTriple(), driver_diagnostics);
  std::unique_ptr<clang::driver::Compilation> jobs(driver.BuildCompilation(args));
  if (!jobs || jobs->containsError()) return driver_diagnostics.hasErrorOccurred() ? 1 : 2;
  if (jobs->getJobs().size() != 1) return 2;
  const clang::driver::Command& job = *jobs->getJobs().begin();
  const llvm::opt::ArgStringList& job_args = job.getArguments();
  if (std::string(job.getCreator().getName()) != "clang" || job_args.empty() || std::string(job_args[0]) != "-cc1")
    return 2;
  // The driver asks its compiler process not to free what it built
  // (-disable-free: the process exits next); this process goes on.
  std::vector<const char*> compiler_args;
  for (size_t i = 1; i < job_args.size(); ++i)
    if (std::string(job_args[i]) != "-disable-free") compiler_args.push_back(job_args[i]);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, compiler_args, driver_diagnostics, args[0])) return 1;
  clang::CompilerInstance compiler;
  compiler.setInvocation(invocation);
  compiler.createDiagnostics(new clang::TextDiagnosticPrinter(out, &invocation->getDiagnosticOpts()), true);
  compiler.setVerboseOutputStream(out);  // "N warnings generated." goes with the messages, not to stderr
  clang::EmitBCAction action;
  bool compiled = false;
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  const bool survived = recovery.RunSafely([&] { compiled = compiler.ExecuteAction(action); });
  llvm::CrashRecoveryContext::Disable();
  if (!survived) {
    out << "error: clang crashed compiling this source (in process)\n";
    return 1;
  }
  return compiled ? 0 : 1;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int cuhost_clang_compile(const char* const* argv, int argc,
                                                                           char** diagnostics) {
  // The targets cuhost compiles for (NVPTX, the host), which the engine has
  // registered already: registering others here could race with the
  // engine's own lookups on another thread.
  static std::once_flag targets;
  std::call_once(targets, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string messages;
  int rc = 2;
  try {
    rc = compile(std::vector<const char*>(argv, argv + argc), messages);
  } catch (const std::exception& e) {
    messages += std::string("error: ") + e.what() + "\n";
    rc = 2;
  }
  if (diagnostics) *diagnostics = copy_out(messages);
  return rc;
}

extern "C" __attribute__((visibility("default"))) void cuhost_clang_free(char* text) { std::free(text); }
