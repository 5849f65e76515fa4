// clang-19 for foreign .cu items (see clang_compile.h): in the process
// through libcuhost_clang, else a child process (posix_spawn, no shell);
// diagnostics kept for messages; results cached; one compile per source at a
// time, whichever thread asks.
#include "ffi/clang_compile.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "ffi/clang_module/clang_in_process.h"
#include "support/cache_files.h"
#include "support/diagnostics.h"
#include "support/exit_joins.h"
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

// libcuhost_clang (clang_module/clang_in_process.h), loaded on the first
// compile: beside the engine library, or in ../lib of the executable a
// static engine is linked into. Absent, or CUHOST_CLANG_IN_PROCESS=0: clang
// runs as a child process.
struct InProcessClang {
  cuhost_clang_compile_fn compile = nullptr;
  cuhost_clang_free_fn release = nullptr;
};

const InProcessClang& in_process_clang() {
  static const InProcessClang loaded = [] {
    InProcessClang clang;
    const char* setting = std::getenv("CUHOST_CLANG_IN_PROCESS");
    if (setting && std::string(setting) == "0") return clang;
    Dl_info self{};
    if (!dladdr(reinterpret_cast<void*>(&clang_path), &self) || !self.dli_fname) return clang;
    const std::string file = self.dli_fname;
    const std::string dir = file.find('/') == std::string::npos ? "." : file.substr(0, file.rfind('/'));
    log::StageTimer timer("clang", "load libcuhost_clang");
    for (const std::string& candidate : {dir + "/libcuhost_clang.so", dir + "/../lib/libcuhost_clang.so"}) {
      void* module = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!module) continue;
      support::joins_run_before_last_load();  // a compile ahead may be inside clang at exit
      clang.compile = reinterpret_cast<cuhost_clang_compile_fn>(dlsym(module, "cuhost_clang_compile"));
      clang.release = reinterpret_cast<cuhost_clang_free_fn>(dlsym(module, "cuhost_clang_free"));
      if (clang.compile && clang.release) break;
      clang = InProcessClang();
    }
    if (!clang.compile) log::info("[clang] no libcuhost_clang beside the engine: clang runs as a child process");
    return clang;
  }();
  return loaded;
}

// Runs clang with `argv` (argv[0] its executable) in the process when
// libcuhost_clang is there, else as a child; its messages go to
// `diagnostics`. Returns the exit status, or -1 when clang cannot be started.
int run_clang(const std::vector<std::string>& argv, const std::string& diag_path, std::string& diagnostics) {
  const InProcessClang& in_process = in_process_clang();
  if (in_process.compile) {
    std::vector<const char*> args;
    for (const std::string& a : argv) args.push_back(a.c_str());
    char* messages = nullptr;
    const int rc = in_process.compile(args.data(), int(args.size()), &messages);
    diagnostics = messages ? messages : "";
    if (messages) in_process.release(messages);
    if (rc != 2) return rc;  // 2: these arguments need the executable
  }
  const int rc = run_process(argv, diag_path);
  read_whole_file(diag_path, diagnostics);
  return rc;
}

std::mutex g_mutex;
std::map<std::string, ClangRun> g_memory_cache;
// Compiles running now, by key: a second request for the same source waits
// for the first instead of starting clang again (a compile started at
// declaration, then the kernel's first call).
std::map<std::string, std::shared_future<ClangRun>> g_in_flight;

// Worker threads of compiles started ahead (run_ahead), joined at exit so
// that none is still running while the process tears down
// (support/exit_joins.h; a forked child, which has none of them, skips it).
std::mutex g_workers_mutex;
std::vector<std::thread>* g_workers = nullptr;

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

namespace {

std::string shown_name(const ir::LinkItem& item) {
  return item.from_path() ? item.path : (item.name.empty() ? "<in-memory source>" : item.name);
}

std::string request_key(const ClangRequest& r) {
  Hasher h;
  h.add(clang_path());
  h.add(r.prelude);
  for (const auto& f : r.flags) h.add(f);
  h.add(r.source);
  for (const auto& d : r.include_dirs) h.add(d);
  hash_quoted_includes(r.source, r.dir, r.include_dirs, h);
  return h.hex();
}

// The disk cache, else clang itself; `timer_label` names the stage in -v logs.
ClangRun compile_from_disk_or_clang(const ClangRequest& r, const std::string& key, const char* timer_label) {
  const ir::LinkItem& item = r.item;
  const std::string& source = r.source;
  const std::string& dir = r.dir;
  ClangRun run;
  run.shown = shown_name(item);
  const std::string cache = cache_folder(r.cache_kind);
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
    return run;
  }

  const bool in_process = in_process_clang().compile != nullptr;  // loads the module first, outside the timer
  log::StageTimer timer(run.shown, in_process ? concat(timer_label, " in process") : std::string(timer_label));
  TempDir tmp;
  if (tmp.path.empty()) throw UserError(ErrorKind::RuntimeError, "cannot create a temporary folder for clang");
  write_file_atomically(tmp.path + "/prelude.h", r.prelude);
  std::string input = item.from_path() ? item.path : tmp.path + "/source.cu";
  if (!item.from_path()) write_file_atomically(input, source);
  std::vector<std::string> argv = {clang_path(), "-x", "c++", "-emit-llvm", "-c", "-Wno-unused-command-line-argument"};
  argv.insert(argv.end(), r.flags.begin(), r.flags.end());
  argv.insert(argv.end(), {"-include", tmp.path + "/prelude.h"});
  if (!dir.empty()) argv.push_back("-I" + dir);
  for (const auto& d : r.include_dirs) argv.push_back("-I" + d);
  argv.insert(argv.end(), {"-o", tmp.path + "/out.bc", input});
  int rc = run_clang(argv, tmp.path + "/diag.txt", run.diagnostics);
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
  return run;
}

// The memory cache, a compile of the same key already running, or a new
// compile (registered as running while it runs; the memory cache keeps its
// result, a throw is passed to every waiter and not kept).
ClangRun compile_once(const ClangRequest& r, const char* timer_label) {
  const std::string key = request_key(r);
  std::promise<ClangRun> mine;
  std::shared_future<ClangRun> running;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto it = g_memory_cache.find(key); it != g_memory_cache.end()) {
      ClangRun cached = it->second;
      cached.shown = shown_name(r.item);
      return cached;
    }
    if (auto it = g_in_flight.find(key); it != g_in_flight.end())
      running = it->second;
    else
      g_in_flight.emplace(key, mine.get_future().share());
  }
  if (running.valid()) {
    ClangRun result = running.get();  // rethrows the running compile's error
    result.shown = shown_name(r.item);
    return result;
  }
  try {
    ClangRun run = compile_from_disk_or_clang(r, key, timer_label);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (run.started) g_memory_cache[key] = run;  // not started: installing clang fixes it
    g_in_flight.erase(key);
    mine.set_value(run);
    return run;
  } catch (...) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_in_flight.erase(key);
    mine.set_exception(std::current_exception());
    throw;
  }
}

void join_workers_at_exit() {
  static std::once_flag once;
  std::call_once(once, [] {
    support::join_at_exit([] {
      std::vector<std::thread> workers;
      {
        std::lock_guard<std::mutex> lock(g_workers_mutex);
        if (g_workers) workers.swap(*g_workers);
      }
      for (std::thread& t : workers)
        if (t.joinable()) t.join();
    });
  });
}

}  // namespace

ClangRun clang_bitcode(const ClangRequest& request, const char* stage) { return compile_once(request, stage); }

void run_ahead(std::function<void()> work) {
  join_workers_at_exit();
  std::lock_guard<std::mutex> lock(g_workers_mutex);
  if (!g_workers) g_workers = new std::vector<std::thread>;  // kept for the process
  g_workers->emplace_back([work = std::move(work)] {
    try {
      work();
    } catch (...) {
      // the compile's own request reports it when it asks again
    }
  });
}

}  // namespace cuhost::ffi
