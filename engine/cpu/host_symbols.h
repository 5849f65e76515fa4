// The whitelist of host symbols JIT-ed kernels may call: the CPU runtime
// (cpu_abi.h), libm, memcpy/memset/memmove and the compiler-rt/libgcc
// builtins LLVM emits for the host (powi, half-precision conversions,
// 128-bit division). Everything else stays unresolved.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cuhost::cpu {

// (name, address) of every whitelisted symbol available in this process.
const std::vector<std::pair<std::string, void*>>& host_symbols();

}  // namespace cuhost::cpu
