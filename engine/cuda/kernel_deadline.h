// The host side of GPU kernel deadlines (--kernel-timeout on the CUDA
// backend; codegen/nvptx_cancellation.h puts the cancellation points into
// the kernels). One flag word per context, which the kernels read with a
// volatile load while their own stream is busy: in device memory, raised by
// cuStreamWriteValue32 on a stream of its own (executed by the GPU's front
// end beside the running kernel), where the driver has stream memory
// operations; else one word in pinned host memory that every context maps
// at the same address, raised with a plain store (each check then crosses
// the bus). While a timeout is set, a launch
// waits for its stream under the CPU backend's watchdog (cpu/cancellation.h,
// one thread for the process): at the deadline the watchdog raises the flag,
// every thread of the kernel executes `exit` at its next check, the wait
// returns, the flags are lowered and the launch raises KernelError.
#pragma once

#include <cuda.h>

#include <string>

namespace cuhost::cuda {

// Writes the flag's address into a loaded library's cancellation-point
// global (codegen::kGpuCancelFlagSymbol); the caller checked that the
// library defines it. Makes the current context's flag on first use.
void bind_cancel_flag(CUlibrary library);

// After a launch on `stream`: when a kernel timeout is set and the stream is
// not capturing a graph, waits for the stream; when the deadline passed
// first, throws KernelError "kernel 'k' ran longer than the kernel timeout
// of S s (--kernel-timeout) and was stopped: ..." (the CPU backend's text).
void wait_under_deadline(CUstream stream, const std::string& kernel_name);

}  // namespace cuhost::cuda
