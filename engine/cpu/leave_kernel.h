// Leaving a CPU-backend kernel from the middle of generated code, after its
// launch has failed: a cancelled kernel (--kernel-timeout, cancellation.h)
// or a trap or failed assert() in foreign host code (trap_runtime.cpp).
// Generated and foreign code hold no resources a destructor must free, so
// leaving abandons their frames: a fiber thread switches to its block's
// scheduler for good, and a worker running a block without fibers jumps
// back to where the block started (run_leavable).
#pragma once

namespace cuhost::cpu {

// Runs body(arg) on the calling worker; false when generated code inside it
// left the kernel.
bool run_leavable(void (*body)(void*), void* arg);

// Ends the calling GPU thread's part of the kernel; the launch must already
// have recorded its error. Never returns.
[[noreturn]] void leave_kernel();

}  // namespace cuhost::cpu
