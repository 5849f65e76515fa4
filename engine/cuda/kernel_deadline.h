// The host side of GPU kernel deadlines (--kernel-timeout on the CUDA
// backend; codegen/nvptx_cancellation.h puts the cancellation points into
// the kernels). One flag word for the process, in pinned host memory that
// every context maps at the same address (unified addressing): the
// kernel reads it with a volatile load while its own stream is busy, and the
// host raises it with a plain store, with no driver call and no copy that
// could queue behind the running kernel. While a timeout is set, a launch
// waits for its stream under the CPU backend's watchdog (cpu/cancellation.h,
// one thread for the process): at the deadline the watchdog raises the flag,
// every thread of the kernel executes `exit` at its next check, the wait
// returns, the flag is lowered and the launch raises KernelError.
#pragma once

#include <cuda.h>

#include <string>

namespace cuhost::cuda {

// Writes the flag's address into a loaded library's cancellation-point
// global (codegen::kGpuCancelFlagSymbol); the caller checked that the
// library defines it. Allocates the flag on first use, in the current context.
void bind_cancel_flag(CUlibrary library);

// After a launch on `stream`: when a kernel timeout is set and the stream is
// not capturing a graph, waits for the stream; when the deadline passed
// first, throws KernelError "kernel 'k' ran longer than the kernel timeout
// of S s (--kernel-timeout) and was stopped: ..." (the CPU backend's text).
void wait_under_deadline(CUstream stream, const std::string& kernel_name);

}  // namespace cuhost::cuda
