// The CPU that host code is generated for: the target triple, data layout,
// CPU name and features every CPU module is built with. Codegen owns this
// description (it emits the code); the ORC JIT of cpu/jit.h is built from it,
// so the modules codegen makes and the JIT that runs them always agree.
// The host's own CPU and features, or the CPU the environment names in
// CUHOST_CPU (x86-64-v3, haswell, ...) with that CPU's own features (then
// `features` is empty), so code behaves the same on every machine of a level.
#pragma once

#include <string>

namespace cuhost::codegen {

struct HostTarget {
  std::string triple;
  std::string data_layout;
  std::string cpu;
  std::string features;
};

// Worked out once per process; throws UserError(ValueError) for a CUHOST_CPU
// LLVM does not know and UserError(CompileError) when the host cannot be targeted.
const HostTarget& host_target();

}  // namespace cuhost::codegen
