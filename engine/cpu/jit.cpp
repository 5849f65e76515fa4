// The process-wide host JIT (see jit.h). One LLJIT for the process, created
// on first use, with no access to the process's symbols: a "cuhost.runtime"
// JITDylib holds the whitelist (host_symbols.h) as absolute symbols, and each
// added module gets its own JITDylib linked against it (so kernels recompiled
// under the same names never clash). Unresolved references are found before
// handing the module to ORC (declarations that are neither whitelisted nor
// defined) and, for libcalls LLVM introduces while compiling, from the error
// ORC reports; both become UserError(LinkerError) naming the symbols, as
// nvJitLink's unresolved-symbol errors do on the GPU, so scripts see the
// same exception class on every backend. Other failures are CompileErrors.
#include "cpu/jit.h"

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>

#include "codegen/host_target.h"
#include "cpu/host_symbols.h"
#include "support/diagnostics.h"

namespace cuhost::cpu {

namespace {

std::string error_text(llvm::Error err) { return llvm::toString(std::move(err)); }

class HostJit {
 public:
  static HostJit& instance() {
    static HostJit* jit = new HostJit();  // kept for the process: modules stay alive
    return *jit;
  }

  llvm::orc::LLJIT& lljit() { return *jit_; }
  llvm::orc::JITDylib& runtime() { return *runtime_; }
  const std::string& triple() const { return triple_; }
  const std::string& data_layout() const { return data_layout_; }
  const std::string& cpu() const { return cpu_; }
  const std::string& features() const { return features_; }
  bool whitelisted(const std::string& name) const { return names_.count(name) != 0; }

  // Errors ORC reports asynchronously (materialization failures), kept so
  // add_module can name the missing symbols.
  std::string take_reported() {
    std::lock_guard<std::mutex> lock(reported_mutex_);
    std::string out;
    out.swap(reported_);
    return out;
  }

  std::string next_dylib_name() { return "cuhost.module." + std::to_string(counter_++); }

 private:
  HostJit() {
    const codegen::HostTarget& host = codegen::host_target();
    triple_ = host.triple;
    data_layout_ = host.data_layout;
    cpu_ = host.cpu;
    features_ = host.features;
    llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(triple_)};
    jtmb.setCPU(cpu_);
    jtmb.getFeatures() = llvm::SubtargetFeatures(features_);
    jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);

    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(jtmb))
                   .setLinkProcessSymbolsByDefault(false)
                   .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                   .create();
    if (!jit) throw UserError(ErrorKind::CompileError, "cannot create the host JIT: " + error_text(jit.takeError()));
    jit_ = std::move(*jit);
    jit_->getExecutionSession().setErrorReporter([this](llvm::Error err) {
      std::string text = error_text(std::move(err));
      std::lock_guard<std::mutex> lock(reported_mutex_);
      if (!reported_.empty()) reported_ += "; ";
      reported_ += text;
    });

    auto rt = jit_->getExecutionSession().createJITDylib("cuhost.runtime");
    if (!rt)
      throw UserError(ErrorKind::CompileError, "cannot create the runtime JITDylib: " + error_text(rt.takeError()));
    runtime_ = &*rt;
    llvm::orc::SymbolMap map;
    for (const auto& [name, addr] : host_symbols()) {
      names_.insert(name);
      map[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(addr),
                                          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    }
    if (auto err = runtime_->define(llvm::orc::absoluteSymbols(std::move(map))))
      throw UserError(ErrorKind::CompileError, "cannot define the host symbols: " + error_text(std::move(err)));
  }

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  llvm::orc::JITDylib* runtime_ = nullptr;
  std::set<std::string> names_;
  std::string triple_, data_layout_, cpu_, features_;
  std::mutex reported_mutex_;
  std::string reported_;
  std::atomic<unsigned> counter_{0};
};

std::mutex& jit_mutex() {
  static std::mutex m;
  return m;
}

// Declarations the module needs from outside that the whitelist lacks.
std::vector<std::string> unresolved_declarations(const llvm::Module& m, const HostJit& jit) {
  std::vector<std::string> out;
  for (const llvm::Function& f : m.functions()) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty()) continue;
    if (!jit.whitelisted(f.getName().str())) out.push_back(f.getName().str());
  }
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() || g.use_empty()) continue;
    if (!jit.whitelisted(g.getName().str())) out.push_back(g.getName().str());
  }
  return out;
}

std::string join_quoted(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out;
}

}  // namespace

std::vector<void*> add_module(std::unique_ptr<llvm::Module> module, std::unique_ptr<llvm::LLVMContext> context,
                              const std::vector<std::string>& symbols) {
  CUHOST_CHECK(module && context) << "add_module needs a module and its context";
  HostJit& jit = HostJit::instance();
  std::string module_name = module->getModuleIdentifier();

  auto missing = unresolved_declarations(*module, jit);
  if (!missing.empty())
    throw UserError(
        ErrorKind::LinkerError,
        concat("unresolved symbol", missing.size() > 1 ? "s " : " ", join_quoted(missing), " in module '", module_name,
               "': only the CPU runtime, libm and memcpy/memset/memmove can be called from host code"));
  if (module->getTargetTriple().empty()) module->setTargetTriple(jit.triple());
  if (module->getDataLayout().isDefault()) module->setDataLayout(jit.data_layout());

  // One add + lookup at a time keeps the reported-error buffer attributable.
  std::lock_guard<std::mutex> lock(jit_mutex());
  jit.take_reported();
  auto& es = jit.lljit().getExecutionSession();
  auto dylib = es.createJITDylib(jit.next_dylib_name());
  if (!dylib) throw UserError(ErrorKind::CompileError, "cannot create a JITDylib: " + error_text(dylib.takeError()));
  dylib->addToLinkOrder(jit.runtime());
  llvm::orc::ThreadSafeModule tsm(std::move(module), llvm::orc::ThreadSafeContext(std::move(context)));
  if (auto err = jit.lljit().addIRModule(*dylib, std::move(tsm)))
    throw UserError(ErrorKind::CompileError,
                    concat("cannot add module '", module_name, "' to the host JIT: ", error_text(std::move(err))));

  std::vector<void*> out;
  out.reserve(symbols.size());
  for (const std::string& name : symbols) {
    auto addr = jit.lljit().lookup(*dylib, name);
    if (!addr) {
      std::string err = error_text(addr.takeError());
      std::string reported = jit.take_reported();
      std::string detail = reported.empty() ? err : reported;
      bool missing_symbol = detail.find("Symbols not found") != std::string::npos;
      throw UserError(missing_symbol ? ErrorKind::LinkerError : ErrorKind::CompileError,
                      concat("cannot compile '", name, "' for the host: ", detail));
    }
    out.push_back(addr->toPtr<void*>());
  }
  return out;
}

}  // namespace cuhost::cpu
