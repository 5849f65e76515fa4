// The host side of GPU kernel deadlines (--kernel-timeout on the CUDA
// backend; codegen/nvptx_cancellation.h puts the cancellation points into
// the kernels). One flag word per context, in device memory, so the
// kernels' checks read it from the GPU's own L2: a flag in host-mapped
// memory costs every warp a PCIe round trip per check, which made a loop of
// transcendentals 13x slower (docs/RELIABILITY.md). The host raises it with
// an asynchronous copy from pinned memory on a private non-blocking stream
// of the context, which the copy engine carries out beside the running
// kernel (nothing queues behind it). While a timeout is set, a launch
// waits for its stream under the CPU backend's watchdog (cpu/cancellation.h,
// one thread for the process): at the deadline the watchdog raises the
// flag of the launch's context, every thread of the kernel executes `exit`
// at its next check, the wait returns, the flag is lowered and the launch
// raises KernelError.
#pragma once

#include <cuda.h>

#include <string>

namespace cuhost::cuda {

// Writes the address of the current context's flag into a loaded library's
// cancellation-point global (codegen::kGpuCancelFlagSymbol); the caller
// checked that the library defines it. Allocates the context's flag on first
// use.
void bind_cancel_flag(CUlibrary library);

// After a launch of a kernel with cancellation points on `stream`: when a
// deadline applies (cpu::current_deadline(): the launch's, the script's or
// the runtime's) and the stream is not capturing a graph, waits for the
// stream; when the deadline passed first, throws KernelError "kernel 'k' ran
// longer than the kernel timeout of S s (--kernel-timeout) and was stopped:
// ..." (the CPU backend's text, naming the deadline's scope).
void wait_under_deadline(CUstream stream, const std::string& kernel_name);

}  // namespace cuhost::cuda
