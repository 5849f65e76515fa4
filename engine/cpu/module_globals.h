// The globals of a CPU JIT module as plugin host libraries see them
// (plugin::ModuleGlobals): a module's defined, externally visible variables
// are looked up when it is added to the JIT, and reads and writes are plain
// memcpys. Constant globals (CUDA __constant__ compiles to const host data)
// are reported read-only.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "plugin/host_library.h"

namespace llvm {
class Module;
}

namespace cuhost::cpu {

struct GlobalSymbol {
  std::string name;
  std::size_t bytes = 0;
  bool read_only = false;
  void* address = nullptr;  // filled in once the module is in the JIT
};

// The defined global variables of `m` that the JIT can look up by name.
std::vector<GlobalSymbol> exported_globals(const llvm::Module& m);

std::shared_ptr<plugin::ModuleGlobals> make_module_globals(std::vector<GlobalSymbol> globals);

}  // namespace cuhost::cpu
