// What a loaded export folder holds (behind cuhost::aot::Module): the
// manifest, the device chosen, the loaded GPU libraries or the dlopen-ed CPU
// library, and one KernelState per kernel. Shared by module.cpp (loading,
// kernels, memory) and graph.cpp (graphs launch the module's kernels).
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cuhost/aot.h>

#include "aot/driver_loader.h"
#include "aot/kernel_state.h"
#include "aot/manifest.h"

namespace cuhost::aot {

struct Module::State {
  Manifest manifest;
  const DriverTable* driver = nullptr;  // null: the CPU library
  CUdevice device = 0;
  CUcontext context = nullptr;  // the device's primary context, retained
  std::vector<CUlibrary> libraries;
  void* cpu_library = nullptr;  // dlopen handle
  std::string image_kind;
  std::map<std::string, std::shared_ptr<KernelState>> kernels;
};

}  // namespace cuhost::aot
