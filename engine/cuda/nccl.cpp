// Run-time loading of NCCL (see nccl.h).
#include "cuda/nccl.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::cuda {

namespace {

struct Loaded {
  NcclStatus status;
  NcclTable table;
};

Loaded& load() {
  static Loaded loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    log::StageTimer timer("startup", "NCCL (dlopen)");
    const char* override_name = std::getenv("CUHOST_NCCL_LIBRARY");
    std::string name = override_name && *override_name ? override_name : "libnccl.so.2";
    void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      loaded.status.reason = concat(name, " could not be loaded (", why ? why : "not found",
                                    "); install NCCL (libnccl2) to use collectives on GPUs");
      return;
    }
    std::string missing;
#define CUHOST_NCCL_FN(fn, required)                                              \
  loaded.table.fn = reinterpret_cast<decltype(loaded.table.fn)>(dlsym(lib, #fn)); \
  if (!loaded.table.fn && (required)) missing += std::string(missing.empty() ? "" : ", ") + #fn;
#include "cuda/nccl_api.inc"
#undef CUHOST_NCCL_FN
    if (!missing.empty()) {
      loaded.status.reason = concat(name, " lacks entry points cuhost needs: ", missing);
      loaded.table = NcclTable{};
      return;
    }
    loaded.table.ncclGetVersion(&loaded.status.version);
    loaded.status.library = name;
    loaded.status.available = true;
  });
  return loaded;
}

}  // namespace

const NcclStatus& nccl_status() { return load().status; }

const NcclTable& nccl() {
  Loaded& l = load();
  if (!l.status.available) throw UserError(ErrorKind::CudaSupportError, "NCCL is unavailable: " + l.status.reason);
  return l.table;
}

void check_nccl(ncclResult_t result, const char* function, ncclComm_t comm) {
  if (result == ncclSuccess) return;
  const NcclTable& t = nccl();
  std::string message = concat(function, " failed: ", t.ncclGetErrorString(result));
  if (t.ncclGetLastError) {
    const char* last = t.ncclGetLastError(comm);
    if (last && *last) message += concat(" (", last, ")");
  }
  throw UserError(ErrorKind::NcclError, message);
}

std::string nccl_version_string(int code) {
  // NCCL_VERSION(X,Y,Z): X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z after.
  if (code < 10000) return concat(code / 1000, ".", code % 1000 / 100, ".", code % 100);
  return concat(code / 10000, ".", code % 10000 / 100, ".", code % 100);
}

}  // namespace cuhost::cuda
