// NCCL, loaded at run time like the driver: libnccl.so.2 is dlopen-ed on
// first use (never linked, so cuhost starts where NCCL is not installed) and
// every entry point in nccl_api.inc is resolved once into a table. All raw
// nccl* calls in the engine go through `nccl()` and `check_nccl()`; nccl.h
// (from the CUDA toolkit or the NCCL development package) gives the types.
#pragma once

#include <nccl.h>

#include <string>

namespace cuhost::cuda {

struct NcclTable {
#define CUHOST_NCCL_FN(name, required) decltype(&::name) name = nullptr;
#include "cuda/nccl_api.inc"
#undef CUHOST_NCCL_FN
};

struct NcclStatus {
  bool available = false;
  std::string reason;   // why not, e.g. "libnccl.so.2 could not be loaded (...)"
  int version = 0;      // ncclGetVersion: 22809 for 2.28.9
  std::string library;  // the name it was loaded under
};

// Loads NCCL once (thread-safe) and reports what happened. CUHOST_NCCL_LIBRARY
// names another library to load instead of libnccl.so.2.
const NcclStatus& nccl_status();

// The table; throws CudaSupportError ("NCCL is unavailable: ...") when NCCL
// cannot be loaded.
const NcclTable& nccl();

// Throws NcclError "<function> failed: <NCCL error text>" plus NCCL's last
// error message (for `comm`, when given) unless `result` is ncclSuccess.
void check_nccl(ncclResult_t result, const char* function, ncclComm_t comm = nullptr);

// "2.28.9" for NCCL's version code.
std::string nccl_version_string(int code);

}  // namespace cuhost::cuda
