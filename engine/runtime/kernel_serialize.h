// A compiled kernel as bytes and back, for the caches that keep kernels
// between processes (compile_cache.h, content-keyed, and numba's cache=True
// files, python/dispatcher_cache.h). An NVPTX kernel is its PTX, LLVM IR,
// link items and launch facts; a CPU kernel is its optimized LLVM IR and
// entry symbols, JIT-compiled again when read (code generation only: no
// typing, lowering or optimization).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/compiler.h"

namespace cuhost::runtime {

std::string serialize_kernel(const CompiledKernel& kernel);

// The kernel `data` holds, named `name` (its argument types are the
// request's: the compile lookup sets them); null when the bytes are not a
// kernel of this format. Throws UserError when a CPU kernel fails to
// JIT-compile.
std::shared_ptr<CompiledKernel> deserialize_kernel(const std::string& data, const std::string& name);

// Whether `kernel` can be kept between processes: not when it links foreign
// items (their callbacks, plugin host libraries or files belong to this
// process), nor a CPU kernel without its IR.
bool serializable(const CompiledKernel& kernel);

}  // namespace cuhost::runtime
