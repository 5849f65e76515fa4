// The globals of a CPU JIT module as plugin host libraries see them
// (model::ModuleGlobals): a module's defined, externally visible variables
// are looked up when it is added to the JIT, and reads and writes are plain
// memcpys. Constant globals (CUDA __constant__ compiles to const host data)
// are reported read-only.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "model/compiled_kernel.h"
#include "model/module_globals.h"

namespace llvm {
class Module;
}

namespace cuhost::cpu {

using GlobalSymbol = model::GlobalSymbol;

// The defined global variables of `m` that the JIT can look up by name.
std::vector<GlobalSymbol> exported_globals(const llvm::Module& m);

std::shared_ptr<model::ModuleGlobals> make_module_globals(std::vector<GlobalSymbol> globals);

}  // namespace cuhost::cpu
