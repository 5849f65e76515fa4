// CPU JIT module globals for plugin host libraries (see module_globals.h).
#include "cpu/module_globals.h"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include <cstring>

#include "cuhost/plugin_abi.h"
#include "support/diagnostics.h"

namespace cuhost::cpu {

namespace {

class CpuModuleGlobals : public model::ModuleGlobals {
 public:
  explicit CpuModuleGlobals(std::vector<GlobalSymbol> globals) : globals_(std::move(globals)) {}
  int backend() const override { return CUHOST_PLUGIN_BACKEND_CPU; }
  int find(const std::string& name, std::uint64_t* address, std::size_t* bytes, bool* read_only,
           std::string* error) override {
    for (const GlobalSymbol& g : globals_) {
      if (g.name != name || !g.address) continue;
      *address = reinterpret_cast<std::uintptr_t>(g.address);
      *bytes = g.bytes;
      *read_only = g.read_only;
      return CUHOST_PLUGIN_OK;
    }
    *error = concat("no global named '", name,
                    "' in the module (declare it extern \"C\" __device__ in the plugin's source, and call a "
                    "function that uses it)");
    return CUHOST_PLUGIN_NOT_FOUND;
  }
  int copy_in(std::uint64_t address, const void* src, std::size_t bytes, std::string*) override {
    std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), src, bytes);
    return CUHOST_PLUGIN_OK;
  }
  int copy_out(void* dst, std::uint64_t address, std::size_t bytes, std::string*) override {
    std::memcpy(dst, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), bytes);
    return CUHOST_PLUGIN_OK;
  }

 private:
  std::vector<GlobalSymbol> globals_;
};

}  // namespace

std::vector<GlobalSymbol> exported_globals(const llvm::Module& m) {
  std::vector<GlobalSymbol> out;
  const llvm::DataLayout& dl = m.getDataLayout();
  for (const llvm::GlobalVariable& g : m.globals()) {
    // available_externally copies are not emitted, so the JIT could not find them.
    if (g.isDeclaration() || g.hasLocalLinkage() || g.hasAvailableExternallyLinkage() || !g.hasName() ||
        g.getName().starts_with("llvm."))
      continue;
    GlobalSymbol s;
    s.name = g.getName().str();
    s.bytes = static_cast<std::size_t>(dl.getTypeAllocSize(g.getValueType()));
    s.read_only = g.isConstant();
    out.push_back(std::move(s));
  }
  return out;
}

std::shared_ptr<model::ModuleGlobals> make_module_globals(std::vector<GlobalSymbol> globals) {
  return std::make_shared<CpuModuleGlobals>(std::move(globals));
}

}  // namespace cuhost::cpu
