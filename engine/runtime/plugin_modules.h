// Plugin host libraries on the CPU backend: the compiler driver asks the JIT
// for the addresses of a kernel module's globals alongside its entry points,
// then the host libraries of the plugins it links set the module up (as the
// GPU module loader does in cuda/module.cpp). CPU modules stay in the JIT
// for the whole process, so their teardowns run at exit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cpu/module_globals.h"
#include "ir/foreign.h"
#include "plugin/host_library.h"

namespace llvm {
class Module;
}

namespace cuhost::runtime {

class CpuPluginSetup {
 public:
  // Finds the plugins with host libraries among `link` and the CPU items of
  // `foreign`; with none, the other calls do nothing. The module's globals
  // are also looked up when `want_globals` (LinkableCode callbacks use them).
  CpuPluginSetup(const std::vector<ir::LinkItem>& link,
                 const std::vector<std::shared_ptr<const ir::ForeignFunction>>& foreign, const llvm::Module& m,
                 bool want_globals = false);
  // Appends the module's global names to the symbols the JIT looks up.
  void add_lookups(std::vector<std::string>& symbols);
  // Runs the setups, given the looked-up addresses. Throws UserError(PluginError).
  void run(const std::vector<void*>& addresses, const std::string& kernel_name);
  // The module's globals with their addresses (after run()).
  const std::vector<cpu::GlobalSymbol>& globals() const { return globals_; }

 private:
  std::vector<std::string> plugins_;
  std::vector<cpu::GlobalSymbol> globals_;
  std::size_t first_ = 0;  // index of the first global among the looked-up symbols
  bool want_globals_ = false;
};

}  // namespace cuhost::runtime
