// Versions of the CUDA toolkit libraries cuhost links (NVRTC, nvJitLink) and
// a description of each visible GPU; used by `cuhost info`, cuda.detect() and
// the compile cache key.
#pragma once

#include <string>
#include <vector>

namespace cuhost::cuda {

// "13.0"; "unavailable" when the library cannot be loaded (cuda/toolkit_libraries.h)
std::string nvrtc_version();
std::string nvjitlink_version();
// The compute capabilities NVRTC compiles for, as 10 * major + minor, ascending.
std::vector<int> nvrtc_supported_archs();

struct DeviceDescription {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  std::size_t total_memory = 0;
  int multiprocessors = 0;
};

// Every visible device (empty without a driver).
std::vector<DeviceDescription> list_devices();

}  // namespace cuhost::cuda
