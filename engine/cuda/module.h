// Loading compiled kernels onto a GPU: the kernel's PTX and every foreign item
// it links (by path or in memory) go through nvJitLink for the current
// device's architecture, the cubin is loaded with cuLibraryLoadData in each
// device's context on first use there, and the entry function is cached per
// (kernel, device). LinkableCode setup callbacks
// run once per loaded module; teardown callbacks run before it unloads.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda/linker.h"
#include "ir/foreign.h"

namespace cuhost::model {
struct CompiledKernel;
}

namespace cuhost::cuda {

// The kind of a link item given by path, from its extension (case-sensitive:
// .cu .ptx .cubin .fatbin .a .o .ltoir). Throws UserError(LinkerError) naming
// the extension (or saying there is none) for anything else.
ir::LinkKind link_kind_from_path(const std::string& path);

// Reads the link items of a kernel into nvJitLink inputs (files are read
// now; path items get their kind from the extension; CUDA C sources are
// compiled by NVRTC for sm_<cc>, to LTO-IR when `lto`). Throws
// FileNotFoundError "<path> not found", LinkerError for unknown extensions and
// NvrtcError with the log for CUDA C that does not compile.
std::vector<LinkInput> read_link_items(const std::vector<ir::LinkItem>& items, int cc_major, int cc_minor, bool lto);

// Compute capability of a device ordinal (driver attributes).
void device_compute_capability(int device, int* major, int* minor);

// Links (once per architecture) and loads `kernel` for `device` once, and
// returns its entry function in that device's context. Loading makes the
// device's primary context current on the calling thread.
CUfunction kernel_function(const std::shared_ptr<const model::CompiledKernel>& kernel, int device);

// The devices `kernel` is loaded on now (a live reload loads its successor
// on the same ones before the swap).
std::vector<int> devices_holding(const model::CompiledKernel* kernel);

// A loaded kernel's error record (codegen/kernel_abi.h): its device address,
// 0 when the kernel was compiled without checks, and the library holding the
// site texts. Valid while the kernel stays loaded.
struct KernelErrorRecord {
  std::uintptr_t record = 0;
  std::uintptr_t library = 0;
};
KernelErrorRecord kernel_error_record(const model::CompiledKernel* kernel, int device);

// Runs teardown callbacks and unloads every module (cuda.close(), exit).
// Functions returned earlier are invalid afterwards: the module generation
// below changes, and holders of a CUfunction reload through kernel_function.
void unload_all_modules();

// Counts unload_all_modules() calls; a cached CUfunction is valid only while
// the generation it was loaded in is current.
std::uint64_t module_generation();

// The address and size of a __device__ variable of a loaded library (the
// handle a setup callback receives). Throws CudaAPIError naming the variable.
void library_global(std::uintptr_t library, const std::string& name, std::uintptr_t* address, std::size_t* size);

// Setup/teardown callbacks are Python objects owned by python/; cuda/ calls
// them through this hook with the module handle (CUlibrary as an integer).
// The hook returns false when the callback raised (the error is reported as
// a UserError by the caller through `error`).
using ModuleCallbackRunner = bool (*)(const std::shared_ptr<void>& callback, std::uintptr_t handle, std::string* error);
void set_module_callback_runner(ModuleCallbackRunner runner);

}  // namespace cuhost::cuda
