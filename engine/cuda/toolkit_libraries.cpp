// Run-time loading of NVRTC and nvJitLink (see toolkit_libraries.h). The
// library is looked up by its soname (libcuhost's RUNPATH, then the library
// search path), then in the toolkit cuhost was built against.
#include "cuda/toolkit_libraries.h"

#include <cuda.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "support/diagnostics.h"
#include "support/exit_joins.h"
#include "support/log.h"

namespace cuhost::cuda {
namespace {

// Two-level, so that nvJitLink's versioned names are expanded before they
// become strings.
#define CUHOST_SYMBOL_NAME(name) CUHOST_SYMBOL_NAME_EXPANDED(name)
#define CUHOST_SYMBOL_NAME_EXPANDED(name) #name

template <typename Api>
struct Loaded {
  Api api;
  std::string error;  // empty when loaded
};

void* open_library(const std::string& soname, std::string& error) {
  if (void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  error = dlerror();
  if (void* lib = dlopen((std::string(CUHOST_CUDA_ROOT) + "/lib64/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL))
    return lib;
  return nullptr;
}

// Every entry point of a table, looked up by `resolve(symbol, slot)`.
#define CUHOST_RESOLVE(name) resolve(CUHOST_SYMBOL_NAME(name), reinterpret_cast<void**>(&api.name));
template <typename Resolve>
void resolve_all(NvrtcApi& api, Resolve& resolve) {
  CUHOST_NVRTC_FUNCTIONS(CUHOST_RESOLVE)
}
template <typename Resolve>
void resolve_all(NvJitLinkApi& api, Resolve& resolve) {
  CUHOST_NVJITLINK_FUNCTIONS(CUHOST_RESOLVE)
}
#undef CUHOST_RESOLVE

// "libnvrtc.so.13" for a toolkit 13.x
std::string soname(const char* stem) { return stem + std::to_string(CUDA_VERSION / 1000); }

// The table of library `stem`, loaded at the first call.
template <typename Api>
const Loaded<Api>& loaded(const char* stem) {
  static Loaded<Api> table;
  static std::once_flag once;
  std::call_once(once, [stem] {
    const std::string name = soname(stem);
    log::StageTimer timer("startup", "load " + name);
    void* lib = open_library(name, table.error);
    if (!lib) return;
    support::joins_run_before_last_load();  // the linker's warm-up may be inside it at exit
    table.error.clear();
    std::string missing;
    auto resolve = [&](const char* symbol, void** slot) {
      *slot = dlsym(lib, symbol);
      if (!*slot) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
    };
    resolve_all(table.api, resolve);
    if (!missing.empty()) table.error = name + " lacks " + missing;
  });
  return table;
}

const Loaded<NvrtcApi>& nvrtc_loaded() { return loaded<NvrtcApi>("libnvrtc.so."); }
const Loaded<NvJitLinkApi>& nvjitlink_loaded() { return loaded<NvJitLinkApi>("libnvJitLink.so."); }

template <typename Api>
const Api& checked(const Loaded<Api>& loaded, const char* what) {
  if (!loaded.error.empty())
    throw UserError(ErrorKind::CudaSupportError, concat(what, " could not be loaded: ", loaded.error));
  return loaded.api;
}

}  // namespace

const NvrtcApi& nvrtc_api() { return checked(nvrtc_loaded(), "NVRTC"); }
const NvJitLinkApi& nvjitlink_api() { return checked(nvjitlink_loaded(), "nvJitLink"); }
bool nvrtc_available() { return nvrtc_loaded().error.empty(); }
bool nvjitlink_available() { return nvjitlink_loaded().error.empty(); }

}  // namespace cuhost::cuda
