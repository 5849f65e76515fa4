// Builds the CPU library of an export (see cpu_library.h).
#include "aot_export/cpu_library.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "aot/cpu_library_abi.h"
#include "runtime/compile_lookup.h"
#include "runtime/compiler.h"
#include "support/diagnostics.h"
#include "support/install_layout.h"
#include "support/source_hash.h"

namespace cuhost::aot_export {
namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The kernel's optimized module, retargeted to `cpu`: every function's
// target-cpu and target-features replaced (the backend then uses exactly
// that CPU's features) and everything but the entry points internalized,
// so several kernels' modules link into one library without clashes.
std::unique_ptr<llvm::Module> retargeted_module(const model::CompiledKernel& k, const std::string& cpu,
                                                const std::string& features, llvm::LLVMContext& context) {
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(k.llvm_ir, diag, context);
  if (!m)
    throw UserError(ErrorKind::CompileError,
                    concat("kernel '", k.name, "': its CPU module does not parse: ", diag.getMessage().str()));
  for (llvm::Function& f : *m) {
    if (f.isDeclaration()) continue;
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
    f.addFnAttr("target-cpu", cpu);
    if (!features.empty()) f.addFnAttr("target-features", features);
  }
  std::set<std::string> keep = {k.cpu_thread_symbol};
  if (!k.cpu_block_symbol.empty()) keep.insert(k.cpu_block_symbol);
  llvm::internalizeModule(*m, [&](const llvm::GlobalValue& gv) { return keep.count(gv.getName().str()) > 0; });
  for (const std::string& name : keep) {
    llvm::GlobalValue* gv = m->getNamedValue(name);
    if (!gv)
      throw UserError(ErrorKind::CompileError,
                      concat("kernel '", k.name, "': its CPU module lacks the entry point '", name, "'"));
    gv->setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  return m;
}

void write_object(llvm::Module& m, const std::string& cpu, const std::string& features, const std::string& path) {
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(m.getTargetTriple(), error);
  if (!target)
    throw UserError(ErrorKind::CompileError, concat("no LLVM target for ", m.getTargetTriple(), ": ", error));
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      m.getTargetTriple(), cpu, features, options, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm) throw UserError(ErrorKind::CompileError, concat("LLVM cannot target the CPU '", cpu, "'"));
  m.setDataLayout(tm->createDataLayout());
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec) throw UserError(ErrorKind::RuntimeError, concat("cannot write ", path, ": ", ec.message()));
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile))
    throw UserError(ErrorKind::CompileError, concat("LLVM cannot emit an object file for the CPU '", cpu, "'"));
  pm.run(m);
  out.flush();
}

// Whether LLVM knows `cpu` for `triple` (an unknown CPU would only warn on stderr).
void check_cpu_name(const std::string& triple, const std::string& cpu) {
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) throw UserError(ErrorKind::CompileError, concat("no LLVM target for ", triple, ": ", error));
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(triple, "", ""));
  if (sti && !sti->isCPUStringValid(cpu))
    throw UserError(ErrorKind::ValueError,
                    concat("unknown CPU '", cpu, "' for ", triple, " in --cpu (e.g. x86-64, x86-64-v3, native)"));
}

std::string cxx_driver() {
  if (const char* cxx = std::getenv("CXX"); cxx && *cxx) return cxx;
  for (const char* candidate : {"/usr/bin/c++", "/usr/bin/g++", "/usr/bin/clang++", CUHOST_CLANG_PATH})
    if (file_exists(candidate)) return candidate;
  return "c++";
}

}  // namespace

std::string block_runtime_archive() {
  if (const char* path = std::getenv("CUHOST_AOT_BLOCK_RUNTIME"); path && *path) return path;
  return support::data_dir() + "/aot/libcuhost_cpu_block_runtime.a";
}

CpuKernel compile_cpu(const SelectedKernel& kernel) {
  model::TargetOptions t;
  t.target = model::Target::CPU;
  t.bounds_check = kernel.bounds_check;
  CpuKernel out;
  out.compiled = runtime::compile_kernel(kernel.fn, kernel.arg_types, t);
  const model::CompiledKernel& k = *out.compiled;
  if (k.has_module_callbacks)
    throw UserError(ErrorKind::NotImplementedError,
                    concat("kernel '", kernel.name,
                           "' links code with Python setup/teardown callbacks (LinkableCode); an exported "
                           "library runs without Python, so it cannot run them"));
  for (const ir::LinkItem& item : k.link)
    if (!item.plugin_dir.empty())
      throw UserError(ErrorKind::NotImplementedError,
                      concat("kernel '", kernel.name, "' links '", item.name, "' of the plugin in ", item.plugin_dir,
                             ", which has a host library; exporting plugins with host libraries is not supported"));
  if (k.llvm_ir.empty() || k.cpu_thread_symbol.empty())
    throw UserError(ErrorKind::CompileError, concat("kernel '", kernel.name, "' has no CPU module to export"));
  return out;
}

void write_cpu_library(const std::vector<CpuKernel>& kernels, const std::string& cpu_name, const std::string& work_dir,
                       const std::string& library_path) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string cpu = cpu_name, features;
  if (cpu == "native") {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
    for (const auto& f : host)
      features += (features.empty() ? "" : ",") + std::string(f.second ? "+" : "-") + f.first().str();
  }
  std::string archive = block_runtime_archive();
  if (!file_exists(archive))
    throw UserError(ErrorKind::FileNotFoundError,
                    concat("the CPU block runtime archive ", archive,
                           " is missing (set CUHOST_AOT_BLOCK_RUNTIME or install cuhost's aot files)"));
  std::vector<std::string> objects;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const model::CompiledKernel& k = *kernels[i].compiled;
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> m = retargeted_module(k, cpu, features, context);
    if (i == 0) check_cpu_name(m->getTargetTriple(), cpu);
    std::string object = concat(work_dir, "/kernel", i, ".o");
    write_object(*m, cpu, features, object);
    objects.push_back(object);
  }
  std::string log = work_dir + "/link.log";
  // Only the kernels' entries and the library's own entry points are
  // exported: the block runtime's C++ (its standard library templates
  // among it) stays local, so it never interposes on the host's.
  const std::string version_script = work_dir + "/exports.map";
  {
    std::ofstream map(version_script);
    map << "{\n  global:\n    cuhost_aot_cpu_*;\n";
    for (const CpuKernel& k : kernels) {
      map << "    \"" << k.compiled->cpu_thread_symbol << "\";\n";
      if (!k.compiled->cpu_block_symbol.empty()) map << "    \"" << k.compiled->cpu_block_symbol << "\";\n";
    }
    map << "  local: *;\n};\n";
  }
  std::ostringstream cmd;
  cmd << shell_quote(cxx_driver()) << " -shared -o " << shell_quote(library_path)
      << " -Wl,--version-script=" << shell_quote(version_script);
  for (const std::string& o : objects) cmd << " " << shell_quote(o);
  // The entry points are what the library is for, but nothing in it calls
  // them: -u pulls their archive member in. The archive was compiled with
  // hidden visibility, so only they and the kernels' entries are exported.
  cmd << " -Wl,-u," CUHOST_AOT_CPU_ABI_VERSION_FN " -Wl,-u," CUHOST_AOT_CPU_LAUNCH_FN
         " -Wl,-u," CUHOST_AOT_CPU_MAX_COOPERATIVE_FN " "
      << shell_quote(archive) << " -Wl,--no-undefined -Wl,-z,noexecstack -pthread -lm -ldl > " << shell_quote(log)
      << " 2>&1";
  int rc = std::system(cmd.str().c_str());
  if (rc != 0) {
    std::string text;
    read_whole_file(log, text);
    throw UserError(ErrorKind::CompileError,
                    concat("linking the CPU library ", library_path, " failed (", cmd.str(), "):\n", text));
  }
  std::remove(log.c_str());
}

}  // namespace cuhost::aot_export
