// Cancellation points for GPU kernel deadlines (--kernel-timeout on the CUDA
// backend; cuda/kernel_deadline.h is the host side). The driver cannot stop
// a running kernel, so kernels compiled while a timeout is set stop
// themselves: every loop of every function defined in the module reads a
// flag word in device memory once every kCancellationInterval iterations (one
// volatile load, which PTX treats as relaxed at system scope): a counted loop
// by leaving its chunk of that many iterations (nvptx_chunked_loops.h), any
// other loop through a countdown; a kernel's outermost counted loop that is
// short by a static count of its work also gets a copy without any read,
// taken when it ends soon enough (nvptx_short_loops.h). When the host's
// watchdog has raised the flag the
// thread executes PTX `exit`, from any depth of device-function calls. Run on
// the optimized module, so loops are final; loops with a known trip count
// below the interval never reach a check and get none. A grid.sync() becomes
// a barrier whose wait is such a loop (cudadevrt's has no check), so blocks
// waiting for a stopped block leave too. Without a timeout the pass does not
// run and the PTX is unchanged.
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

// The module global holding the flag's device address (an i64 the host
// writes after loading the module; 0 when not bound: never cancelled).
inline constexpr const char* kGpuCancelFlagSymbol = "cuhost_gpu_cancel_flag";

// Loop iterations between two reads of the flag.
inline constexpr unsigned kCancellationInterval = 1024;

// Returns the number of loops given a cancellation point.
unsigned insert_gpu_cancellation_points(llvm::Module& module);

}  // namespace cuhost::codegen
