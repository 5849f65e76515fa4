// Finding a script's @cuda.jit kernel by name for the C++ launch API
// (Runtime::kernel): the only part of that API that needs the interpreter.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"
#include "runtime/compiler.h"

namespace cuhost::python {

// `name` is a global of __main__, or "module:name". Takes the GIL. Throws
// UserError: NameError when it does not exist, TypeError when it is not a
// kernel (or is a device function), and the compiler's errors for the types.
std::shared_ptr<const runtime::CompiledKernel> compile_script_kernel(const std::string& name,
                                                                     const std::vector<const ir::Type*>& arg_types);

}  // namespace cuhost::python
