// The C interface between an exported CPU library (cpu/kernels.so of an
// export folder: the kernels compiled for a named CPU, linked with the CPU
// backend's block runtime) and the aot runtime that dlopens it. Plain C
// types only: the two sides are built by different compilers at different
// times, and the aot runtime shares no code with the engine.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {

// Bumped whenever the structure or the functions below change.
constexpr int kCuhostAotCpuAbiVersion = 1;

struct CuhostAotCpuLaunch {
  const char* kernel_name;  // for error messages
  void* thread_fn;          // "<symbol>.cpu.thread" of the library (model/cpu_abi.h)
  void* block_fn;           // "<symbol>.cpu.block", or null: barriers and warp operations run on fibers
  int cooperative;          // grid sync: every block resident at once
  std::size_t static_shared_bytes;
  std::size_t dynamic_shared_bytes;
  unsigned grid[3];
  unsigned block[3];
  void** params;  // kernelParams: one pointer per ABI slot (codegen/kernel_abi.h)
};

// Names of the functions the library exports (looked up with dlsym).
#define CUHOST_AOT_CPU_ABI_VERSION_FN "cuhost_aot_cpu_abi_version"
#define CUHOST_AOT_CPU_LAUNCH_FN "cuhost_aot_cpu_launch"
#define CUHOST_AOT_CPU_MAX_COOPERATIVE_FN "cuhost_aot_cpu_max_cooperative_blocks"

using CuhostAotCpuAbiVersionFn = int (*)();
// Runs the whole grid; 0 on success, else 1 with the error (its class first:
// "IndexError: ...", "KernelError: ...", "ValueError: ...") written,
// NUL-terminated and cut to fit, into `error`. Text the kernels printed is
// written to standard output before it returns.
using CuhostAotCpuLaunchFn = int (*)(const CuhostAotCpuLaunch* launch, char* error, std::size_t error_size);
using CuhostAotCpuMaxCooperativeFn = unsigned (*)(unsigned threads_per_block);

}  // extern "C"
