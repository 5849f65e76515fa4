// NVRTC and nvJitLink, loaded at their first use. Linked, the two libraries
// were mapped, relocated and initialized (about 12 ms on an H200 host, 11 ms
// here) before main of every process, also of processes that never compile
// CUDA C or link; loaded here they cost that at the first .cu compile or
// link, and the GPU startup's linker warm-up (cuda/linker.h) pays it on a
// thread of its own. The tables hold the entry points by their exported
// names (nvJitLink's headers map each to a versioned symbol, e.g.
// __nvJitLinkCreate_13_0, which is what is looked up).
#pragma once

#include <nvJitLink.h>
#include <nvrtc.h>

namespace cuhost::cuda {

#define CUHOST_NVRTC_FUNCTIONS(X)                                                                                      \
  X(nvrtcVersion)                                                                                                      \
  X(nvrtcGetNumSupportedArchs) X(nvrtcGetSupportedArchs) X(nvrtcCreateProgram) X(nvrtcCompileProgram)                  \
      X(nvrtcDestroyProgram) X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetErrorString) X(nvrtcGetPTXSize) \
          X(nvrtcGetPTX) X(nvrtcGetLTOIRSize) X(nvrtcGetLTOIR)

#define CUHOST_NVJITLINK_FUNCTIONS(X)                                                                         \
  X(nvJitLinkVersion)                                                                                         \
  X(nvJitLinkCreate) X(nvJitLinkDestroy) X(nvJitLinkAddData) X(nvJitLinkComplete) X(nvJitLinkGetErrorLogSize) \
      X(nvJitLinkGetErrorLog) X(nvJitLinkGetInfoLogSize) X(nvJitLinkGetInfoLog) X(nvJitLinkGetLinkedPtxSize)  \
          X(nvJitLinkGetLinkedPtx) X(nvJitLinkGetLinkedCubinSize) X(nvJitLinkGetLinkedCubin)

#define CUHOST_TOOLKIT_TABLE_ENTRY(name) decltype(&::name) name = nullptr;
struct NvrtcApi {
  CUHOST_NVRTC_FUNCTIONS(CUHOST_TOOLKIT_TABLE_ENTRY)
};
struct NvJitLinkApi {
  CUHOST_NVJITLINK_FUNCTIONS(CUHOST_TOOLKIT_TABLE_ENTRY)
};
#undef CUHOST_TOOLKIT_TABLE_ENTRY

// The loaded library's entry points (loaded once, thread-safe). Throw a
// CudaSupportError naming the library and why it could not be loaded.
const NvrtcApi& nvrtc_api();
const NvJitLinkApi& nvjitlink_api();

// Whether the library can be loaded (loads it): for the version strings of
// `cuhost info` and cache keys, which say "unavailable" instead of throwing.
bool nvrtc_available();
bool nvjitlink_available();

}  // namespace cuhost::cuda
