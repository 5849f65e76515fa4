// Cancellation points for CPU-backend kernel timeouts (cpu/cancellation.h):
// at the header of every loop of every function defined in the module, a
// relaxed load of cuhost_cpu_cancel_requested and, when it is set, a call to
// cuhost_cpu_cancelled(), which never returns. Run on the optimized module,
// so vectorized loops keep their vector bodies (one check per iteration of
// the vector loop). Only kernels compiled while a timeout is set get them.
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

// Returns the number of loops given a cancellation point.
unsigned insert_cancellation_points(llvm::Module& module);

}  // namespace cuhost::codegen
