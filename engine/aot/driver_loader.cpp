// Loads the CUDA driver for the aot runtime (see driver_loader.h).
#include "aot/driver_loader.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>

namespace cuhost::aot {
namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

// The ABI version each entry point is asked for: the headers' own, except
// functions whose newest version changed behaviour (as in cuda/driver.cpp).
int abi_version_of(const char* name) {
  static const char* const kOldAbi[] = {"cuCtxSynchronize"};
  for (const char* old : kOldAbi)
    if (std::strcmp(name, old) == 0) return 12000;
  return CUDA_VERSION;
}

struct Loaded {
  DriverTable table;
  bool ok = false;
  std::string why;
};

Loaded& loaded() {
  static Loaded l;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      l.why = "libcuda.so.1 could not be loaded (no NVIDIA driver)";
      return;
    }
    auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
    if (!get_proc) {
      l.why = "libcuda.so.1 has no cuGetProcAddress_v2 (driver older than CUDA 12)";
      return;
    }
    std::string missing;
    auto resolve = [&](const char* name, void** slot) {
      CUdriverProcAddressQueryResult found{};
      if (get_proc(name, slot, abi_version_of(name), CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
          found != CU_GET_PROC_ADDRESS_SUCCESS || !*slot) {
        *slot = nullptr;
        if (std::strncmp(name, "cuGraph", 7) != 0) missing += (missing.empty() ? "" : ", ") + std::string(name);
      }
    };
#define CUHOST_AOT_DRIVER_FN(name) resolve(#name, reinterpret_cast<void**>(&l.table.name));
#include "aot/driver_api.inc"
#undef CUHOST_AOT_DRIVER_FN
    if (!missing.empty()) {
      l.why = "the CUDA driver lacks entry points the aot runtime needs: " + missing;
      return;
    }
    CUresult r = l.table.cuInit(0);
    if (r != CUDA_SUCCESS) {
      l.why = "cuInit failed: " + driver_error(l.table, r);
      return;
    }
    int count = 0;
    r = l.table.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0) {
      l.why = r != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + driver_error(l.table, r) : "no CUDA device found";
      return;
    }
    l.ok = true;
  });
  return l;
}

}  // namespace

const DriverTable* load_driver(std::string* why) {
  Loaded& l = loaded();
  if (!l.ok && why) *why = l.why;
  return l.ok ? &l.table : nullptr;
}

std::string driver_error(const DriverTable& d, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName) d.cuGetErrorName(r, &name);
  if (d.cuGetErrorString) d.cuGetErrorString(r, &text);
  std::string out = name ? name : "CUDA error " + std::to_string(static_cast<int>(r));
  if (text) out += std::string(" (") + text + ")";
  return out;
}

}  // namespace cuhost::aot
