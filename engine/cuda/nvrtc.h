// NVRTC behind one function: CUDA C/C++ source (a .cu link item) to PTX or,
// under LTO, to LTO-IR, with the include-path rules of the FFI contract and a
// content-keyed cache (memory, then disk) so a script that links the same
// .cu again never pays for NVRTC twice.
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::cuda {

struct NvrtcOptions {
  int cc_major = 9;
  int cc_minor = 0;
  bool lto = false;                       // -dlto: produce LTO-IR instead of PTX
  std::vector<std::string> include_dirs;  // searched in order, after the CUDA include directory
  std::string cuda_include_dir;           // empty: NUMBA_CUDA_INCLUDE_PATH or <toolkit>/include
  std::vector<std::string> extra_options;
  std::string arch;  // "sm_XY[a|f]" to compile for exactly; empty: arch_for(cc_major, cc_minor)
};

struct NvrtcOutput {
  ir::LinkKind kind = ir::LinkKind::PTXSource;  // PTXSource, or LTOIR under lto
  std::string code;
  std::string log;      // NVRTC's log; non-empty on success means warnings
  bool cached = false;  // came from the cache
};

// Compiles `source` (program name `name`, shown in NVRTC's messages). The
// directory `source_dir` (may be empty) is searched for quoted includes
// first, as nvcc does. Throws UserError(NvrtcError) carrying the full log and
// the file name when compilation fails.
NvrtcOutput compile_cuda_source(const std::string& source, const std::string& name, const std::string& source_dir,
                                const NvrtcOptions& options);

// Where a successful compilation with a non-empty log reports it (the Python
// layer turns it into one UserWarning "NVRTC log messages: ..."). Called
// once per compilation in this process (a disk-cache hit replays the log
// kept beside the code; memory-cache hits stay silent), from the compiling
// thread; `message` is the whole text of the warning.
using NvrtcWarningSink = void (*)(const std::string& message);
void set_nvrtc_warning_sink(NvrtcWarningSink sink);

// The include directories from the environment: the CUDA include directory
// (NUMBA_CUDA_INCLUDE_PATH wins when set) and then each entry of
// NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS (colon separated).
std::string default_cuda_include_dir();
std::vector<std::string> extra_search_paths_from_environment();

// The architecture NVRTC and the linker use for a compute capability:
// "sm_90a" for 9.0 (architecture-specific features on), else "sm_XY".
std::string arch_for(int cc_major, int cc_minor);

}  // namespace cuhost::cuda
