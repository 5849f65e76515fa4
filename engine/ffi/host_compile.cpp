// Host compilation of foreign CUDA C++ for the CPU backend (see
// host_compile.h). clang-19 runs as a child process (posix_spawn, no shell);
// its diagnostics are kept for the error message.
#include "ffi/host_compile.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <regex>

#include "cuda/module.h"
#include "support/diagnostics.h"
#include "support/log.h"
#include "support/source_hash.h"

extern char** environ;

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

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/cuhost-host-cxx-XXXXXX";
    if (mkdtemp(tmpl)) path = tmpl;
  }
  ~TempDir() {
    if (path.empty()) return;
    for (const char* f : {"/prelude.h", "/source.cu", "/out.bc", "/diag.txt"}) unlink((path + f).c_str());
    rmdir(path.c_str());
  }
};

// Runs argv, stderr to `diag_path`; returns the exit status (or -1).
int run_process(const std::vector<std::string>& argv, const std::string& diag_path) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, diag_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::mutex g_mutex;
std::map<std::string, std::string> g_memory_cache;

// The first CUDA header a source includes ("cuda_fp16.h", "cub/cub.cuh"),
// or "" when it includes none: such code needs the CUDA toolkit's device
// headers and cannot be compiled for the host.
std::string cuda_header_included(const std::string& source) {
  static const std::regex include_re(
      R"re(#\s*include\s*[<"]((cuda[^>"]*|cooperative_groups[^>"]*|cub/[^>"]*|thrust/[^>"]*|mma\.h|nv/[^>"]*|crt/[^>"]*|curand[^>"]*|cuComplex\.h|sm_[0-9][^>"]*|device_[a-z_]*\.h))[>"])re");
  std::smatch m;
  return std::regex_search(source, m, include_re) ? m[1].str() : "";
}

}  // namespace

const char* host_prelude() {
  return R"(// cuhost: CUDA qualifiers for host compilation of device code.
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __constant__ const
#define __CUDACC_RTC__ 1
#define __CUHOST_HOST_COMPILE__ 1
)";
}

std::string host_bitcode(const ir::LinkItem& item, const std::string& function,
                         const std::vector<std::string>& include_dirs) {
  const std::string shown = item.from_path() ? item.path : (item.name.empty() ? "<in-memory source>" : item.name);
  // A path item's kind comes from its extension here too, so an unknown or
  // missing extension gives the same error naming it as on the GPU.
  ir::LinkKind kind = item.from_path() ? cuda::link_kind_from_path(item.path) : item.kind;
  if (kind != ir::LinkKind::CUSource)
    throw UserError(
        ErrorKind::NotImplementedError,
        concat("foreign function '", function, "' cannot run on the CPU backend: '", shown, "' ships only GPU code (",
               kind_extension(kind), "); link a .cu source that is plain C++, or run on a GPU"));
  std::string source = item.data;
  std::string dir;
  if (item.from_path()) {
    if (!read_whole_file(item.path, source))
      throw UserError(ErrorKind::FileNotFoundError, concat(item.path, " not found"));
    auto slash = item.path.find_last_of('/');
    dir = slash == std::string::npos ? "." : item.path.substr(0, slash);
  }

  if (std::string header = cuda_header_included(source); !header.empty())
    throw UserError(
        ErrorKind::CompileError,
        concat("foreign function '", function, "' cannot run on the CPU backend: its source needs CUDA headers (",
               shown, " includes <", header, ">); run it on a GPU, or give the plugin a plain C++ host version"));

  Hasher h;
  h.add(std::string(CUHOST_CLANG_PATH));
  h.add(std::string(host_prelude()));
  h.add(source);
  for (const auto& d : include_dirs) h.add(d);
  hash_quoted_includes(source, dir, include_dirs, h);
  const std::string key = h.hex();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_memory_cache.find(key); it != g_memory_cache.end()) return it->second;
  }
  const std::string cache = cache_folder("host-cxx");
  const std::string cached_path = cache.empty() ? "" : cache + "/" + key + ".bc";
  std::string bitcode;
  if (!cached_path.empty() && read_whole_file(cached_path, bitcode) && !bitcode.empty()) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_memory_cache[key] = bitcode;
    return bitcode;
  }

  log::StageTimer timer(function, "host-c++");
  TempDir tmp;
  if (tmp.path.empty())
    throw UserError(ErrorKind::RuntimeError, "cannot create a temporary folder for host compilation");
  write_file_atomically(tmp.path + "/prelude.h", host_prelude());
  std::string input = item.from_path() ? item.path : tmp.path + "/source.cu";
  if (!item.from_path()) write_file_atomically(input, source);
  std::vector<std::string> argv = {CUHOST_CLANG_PATH,
                                   "-x",
                                   "c++",
                                   "-std=c++17",
                                   "-O2",
                                   "-fPIC",
                                   "-emit-llvm",
                                   "-c",
                                   "-Wno-unused-command-line-argument",
                                   "-include",
                                   tmp.path + "/prelude.h"};
  if (!dir.empty()) argv.push_back("-I" + dir);
  for (const auto& d : include_dirs) argv.push_back("-I" + d);
  argv.insert(argv.end(), {"-o", tmp.path + "/out.bc", input});
  int rc = run_process(argv, tmp.path + "/diag.txt");
  std::string diag;
  read_whole_file(tmp.path + "/diag.txt", diag);
  if (rc == -1)
    throw UserError(ErrorKind::CompileError,
                    concat("foreign function '", function, "' cannot run on the CPU backend: the host compiler ",
                           CUHOST_CLANG_PATH, " could not be started (install clang-19)"));
  if (rc != 0) {
    std::string why = "its source is not plain C++";
    if (diag.find("cuda") != std::string::npos && diag.find("file not found") != std::string::npos)
      why = "its source needs CUDA headers";
    else if (diag.find("threadIdx") != std::string::npos || diag.find("__sync") != std::string::npos ||
             diag.find("__shfl") != std::string::npos || diag.find("blockIdx") != std::string::npos)
      why = "its source uses GPU intrinsics";
    throw UserError(ErrorKind::CompileError, concat("foreign function '", function, "' cannot run on the CPU backend: ",
                                                    why, " (compiling '", shown, "' for the host failed):\n", diag));
  }
  if (!read_whole_file(tmp.path + "/out.bc", bitcode) || bitcode.empty())
    throw UserError(ErrorKind::CompileError, concat("host compilation of '", shown, "' produced no output"));
  if (!cached_path.empty()) write_file_atomically(cached_path, bitcode);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_memory_cache[key] = bitcode;
  return bitcode;
}

}  // namespace cuhost::ffi
