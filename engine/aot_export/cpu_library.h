// The CPU half of an export: every kernel compiled by the CPU backend, its
// optimized module compiled again by LLVM for a named CPU (x86-64-v3,
// neoverse-n1, ...; "native": this machine's) into a position-independent
// object, then linked by the system's C++ compiler driver with the block
// runtime archive (cpu/aot_library_entry.cpp and the launcher, fibers and
// warp emulation it needs) into one shared library the aot runtime dlopens.
// Only the kernels' entry points and the three aot_library_entry functions
// are visible in it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot_export/kernel_selection.h"
#include "model/compiled_kernel.h"

namespace cuhost::aot_export {

struct CpuKernel {
  std::shared_ptr<const model::CompiledKernel> compiled;  // the CPU backend's kernel (launch facts, symbols)
};

// Compiles `kernel` for the CPU backend. Throws the compiler's UserErrors,
// and NotImplementedError for what an exported library cannot carry: Python
// setup/teardown callbacks of linked code, plugins with a host library.
CpuKernel compile_cpu(const SelectedKernel& kernel);

// Writes `library_path` (a .so) holding `kernels` compiled for `cpu`.
// `work_dir` receives the intermediate objects. Throws UserError:
// ValueError for a CPU LLVM does not know, CompileError with the linker's
// output when the link fails, FileNotFoundError when the block runtime
// archive is missing from the data folder.
void write_cpu_library(const std::vector<CpuKernel>& kernels, const std::string& cpu, const std::string& work_dir,
                       const std::string& library_path);

// The block runtime archive: $CUHOST_AOT_BLOCK_RUNTIME, else
// <data folder>/aot/libcuhost_cpu_block_runtime.a.
std::string block_runtime_archive();

}  // namespace cuhost::aot_export
