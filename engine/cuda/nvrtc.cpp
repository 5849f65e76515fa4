// NVRTC compilation of foreign CUDA sources (see nvrtc.h). The cache key is
// a hash of everything that can change the output: the source, the content
// of every header it includes with quotes (found through the same search
// path, recursively), the options, and NVRTC's version. Never a file's mtime.
#include "cuda/nvrtc.h"

#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "cuda/toolkit_info.h"
#include "cuda/toolkit_libraries.h"
#include "support/cache_files.h"
#include "support/diagnostics.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/source_hash.h"

namespace cuhost::cuda {

namespace {

struct ProgramOwner {
  nvrtcProgram prog = nullptr;
  ~ProgramOwner() {
    if (prog) nvrtc_api().nvrtcDestroyProgram(&prog);
  }
};

std::string program_log(nvrtcProgram prog) {
  size_t size = 0;
  if (nvrtc_api().nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  nvrtc_api().nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

void check_nvrtc(nvrtcResult r, const char* function, const std::string& name) {
  if (r != NVRTC_SUCCESS)
    throw UserError(ErrorKind::NvrtcError,
                    concat(function, " failed for '", name, "': ", nvrtc_api().nvrtcGetErrorString(r)));
}

std::atomic<NvrtcWarningSink> g_warning_sink{nullptr};

bool is_directory(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::mutex g_cache_mutex;
std::map<std::string, NvrtcOutput> g_memory_cache;

}  // namespace

std::string arch_for(int cc_major, int cc_minor) {
  std::string arch = concat("sm_", cc_major, cc_minor);
  if (cc_major == 9 && cc_minor == 0) arch += "a";
  return arch;
}

void set_nvrtc_warning_sink(NvrtcWarningSink sink) { g_warning_sink.store(sink); }

std::string default_cuda_include_dir() {
  if (const char* p = std::getenv("NUMBA_CUDA_INCLUDE_PATH"); p && *p) return p;
  return std::string(CUHOST_CUDA_ROOT) + "/include";
}

std::vector<std::string> extra_search_paths_from_environment() {
  std::vector<std::string> out;
  if (const char* p = std::getenv("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS")) {
    std::istringstream parts(p);
    std::string part;
    while (std::getline(parts, part, ':'))
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

NvrtcOutput compile_cuda_source(const std::string& source, const std::string& name, const std::string& source_dir,
                                const NvrtcOptions& options) {
  std::string cuda_include = options.cuda_include_dir.empty() ? default_cuda_include_dir() : options.cuda_include_dir;
  std::vector<std::string> args = {
      "-rdc=true", "-std=c++17",
      "--gpu-architecture=" + (options.arch.empty() ? arch_for(options.cc_major, options.cc_minor) : options.arch)};
  if (options.lto) args.push_back("-dlto");
  std::vector<std::string> search;
  if (!source_dir.empty()) search.push_back(source_dir);
  search.push_back(cuda_include);
  // CUDA 13 keeps libcu++/CUB/Thrust (CCCL) under include/cccl; the CUDA
  // headers themselves (cooperative_groups.h, cuda_fp16.h) include them.
  if (is_directory(cuda_include + "/cccl")) search.push_back(cuda_include + "/cccl");
  for (const auto& d : options.include_dirs) search.push_back(d);
  for (const auto& d : search) args.push_back("-I" + d);
  for (const auto& o : options.extra_options) args.push_back(o);

  Hasher h;
  h.add("nvrtc-cache-2");  // entries keep NVRTC's log beside the code (older ones did not)
  h.add(nvrtc_version());
  h.add(source);
  for (const auto& a : args) h.add(a);
  hash_quoted_includes(source, source_dir, search, h);
  const std::string key = h.hex();

  {
    std::lock_guard<std::mutex> lock(g_cache_mutex);
    auto it = g_memory_cache.find(key);
    if (it != g_memory_cache.end()) {
      NvrtcOutput out = it->second;
      out.cached = true;
      out.log.clear();  // warnings were reported on the first compile
      return out;
    }
  }
  const std::string dir = cache_folder("nvrtc");
  const ir::LinkKind kind = options.lto ? ir::LinkKind::LTOIR : ir::LinkKind::PTXSource;
  const std::string disk_path = dir.empty() ? "" : dir + "/" + key + (options.lto ? ".ltoir" : ".ptx");
  if (!disk_path.empty()) {
    NvrtcOutput out;
    if (read_cache_entry(disk_path, out.code) && !out.code.empty()) {
      out.kind = kind;
      out.cached = true;
      // The first compile in this process: its warnings are reported again
      // (another process compiled it, and this script never saw them).
      std::string log;
      if (read_cache_entry(disk_path + ".log", log) && !log.empty())
        if (NvrtcWarningSink sink = g_warning_sink.load()) sink(concat("NVRTC log messages: ", log));
      std::lock_guard<std::mutex> lock(g_cache_mutex);
      g_memory_cache[key] = out;
      return out;
    }
  }

  log::StageTimer timer(name, "nvrtc");
  ProgramOwner owner;
  // NVRTC names the program in its log ("error.cu(9): error: ...", "in the
  // compilation of \"error.cu\"") by its file name, as numba-cuda does; the
  // folder is on the include path already, and our own header names the path.
  const std::string program_name = name.substr(name.find_last_of('/') + 1);
  check_nvrtc(nvrtc_api().nvrtcCreateProgram(&owner.prog, source.c_str(), program_name.c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram", name);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  nvrtcResult r = nvrtc_api().nvrtcCompileProgram(owner.prog, static_cast<int>(argv.size()), argv.data());
  NvrtcOutput out;
  out.kind = kind;
  out.log = program_log(owner.prog);
  if (r != NVRTC_SUCCESS)
    throw UserError(ErrorKind::NvrtcError, concat("NVRTC compilation of '", name, "' failed (",
                                                  nvrtc_api().nvrtcGetErrorString(r), "):\n", out.log));
  size_t size = 0;
  if (options.lto) {
    check_nvrtc(nvrtc_api().nvrtcGetLTOIRSize(owner.prog, &size), "nvrtcGetLTOIRSize", name);
    out.code.resize(size);
    check_nvrtc(nvrtc_api().nvrtcGetLTOIR(owner.prog, out.code.data()), "nvrtcGetLTOIR", name);
  } else {
    check_nvrtc(nvrtc_api().nvrtcGetPTXSize(owner.prog, &size), "nvrtcGetPTXSize", name);
    out.code.resize(size);
    check_nvrtc(nvrtc_api().nvrtcGetPTX(owner.prog, out.code.data()), "nvrtcGetPTX", name);
    while (!out.code.empty() && out.code.back() == '\0') out.code.pop_back();
  }
  if (!disk_path.empty()) {
    if (!out.log.empty()) write_file_atomically(disk_path + ".log", out.log);  // before the code: hits read both
    write_file_atomically(disk_path, out.code);
  }
  if (!out.log.empty())
    if (NvrtcWarningSink sink = g_warning_sink.load()) sink(concat("NVRTC log messages: ", out.log));
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  NvrtcOutput cached = out;
  cached.log.clear();
  g_memory_cache[key] = cached;
  return out;
}

}  // namespace cuhost::cuda
