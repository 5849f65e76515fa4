// The globals of a loaded CUlibrary as plugin host libraries see them
// (model::ModuleGlobals): cuLibraryGetGlobal finds them and
// cuMemcpyHtoD/DtoH copy, in the module's context (current while it is set
// up and torn down).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>

#include "model/module_globals.h"

namespace cuhost::cuda {

std::shared_ptr<model::ModuleGlobals> make_module_globals(std::uintptr_t library);

// Writes the device address `target` into the pointer global `symbol` of a
// loaded library (one the library defines: library_may_define), in the
// current context: how the engine binds its per-context words (the deadline
// flag, the NRT counters) to each module that reads them.
void point_library_global(CUlibrary library, const char* symbol, CUdeviceptr target);

}  // namespace cuhost::cuda
