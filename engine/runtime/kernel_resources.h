// What a compiled GPU kernel uses per thread and per block (the dispatcher's
// get_regs_per_thread, get_local_mem_per_thread, get_shared_mem_per_block,
// get_const_mem_size, get_max_threads_per_block). With a GPU the driver
// answers for the loaded function (cuFuncGetAttribute); on the CPU backend
// the kernel's PTX is assembled for sm_90 by nvJitLink with -verbose and its
// ptxas report is read, so the figures are those a sm_90 GPU would give.
#pragma once

#include <memory>
#include <string>

#include "runtime/compiler.h"

namespace cuhost::runtime {

struct KernelResources {
  int registers = 0;     // per thread
  int local_bytes = 0;   // per thread (stack frame and local memory)
  int shared_bytes = 0;  // static shared memory per block
  int const_bytes = 0;   // user constant memory (banks other than the parameter bank)
  int max_threads = 0;   // per block, given the registers and launch bounds
};

// `kernel` must be an NVPTX compilation. Throws UserError.
KernelResources kernel_resources(const std::shared_ptr<const CompiledKernel>& kernel, bool on_gpu, int device);

// Parses nvJitLink's "Function properties for 'sym':" report of a -verbose
// link (exposed for the unit tests). Returns false when `symbol` is absent.
bool parse_link_report(const std::string& info_log, const std::string& symbol, KernelResources* out);

// The largest block size a kernel with `registers` registers per thread can
// run with on sm_90 (65536 registers per block, allocated per warp in units
// of 256), capped at 1024 and at `launch_bound` when non-zero.
int max_threads_for_registers(int registers, int launch_bound);

}  // namespace cuhost::runtime
