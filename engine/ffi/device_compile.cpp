// clang-19 compiles plain-C++ foreign sources for NVPTX (see
// device_compile.h).
#include "ffi/device_compile.h"

#include <cstdlib>
#include <cstring>

#include "cuda/module.h"
#include "cuda/nvrtc.h"
#include "ffi/clang_compile.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::ffi {

bool device_inlining_enabled() {
  const char* v = std::getenv("CUHOST_INLINE_CU");
  return !v || std::strcmp(v, "0") != 0;
}

const char* device_prelude() {
  // NVRTC's macros, so sources pick their device branches; __global__,
  // __shared__ and the CUDA built-ins stay undefined: code using them fails
  // to compile here and takes the NVRTC path.
  static const std::string text =
      std::string("// cuhost: CUDA qualifiers for device code compiled as plain C++ for NVPTX.\n") +
      kCudaQualifierMacros +
      "#define __CUDACC__ 1\n"
      "#define __CUDACC_RTC__ 1\n"
      "#define __CUHOST_DEVICE_INLINE__ 1\n" +
      kNvrtcBuiltinTypes;
  return text.c_str();
}

std::string device_bitcode(const ir::LinkItem& item, int cc_major, int cc_minor) {
  if (!device_inlining_enabled()) return "";
  if (item.setup_callback || item.teardown_callback || !item.plugin_dir.empty()) return "";
  ir::LinkKind kind = item.kind;
  if (item.from_path()) {
    try {
      kind = cuda::link_kind_from_path(item.path);
    } catch (const UserError&) {
      return "";  // the NVRTC path reports it
    }
  }
  if (kind != ir::LinkKind::CUSource) return "";
  std::string source, dir;
  try {
    read_item_source(item, &source, &dir);
  } catch (const UserError&) {
    return "";  // the NVRTC path reports it
  }
  if (!cuda_header_included(source).empty()) return "";
  const int arch = cc_major * 100 + cc_minor * 10;
  const std::string cpu = concat("sm_", std::min(cc_major * 10 + cc_minor, 90));
  std::vector<std::string> flags = {"--target=nvptx64-nvidia-cuda",
                                    "-march=" + cpu,
                                    "-std=c++17",
                                    "-O3",
                                    "-Wall",               // warnings decide whether NVRTC's log is wanted (below)
                                    "-ffp-contract=fast",  // NVRTC's default --fmad=true
                                    "-fno-math-errno",
                                    "-fno-exceptions",
                                    "-fno-rtti",
                                    concat("-D__CUDA_ARCH__=", arch)};
  std::vector<std::string> includes = item.include_dirs;
  for (const std::string& d : cuda::extra_search_paths_from_environment()) includes.push_back(d);
  ClangRun run = clang_bitcode(item, source, dir, device_prelude(), flags, includes, "device-cxx");
  // Users are warned with NVRTC's own log ("NVRTC log messages: ..."),
  // whichever compiler builds the source. NVRTC runs only for sources clang
  // warns about (-Wall), so clean sources keep clang's speed; a warning only
  // NVRTC gives goes unreported on this path.
  if (run.ok && run.diagnostics.find("warning:") != std::string::npos) {
    cuda::NvrtcOptions check;
    check.cc_major = cc_major;
    check.cc_minor = cc_minor;
    check.include_dirs = includes;
    try {
      cuda::compile_cuda_source(source, run.shown, dir, check);  // reports the log once per process
    } catch (const UserError&) {
      // NVRTC rejects what clang compiled: nothing to warn about here
    }
  }
  if (!run.ok) {
    log::info(concat("[", run.shown, "] not inlined: clang cannot compile it as plain C++ for NVPTX; NVRTC links it"));
    return "";
  }
  return run.bitcode;
}

}  // namespace cuhost::ffi
