// Run-time location of cuhost's data folder (see install_layout.h). The only
// compiled-in paths are relative ones (library folder -> data folder, from
// the install layout) and the CUDA toolkit's root, a system location.
#include "support/install_layout.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "support/diagnostics.h"

#ifndef CUHOST_LIB_TO_DATA
#define CUHOST_LIB_TO_DATA "../share/cuhost"
#endif
#ifndef CUHOST_BIN_TO_DATA
#define CUHOST_BIN_TO_DATA "../share/cuhost"
#endif

namespace cuhost::support {
namespace {

bool readable(const std::string& path) { return access(path.c_str(), R_OK) == 0; }

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string parent(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string executable_path() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// The file this code was loaded from: libcuhost.so, or the executable when
// the engine is linked statically.
std::string engine_binary_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&engine_binary_path), &info) && info.dli_fname && *info.dli_fname) {
    std::string resolved = real(info.dli_fname);
    if (!resolved.empty()) return resolved;
  }
  return executable_path();
}

std::vector<std::string> candidates() {
  std::vector<std::string> out;
  std::string engine = engine_binary_path();
  std::string exe = executable_path();
  if (!engine.empty()) {
    out.push_back(parent(engine) + "/" CUHOST_LIB_TO_DATA);
    out.push_back(parent(engine) + "/../share/cuhost");  // a build tree and a GPU bundle: lib/ beside share/
  }
  if (!exe.empty() && exe != engine) out.push_back(parent(exe) + "/" CUHOST_BIN_TO_DATA);
#ifdef CUHOST_INSTALL_DATA_DIR
  out.push_back(CUHOST_INSTALL_DATA_DIR);  // a static engine in an application outside the prefix
#endif
  std::vector<std::string> unique;
  for (const std::string& c : out)
    if (std::find(unique.begin(), unique.end(), c) == unique.end()) unique.push_back(c);
  return unique;
}

}  // namespace

const std::string& data_dir() {
  static const std::string dir = [] {
    if (const char* env = std::getenv("CUHOST_DATA_DIR"); env && *env) return std::string(env);
    for (const std::string& c : candidates())
      if (readable(c + "/python/cuda/__init__.py")) {
        std::string resolved = real(c);
        return resolved.empty() ? c : resolved;
      }
    return std::string();
  }();
  return dir;
}

std::string data_dir_candidates() {
  if (const char* env = std::getenv("CUHOST_DATA_DIR"); env && *env) return concat("$CUHOST_DATA_DIR (", env, ")");
  std::string joined;
  for (const std::string& c : candidates()) joined += (joined.empty() ? "" : ", ") + c;
  return joined;
}

std::string python_dir() {
  if (const char* env = std::getenv("CUHOST_PYLIB"); env && *env) return env;
  const std::string& data = data_dir();
  if (!data.empty() && readable(data + "/python/cuda/__init__.py")) return data + "/python";
  throw UserError(
      ErrorKind::RuntimeError,
      concat("cannot find cuhost's Python packages (python/cuda/__init__.py) in its data folder; looked in ",
             data_dir_candidates(), ". Set CUHOST_DATA_DIR to <prefix>/share/cuhost"));
}

std::string installed_plugins_dir() {
  const std::string& data = data_dir();
  return data.empty() ? std::string() : data + "/plugins";
}

std::string libdevice_path() {
  if (const char* env = std::getenv("CUHOST_LIBDEVICE"); env && *env) return env;
  std::vector<std::string> options;
  if (!data_dir().empty()) options.push_back(data_dir() + "/libdevice/libdevice.10.bc");
  if (const char* cuda = std::getenv("CUDA_HOME"); cuda && *cuda)
    options.push_back(std::string(cuda) + "/nvvm/libdevice/libdevice.10.bc");
  options.push_back(std::string(CUHOST_CUDA_ROOT) + "/nvvm/libdevice/libdevice.10.bc");
  for (const std::string& o : options)
    if (readable(o)) return o;
  return options.back();
}

std::string cudadevrt_path() {
  std::vector<std::string> options;
  if (const char* cuda = std::getenv("CUDA_HOME"); cuda && *cuda)
    options.push_back(std::string(cuda) + "/lib64/libcudadevrt.a");
  options.push_back(std::string(CUHOST_CUDA_ROOT) + "/lib64/libcudadevrt.a");
  for (const std::string& o : options)
    if (readable(o)) return o;
  return options.back();
}

}  // namespace cuhost::support
