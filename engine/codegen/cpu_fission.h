// Loop fission at barriers for the CPU target (the "work-group loops" of
// MCUDA / POCL): a kernel whose syncthreads* sit in block-uniform structured
// control flow gets a block entry (S.cpu.block) that runs the block's threads
// region by region, each region a plain loop over the threads, instead of one
// fiber per thread. Kernels outside the supported subset keep the fiber path.
#pragma once

#include <string>
#include <vector>

#include "sema/typed_function.h"

namespace llvm {
class Function;
class Type;
}  // namespace llvm

namespace cuhost::codegen {

struct LoweredModule;

// False when CUHOST_CPU_FISSION is set to "0" (every barrier kernel then
// runs on fibers).
bool cpu_fission_enabled();

// True when the kernel's barriers are all in places fission supports: plain
// `cuda.syncthreads()` statements and `x = cuda.syncthreads_count/and/or(p)`
// assignments, at the top level or inside if/while/for-range statements, no
// break/continue leaving a loop that contains a barrier, no barriers or warp
// operations in callees, no warp operations at all.
bool fission_supported(const sema::TypedFunction& tf);

// Emits S.cpu.block for the lowered kernel body `body` (the function the
// thread entry calls: slot parameters then ctx, tid.x, tid.y, tid.z) and
// records it in `out` (cpu_block_symbol, keep). Returns false, leaving the
// module as it was, when the IR falls outside what the transformation handles.
bool emit_cpu_fission_block(LoweredModule& out, llvm::Function* body, const std::vector<llvm::Type*>& slot_types,
                            const std::string& symbol, const std::string& kernel_name);

}  // namespace cuhost::codegen
