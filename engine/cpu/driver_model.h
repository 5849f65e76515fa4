// The CPU device seen through the driver API: the entry points numba-cuda's
// driver layer calls (model/driver_call.h, the table shape cuda/binding_calls.h also serves), answered for
// the CPU backend, where the host is the device. Device memory, managed and
// page-locked memory are host memory and copies are memmove; the device has
// a primary context, and contexts made current form a per-thread stack as
// with the driver; streams are identities (the CPU backend's work is
// synchronous); the device's globals are those of the CPU JIT modules that
// registered them. Loading PTX or cubins, and launching through the driver,
// answer CUDA_ERROR_NOT_SUPPORTED: the CPU runs only what cuhost compiled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/driver_call.h"

namespace cuhost::cpu {

const model::BindingCall* find_cpu_binding_call(const std::string& name);
std::vector<std::string> cpu_binding_call_names();

// The handle of the CPU device's primary context.
std::uintptr_t primary_context_handle();

// A loaded CPU module's __device__ variables, reachable by
// cuLibraryGetGlobal / cuModuleGetGlobal under `handle` until unregistered.
struct ModuleGlobal {
  std::string name;
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
};
void register_module_globals(std::uintptr_t handle, std::vector<ModuleGlobal> globals);
void unregister_module_globals(std::uintptr_t handle);
// The variable `name` of a registered module: false when there is none.
bool module_global(std::uintptr_t handle, const std::string& name, std::uintptr_t* address, std::size_t* bytes);

// Whether [p, p + bytes) lies in one range registered with cuMemHostRegister
// (page-locked, as far as the driver layer is concerned).
bool host_range_registered(std::uintptr_t p, std::size_t bytes);

// The CPU device's UUID (16 bytes, stable for the machine).
void device_uuid(unsigned char out[16]);

}  // namespace cuhost::cpu
