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

bool device_inlinable_item(const ir::LinkItem& item) {
  if (!device_inlining_enabled()) return false;
  if (item.setup_callback || item.teardown_callback || !item.plugin_dir.empty()) return false;
  ir::LinkKind kind = item.kind;
  if (item.from_path()) {
    try {
      kind = cuda::link_kind_from_path(item.path);
    } catch (const UserError&) {
      return false;  // the NVRTC path reports it
    }
  }
  return kind == ir::LinkKind::CUSource;
}

namespace {

// What clang compiles for `item` on sm_<cc_major><cc_minor>; false when the
// item cannot take this path.
bool device_request(const ir::LinkItem& item, int cc_major, int cc_minor, ClangRequest* request) {
  if (!device_inlinable_item(item)) return false;
  std::string source, dir;
  try {
    read_item_source(item, &source, &dir);
  } catch (const UserError&) {
    return false;  // the NVRTC path reports it
  }
  if (!cuda_header_included(source).empty()) return false;
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
  *request = ClangRequest{
      item, std::move(source), std::move(dir), device_prelude(), std::move(flags), std::move(includes), "device-cxx"};
  return true;
}

}  // namespace

void device_bitcode_ahead(const ir::LinkItem& item, int cc_major, int cc_minor) {
  ClangRequest request;
  if (device_request(item, cc_major, cc_minor, &request)) clang_bitcode(request, "clang (started at declaration)");
}

std::string device_bitcode(const ir::LinkItem& item, int cc_major, int cc_minor) {
  ClangRequest request;
  if (!device_request(item, cc_major, cc_minor, &request)) return "";
  const std::string& source = request.source;
  const std::string& dir = request.dir;
  const std::vector<std::string>& includes = request.include_dirs;
  ClangRun run = clang_bitcode(request);
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
