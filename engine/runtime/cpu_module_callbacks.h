// LinkableCode setup and teardown callbacks on the CPU backend, with the GPU's
// lifecycle (cuda/module.cpp): a kernel specialization's module is "loaded"
// at its first launch, when its setup callbacks run with the module's handle;
// unloading every module (cuda.close(), Context.reset(), exit) runs the
// teardown callbacks, last loaded first, and the next launch loads again. The
// handle names the module's __device__ variables to the CPU device's driver
// (cpu/driver_model.h: cuLibraryGetGlobal), so a callback initializes them
// the same way on both backends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace cuhost::model {
struct CompiledKernel;
}  // namespace cuhost::model

namespace cuhost::runtime {

using model::CompiledKernel;

// The Python layer's runner of a callback (the same as the GPU's).
using CpuModuleCallbackRunner = bool (*)(const std::shared_ptr<void>& callback, std::uintptr_t handle,
                                         std::string* error);
void set_cpu_module_callback_runner(CpuModuleCallbackRunner runner);

// Runs the kernel's setup callbacks unless its module is loaded in the
// current generation. Throws UserError(RuntimeError) when a setup fails.
void ensure_cpu_module_loaded(const CompiledKernel& kernel);

// Runs every loaded module's teardown callbacks and forgets the modules.
void unload_cpu_modules();

}  // namespace cuhost::runtime
