// The globals of a loaded CUlibrary as plugin host libraries see them
// (model::ModuleGlobals): cuLibraryGetGlobal finds them and
// cuMemcpyHtoD/DtoH copy, in the module's context (current while it is set
// up and torn down).
#pragma once

#include <cstdint>
#include <memory>

#include "model/module_globals.h"

namespace cuhost::cuda {

std::shared_ptr<model::ModuleGlobals> make_module_globals(std::uintptr_t library);

}  // namespace cuhost::cuda
