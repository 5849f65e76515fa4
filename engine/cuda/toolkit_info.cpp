// Toolkit versions and device descriptions (see toolkit_info.h).
#include "cuda/toolkit_info.h"

#include "cuda/driver.h"
#include "cuda/toolkit_libraries.h"

namespace cuhost::cuda {

// Asked once: the versions go into every kernel's cache key.
std::string nvrtc_version() {
  static const std::string version = [] {
    int major = 0, minor = 0;
    if (!nvrtc_available()) return std::string("unavailable");
    if (nvrtc_api().nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return std::string("unknown");
    return std::to_string(major) + "." + std::to_string(minor);
  }();
  return version;
}

std::vector<int> nvrtc_supported_archs() {
  int count = 0;
  if (!nvrtc_available()) return {};
  if (nvrtc_api().nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return {};
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (nvrtc_api().nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
  return archs;
}

std::string nvjitlink_version() {
  static const std::string version = [] {
    unsigned major = 0, minor = 0;
    if (!nvjitlink_available()) return std::string("unavailable");
    if (nvjitlink_api().nvJitLinkVersion(&major, &minor) != NVJITLINK_SUCCESS) return std::string("unknown");
    return std::to_string(major) + "." + std::to_string(minor);
  }();
  return version;
}

std::vector<DeviceDescription> list_devices() {
  std::vector<DeviceDescription> out;
  const DriverStatus& status = driver_status();
  if (!status.available) return out;
  const DriverTable& d = driver();
  for (int i = 0; i < status.device_count; ++i) {
    CUdevice dev = 0;
    if (d.cuDeviceGet(&dev, i) != CUDA_SUCCESS) continue;
    DeviceDescription desc;
    desc.ordinal = i;
    char name[256] = {};
    d.cuDeviceGetName(name, sizeof(name), dev);
    desc.name = name;
    d.cuDeviceGetAttribute(&desc.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    d.cuDeviceGetAttribute(&desc.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    d.cuDeviceGetAttribute(&desc.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    d.cuDeviceTotalMem(&desc.total_memory, dev);
    out.push_back(desc);
  }
  return out;
}

}  // namespace cuhost::cuda
