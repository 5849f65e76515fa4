// Loading plugin host libraries and running their module setup and teardown
// (see host_library.h). The C entry points get a cuhost_plugin_context whose
// function pointers are thunks into ModuleGlobals; the thunks catch
// everything, since nothing may throw through a vendor's C frames.
#include "plugin/host_library.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>

#include "cuhost/plugin_abi.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::plugin {

namespace {

struct HostLibrary {
  std::string plugin;
  std::string directory;
  std::string manifest_path;
  std::string path;
  std::string setup_name;
  std::string teardown_name;
  cuhost_plugin_setup_fn setup = nullptr;
  cuhost_plugin_teardown_fn teardown = nullptr;
};

[[noreturn]] void fail(const Manifest& m, const std::string& field, const std::string& problem) {
  throw UserError(ErrorKind::PluginError,
                  concat("plugin '", m.name, "' (", m.manifest_path, "): field '", field, "': ", problem));
}

// dlopen and dlsym for one manifest; throws naming the field at fault.
std::shared_ptr<const HostLibrary> open_library(const Manifest& m) {
  auto lib = std::make_shared<HostLibrary>();
  lib->plugin = m.name;
  lib->directory = m.directory;
  lib->manifest_path = m.manifest_path;
  lib->path = m.host_library;
  lib->setup_name = m.host_setup;
  lib->teardown_name = m.host_teardown;
  dlerror();
  // RTLD_LOCAL: the library's symbols stay out of the process's namespace (two
  // plugins may both define cuhost_plugin_setup). Never closed: teardowns run
  // at exit.
  void* handle = dlopen(m.host_library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    fail(m, "build.host_library", concat("cannot load '", m.host_library, "': ", why ? why : "unknown dlopen error"));
  }
  lib->setup = reinterpret_cast<cuhost_plugin_setup_fn>(dlsym(handle, m.host_setup.c_str()));
  if (!lib->setup)
    fail(m, "build.host_setup",
         concat("the host library '", m.host_library, "' does not define the setup entry point '", m.host_setup, "'",
                m.host_setup == CUHOST_PLUGIN_DEFAULT_SETUP ? " (the default; name another with host_setup)" : ""));
  lib->teardown = reinterpret_cast<cuhost_plugin_teardown_fn>(dlsym(handle, m.host_teardown.c_str()));
  if (!lib->teardown && m.host_teardown_required)
    fail(m, "build.host_teardown",
         concat("the host library '", m.host_library, "' does not define the teardown entry point '", m.host_teardown,
                "'"));
  return lib;
}

std::mutex g_mutex;
std::map<std::string, std::shared_ptr<const HostLibrary>>& libraries() {
  static auto* m = new std::map<std::string, std::shared_ptr<const HostLibrary>>();  // lives past exit handlers
  return *m;
}

std::shared_ptr<const HostLibrary> library_of(const std::string& dir) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = libraries().find(dir);
  if (it != libraries().end()) return it->second;
  Manifest m = load_manifest(dir);
  if (m.host_library.empty())
    throw UserError(ErrorKind::PluginError, concat("plugin '", m.name, "' (", m.manifest_path,
                                                   "): field 'build.host_library': missing (the manifest changed "
                                                   "after the plugin was imported)"));
  auto lib = open_library(m);
  libraries()[dir] = lib;
  return lib;
}

// What a cuhost_plugin_module points to: one library set up for one module.
struct ModuleEntry {
  cuhost_plugin_context context{};
  std::shared_ptr<const HostLibrary> library;
  std::shared_ptr<ModuleGlobals> globals;
  std::string kernel_name;
  std::string reported;   // set_error
  std::string last_call;  // why the last failing get/read/write failed
};

ModuleEntry* entry_of(cuhost_plugin_module* m) { return reinterpret_cast<ModuleEntry*>(m); }

// Finds `name` and checks [offset, offset + bytes) lies inside it.
int locate(ModuleEntry* e, const char* name, std::size_t offset, std::size_t bytes, bool writing,
           std::uint64_t* address) {
  std::uint64_t base = 0;
  std::size_t size = 0;
  bool read_only = false;
  int status = e->globals->find(name, &base, &size, &read_only, &e->last_call);
  if (status != CUHOST_PLUGIN_OK) return status;
  if (writing && read_only) {
    e->last_call = concat("global '", name,
                          "' is read-only on this backend (a __constant__ variable is const host data on the CPU "
                          "backend; declare it __device__ to fill it from the host library)");
    return CUHOST_PLUGIN_READ_ONLY;
  }
  if (offset > size || bytes > size - offset) {
    e->last_call = concat(writing ? "writing " : "reading ", bytes, " bytes at offset ", offset, " of global '", name,
                          "' (", size, " bytes) goes past its end");
    return CUHOST_PLUGIN_OUT_OF_RANGE;
  }
  *address = base + offset;
  return CUHOST_PLUGIN_OK;
}

int get_global_thunk(cuhost_plugin_module* m, const char* name, std::uint64_t* address, std::size_t* bytes) {
  if (!m || !name) return CUHOST_PLUGIN_INVALID;
  try {
    ModuleEntry* e = entry_of(m);
    std::uint64_t a = 0;
    std::size_t n = 0;
    bool read_only = false;
    int status = e->globals->find(name, &a, &n, &read_only, &e->last_call);
    if (status != CUHOST_PLUGIN_OK) return status;
    if (address) *address = a;
    if (bytes) *bytes = n;
    return CUHOST_PLUGIN_OK;
  } catch (...) {
    return CUHOST_PLUGIN_INVALID;
  }
}

int write_global_thunk(cuhost_plugin_module* m, const char* name, std::size_t offset, const void* src,
                       std::size_t bytes) {
  if (!m || !name || (!src && bytes)) return CUHOST_PLUGIN_INVALID;
  try {
    ModuleEntry* e = entry_of(m);
    std::uint64_t address = 0;
    int status = locate(e, name, offset, bytes, true, &address);
    if (status != CUHOST_PLUGIN_OK || bytes == 0) return status;
    return e->globals->copy_in(address, src, bytes, &e->last_call);
  } catch (...) {
    return CUHOST_PLUGIN_INVALID;
  }
}

int read_global_thunk(cuhost_plugin_module* m, const char* name, std::size_t offset, void* dst, std::size_t bytes) {
  if (!m || !name || (!dst && bytes)) return CUHOST_PLUGIN_INVALID;
  try {
    ModuleEntry* e = entry_of(m);
    std::uint64_t address = 0;
    int status = locate(e, name, offset, bytes, false, &address);
    if (status != CUHOST_PLUGIN_OK || bytes == 0) return status;
    return e->globals->copy_out(dst, address, bytes, &e->last_call);
  } catch (...) {
    return CUHOST_PLUGIN_INVALID;
  }
}

void set_error_thunk(cuhost_plugin_module* m, const char* message) {
  if (!m) return;
  try {
    entry_of(m)->reported = message ? message : "";
  } catch (...) {
  }
}

class HostState : public ModuleHostState {
 public:
  ~HostState() override {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      ModuleEntry& e = **it;
      if (!e.library->teardown) continue;
      try {
        e.library->teardown(&e.context);    // the status is ignored: an unload cannot fail
      } catch (const std::exception& ex) {  // nor throw: said on stderr, the unload goes on
        std::fprintf(stderr, "cuhost: plugin '%s': %s() threw while unloading kernel '%s': %s\n",
                     e.library->plugin.c_str(), e.library->teardown_name.c_str(), e.kernel_name.c_str(), ex.what());
      } catch (...) {
        std::fprintf(stderr, "cuhost: plugin '%s': %s() threw while unloading kernel '%s'\n", e.library->plugin.c_str(),
                     e.library->teardown_name.c_str(), e.kernel_name.c_str());
      }
    }
  }
  void add(std::unique_ptr<ModuleEntry> e) { entries_.push_back(std::move(e)); }

 private:
  std::vector<std::unique_ptr<ModuleEntry>> entries_;
};

}  // namespace

std::vector<std::string> host_plugins_of(const std::vector<ir::LinkItem>& items) {
  std::vector<std::string> out;
  for (const ir::LinkItem& item : items)
    if (!item.plugin_dir.empty() && std::find(out.begin(), out.end(), item.plugin_dir) == out.end())
      out.push_back(item.plugin_dir);
  return out;
}

std::unique_ptr<ModuleHostState> set_up_module(const std::vector<std::string>& plugin_dirs,
                                               std::shared_ptr<ModuleGlobals> globals, const std::string& kernel_name) {
  auto state = std::make_unique<HostState>();
  for (const std::string& dir : plugin_dirs) {
    auto e = std::make_unique<ModuleEntry>();
    e->library = library_of(dir);
    e->globals = globals;
    e->kernel_name = kernel_name;
    cuhost_plugin_context& c = e->context;
    c.abi_version = CUHOST_PLUGIN_ABI_VERSION;
    c.struct_size = sizeof(cuhost_plugin_context);
    c.plugin_name = e->library->plugin.c_str();
    c.plugin_dir = e->library->directory.c_str();
    c.kernel_name = e->kernel_name.c_str();
    c.backend = globals->backend();
    c.module = reinterpret_cast<cuhost_plugin_module*>(e.get());
    c.get_global = get_global_thunk;
    c.write_global = write_global_thunk;
    c.read_global = read_global_thunk;
    c.set_error = set_error_thunk;
    const HostLibrary& lib = *e->library;
    int status = 0;
    std::string thrown;
    try {  // the ABI is C, but a C++ library may still throw through it
      status = lib.setup(&c);
    } catch (const std::exception& ex) {
      thrown = ex.what();
    } catch (...) {
      thrown = "an exception that is not a std::exception";
    }
    if (!thrown.empty())
      throw UserError(ErrorKind::PluginError,
                      concat("plugin '", lib.plugin, "': host library setup failed for kernel '", kernel_name,
                             "': ", lib.setup_name, "() in ", lib.path, " threw: ", thrown));
    if (status != 0) {
      std::string why = !e->reported.empty() ? e->reported : !e->last_call.empty() ? e->last_call : "(no message)";
      throw UserError(ErrorKind::PluginError,
                      concat("plugin '", lib.plugin, "': host library setup failed for kernel '", kernel_name,
                             "': ", lib.setup_name, "() in ", lib.path, " returned ", status, ": ", why));
    }
    log::info(concat("[", kernel_name, "] plugin '", lib.plugin, "': ", lib.setup_name, "() set up the module (",
                     c.backend == CUHOST_PLUGIN_BACKEND_CUDA ? "cuda" : "cpu", ")"));
    state->add(std::move(e));
  }
  return state;
}

std::string check_host_library(const Manifest& m, bool* has_teardown) {
  if (has_teardown) *has_teardown = false;
  if (m.host_library.empty()) return "";
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = libraries().find(m.directory);
    std::shared_ptr<const HostLibrary> lib = it != libraries().end() ? it->second : open_library(m);
    libraries()[m.directory] = lib;
    if (has_teardown) *has_teardown = lib->teardown != nullptr;
    return "";
  } catch (const UserError& e) {
    return e.message();
  }
}

}  // namespace cuhost::plugin
