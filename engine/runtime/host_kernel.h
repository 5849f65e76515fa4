// The C++ launch path of the embedding API (cuhost/kernel.h): a compiled
// kernel plus the slot layout of its parameters, launched without Python.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuhost/kernel.h>

#include "runtime/compiler.h"

namespace cuhost::runtime {

std::shared_ptr<Kernel> make_host_kernel(std::shared_ptr<const CompiledKernel> compiled);

// The packed slots of `args` for the C++ kernel that owns a captured launch
// (CapturedKernel::owner of a LaunchOrigin::Host launch), checked as
// Kernel::launch checks them.
std::vector<std::uint64_t> pack_host_kernel_args(const std::shared_ptr<void>& owner, const KernelArg* args,
                                                 std::size_t count);

}  // namespace cuhost::runtime
