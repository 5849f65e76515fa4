// The C++ launch path of the embedding API (cuhost/kernel.h): a compiled
// kernel plus the slot layout of its parameters, launched without Python.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuhost/kernel.h>

#include "runtime/compiler.h"

namespace cuhost::runtime {

std::shared_ptr<Kernel> make_host_kernel(std::shared_ptr<const CompiledKernel> compiled);

}  // namespace cuhost::runtime
