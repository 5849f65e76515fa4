// clang-19 as a child process for foreign .cu items (see clang_compile.h):
// posix_spawn, no shell; diagnostics kept for messages; results cached.
#include "ffi/clang_compile.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

#include "support/cache_files.h"
#include "support/diagnostics.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/source_hash.h"

extern char** environ;

namespace cuhost::ffi {

namespace {

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
std::map<std::string, ClangRun> g_memory_cache;

// Failures are cached as this marker followed by the diagnostics.
constexpr const char* kFailedMarker = "cuhost-clang-failed\n";

}  // namespace

std::string cuda_header_included(const std::string& source) {
  static const std::regex include_re(
      R"re(#\s*include\s*[<"]((cuda[^>"]*|cooperative_groups[^>"]*|cub/[^>"]*|thrust/[^>"]*|mma\.h|nv/[^>"]*|crt/[^>"]*|curand[^>"]*|cuComplex\.h|sm_[0-9][^>"]*|device_[a-z_]*\.h))[>"])re");
  std::smatch m;
  return std::regex_search(source, m, include_re) ? m[1].str() : "";
}

std::string clang_path() {
  const char* env = std::getenv("CUHOST_CLANG");
  return env && *env ? env : CUHOST_CLANG_PATH;
}

const char* const kCudaQualifierMacros = R"(#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
)";

// Redefining a typedef to the same type is allowed, so a source that also
// includes <cstdint> or <cstddef> still compiles.
const char* const kNvrtcBuiltinTypes = R"(typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
#ifndef NULL
#define NULL __null
#endif
)";

void read_item_source(const ir::LinkItem& item, std::string* source, std::string* dir) {
  *source = item.data;
  dir->clear();
  if (!item.from_path()) return;
  if (!read_whole_file(item.path, *source))
    throw UserError(ErrorKind::LinkFileNotFound, concat(item.path, " not found"));
  auto slash = item.path.find_last_of('/');
  *dir = slash == std::string::npos ? "." : item.path.substr(0, slash);
}

ClangRun clang_bitcode(const ir::LinkItem& item, const std::string& source, const std::string& dir,
                       const std::string& prelude, const std::vector<std::string>& flags,
                       const std::vector<std::string>& include_dirs, const std::string& cache_kind) {
  ClangRun run;
  run.shown = item.from_path() ? item.path : (item.name.empty() ? "<in-memory source>" : item.name);
  Hasher h;
  h.add(clang_path());
  h.add(prelude);
  for (const auto& f : flags) h.add(f);
  h.add(source);
  for (const auto& d : include_dirs) h.add(d);
  hash_quoted_includes(source, dir, include_dirs, h);
  const std::string key = h.hex();
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_memory_cache.find(key); it != g_memory_cache.end()) {
      ClangRun cached = it->second;
      cached.shown = run.shown;
      return cached;
    }
  }
  const std::string cache = cache_folder(cache_kind);
  const std::string cached_path = cache.empty() ? "" : cache + "/" + key + ".bc";
  std::string stored;
  if (!cached_path.empty() && read_cache_entry(cached_path, stored) && !stored.empty()) {
    const std::string marker = kFailedMarker;
    if (stored.compare(0, marker.size(), marker) == 0) {
      run.diagnostics = stored.substr(marker.size());
    } else {
      run.ok = true;
      run.bitcode = std::move(stored);
      read_cache_entry(cached_path + ".diag", run.diagnostics);  // a compile's warnings, when it had any
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    g_memory_cache[key] = run;
    return run;
  }

  log::StageTimer timer(run.shown, "clang");
  TempDir tmp;
  if (tmp.path.empty()) throw UserError(ErrorKind::RuntimeError, "cannot create a temporary folder for clang");
  write_file_atomically(tmp.path + "/prelude.h", prelude);
  std::string input = item.from_path() ? item.path : tmp.path + "/source.cu";
  if (!item.from_path()) write_file_atomically(input, source);
  std::vector<std::string> argv = {clang_path(), "-x", "c++", "-emit-llvm", "-c", "-Wno-unused-command-line-argument"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-include", tmp.path + "/prelude.h"});
  if (!dir.empty()) argv.push_back("-I" + dir);
  for (const auto& d : include_dirs) argv.push_back("-I" + d);
  argv.insert(argv.end(), {"-o", tmp.path + "/out.bc", input});
  int rc = run_process(argv, tmp.path + "/diag.txt");
  read_whole_file(tmp.path + "/diag.txt", run.diagnostics);
  if (rc == -1) {
    run.started = false;  // not cached: installing clang fixes it
    return run;
  }
  run.ok = rc == 0 && read_whole_file(tmp.path + "/out.bc", run.bitcode) && !run.bitcode.empty();
  if (!run.ok) run.bitcode.clear();
  if (!cached_path.empty()) {
    // Warnings beside the code, before it: a hit that reads the code reads them too.
    if (run.ok && !run.diagnostics.empty()) write_file_atomically(cached_path + ".diag", run.diagnostics);
    write_file_atomically(cached_path, run.ok ? run.bitcode : kFailedMarker + run.diagnostics);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_memory_cache[key] = run;
  return run;
}

}  // namespace cuhost::ffi
