// Host compilation of foreign CUDA C++ for the CPU backend (see
// host_compile.h), through clang_compile.h.
#include "ffi/host_compile.h"

#include "cuda/module.h"
#include "cuda/nvrtc.h"
#include "ffi/clang_compile.h"
#include "support/diagnostics.h"

namespace cuhost::ffi {

namespace {

const char* kind_extension(ir::LinkKind k) {
  switch (k) {
    case ir::LinkKind::CUSource: return ".cu";
    case ir::LinkKind::PTXSource: return ".ptx";
    case ir::LinkKind::Cubin: return ".cubin";
    case ir::LinkKind::Fatbin: return ".fatbin";
    case ir::LinkKind::Archive: return ".a";
    case ir::LinkKind::Object: return ".o";
    case ir::LinkKind::LTOIR: return ".ltoir";
  }
  return "?";
}

// The source checked by NVRTC as a GPU build would compile it, so the CPU
// backend reports NVRTC's warnings (the "NVRTC log messages" UserWarning)
// just as a GPU run does. Its error is returned, not thrown: on the CPU the
// host compiler decides, and NVRTC's log is shown when both reject the source.
std::string nvrtc_check(const std::string& source, const std::string& shown, const std::string& dir,
                        const std::vector<std::string>& include_dirs) {
  cuda::NvrtcOptions opts;
  opts.include_dirs = include_dirs;
  for (std::string& d : cuda::extra_search_paths_from_environment()) opts.include_dirs.push_back(std::move(d));
  try {
    cuda::compile_cuda_source(source, shown, dir, opts);
  } catch (const UserError& e) {
    if (e.kind() == ErrorKind::NvrtcError) return e.message();
  }
  return {};
}

}  // namespace

// __trap() and assert() end the kernel with an error, as on a GPU, instead of
// aborting the host process (model/cpu_abi.h). glibc's assert() expands to a
// call of __assert_fail, renamed here to cuhost's.
const char* const kHostTrapDeclarations =
    "extern \"C\" [[noreturn]] void cuhost_cpu_trap(void);\n"
    "extern \"C\" void cuhost_cpu_assert_fail(const char*, const char*, unsigned int, const char*) noexcept\n"
    "    __attribute__((__noreturn__));\n"
    "static inline void __trap(void) { cuhost_cpu_trap(); }\n"
    "#define __assert_fail cuhost_cpu_assert_fail\n";

const char* host_prelude() {
  static const std::string text = std::string("// cuhost: CUDA qualifiers for host compilation of device code.\n") +
                                  kCudaQualifierMacros +
                                  "#define __constant__ const\n"
                                  "#define __CUDACC_RTC__ 1\n"
                                  "#define __CUHOST_HOST_COMPILE__ 1\n" +
                                  kNvrtcBuiltinTypes + kHostTrapDeclarations;
  return text.c_str();
}

std::string host_bitcode(const ir::LinkItem& item, const std::string& function,
                         const std::vector<std::string>& include_dirs) {
  const std::string shown = item.from_path() ? item.path : (item.name.empty() ? "<in-memory source>" : item.name);
  // A path item's kind comes from its extension here too, so an unknown or
  // missing extension gives the same error naming it as on the GPU.
  ir::LinkKind kind = item.from_path() ? cuda::link_kind_from_path(item.path) : item.kind;
  // Read first: a missing file is reported as missing, whatever its kind, as on the GPU.
  std::string source, dir;
  read_item_source(item, &source, &dir);
  if (kind != ir::LinkKind::CUSource)
    throw UserError(
        ErrorKind::NotImplementedError,
        concat("foreign function '", function, "' cannot run on the CPU backend: '", shown, "' ships only GPU code (",
               kind_extension(kind), "); link a .cu source that is plain C++, or run on a GPU"));
  if (std::string header = cuda_header_included(source); !header.empty())
    throw UserError(
        ErrorKind::CompileError,
        concat("foreign function '", function, "' cannot run on the CPU backend: its source needs CUDA headers (",
               shown, " includes <", header, ">); run it on a GPU, or give the plugin a plain C++ host version"));

  const std::string nvrtc_error = nvrtc_check(source, shown, dir, include_dirs);
  ClangRun run =
      clang_bitcode({item, source, dir, host_prelude(), {"-std=c++17", "-O2", "-fPIC"}, include_dirs, "host-cxx"});
  if (!run.started)
    throw UserError(ErrorKind::CompileError,
                    concat("foreign function '", function, "' cannot run on the CPU backend: the host compiler ",
                           clang_path(), " could not be started (install clang-19)"));
  if (!run.ok) {
    const std::string& diag = run.diagnostics;
    std::string why = "its source is not plain C++";
    if (diag.find("cuda") != std::string::npos && diag.find("file not found") != std::string::npos)
      why = "its source needs CUDA headers";
    else if (diag.find("threadIdx") != std::string::npos || diag.find("__sync") != std::string::npos ||
             diag.find("__shfl") != std::string::npos || diag.find("blockIdx") != std::string::npos)
      why = "its source uses GPU intrinsics";
    if (!nvrtc_error.empty()) throw UserError(ErrorKind::NvrtcError, nvrtc_error);
    if (diag.empty())
      throw UserError(ErrorKind::CompileError, concat("host compilation of '", shown, "' produced no output"));
    throw UserError(ErrorKind::CompileError, concat("foreign function '", function, "' cannot run on the CPU backend: ",
                                                    why, " (compiling '", shown, "' for the host failed):\n", diag));
  }
  return run.bitcode;
}

}  // namespace cuhost::ffi
