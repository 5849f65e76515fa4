// CPU-backend module callbacks (see cpu_module_callbacks.h).
#include "runtime/cpu_module_callbacks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#include "cpu/driver_model.h"
#include "runtime/compiler.h"
#include "support/blocking_wait.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {

struct LoadedModule {
  std::uintptr_t handle = 0;  // the address of `token`
  std::unique_ptr<char> token;
  std::vector<std::shared_ptr<void>> teardowns;
  std::uint64_t order = 0;  // load order, for last-loaded-first teardown
};

struct State {
  std::recursive_mutex mutex;  // a callback may launch kernels (loading more modules)
  std::map<const CompiledKernel*, LoadedModule> loaded;
  std::uint64_t next_order = 0;
  CpuModuleCallbackRunner runner = nullptr;
};

State& state() {
  static State* s = new State();  // never destroyed: teardowns run from an exit handler
  return *s;
}

void run_or_throw(const std::shared_ptr<void>& callback, std::uintptr_t handle, const std::string& what) {
  State& s = state();
  if (!s.runner) return;
  std::string error;
  if (!s.runner(callback, handle, &error)) throw UserError(ErrorKind::RuntimeError, what + error);
}

}  // namespace

void set_cpu_module_callback_runner(CpuModuleCallbackRunner runner) { state().runner = runner; }

void ensure_cpu_module_loaded(const CompiledKernel& kernel) {
  if (!kernel.has_module_callbacks) return;
  State& s = state();
  auto lock = support::lock_blocking(s.mutex);  // the loader may be waiting for the GIL in a callback
  if (s.loaded.count(&kernel)) return;
  LoadedModule module;
  module.token.reset(new char(0));
  module.handle = reinterpret_cast<std::uintptr_t>(module.token.get());
  module.order = s.next_order++;
  std::vector<cpu::ModuleGlobal> globals;
  for (const model::GlobalSymbol& g : kernel.cpu_globals)
    if (g.address) globals.push_back(cpu::ModuleGlobal{g.name, reinterpret_cast<std::uintptr_t>(g.address), g.bytes});
  cpu::register_module_globals(module.handle, std::move(globals));
  for (const ir::LinkItem& item : kernel.link)
    if (item.teardown_callback) module.teardowns.push_back(item.teardown_callback);
  static std::once_flag once;
  std::call_once(once, [] { std::atexit([] { unload_cpu_modules(); }); });
  try {
    for (const ir::LinkItem& item : kernel.link)
      if (item.setup_callback)
        run_or_throw(item.setup_callback, module.handle,
                     concat("setup callback of '", item.name, "' failed for kernel '", kernel.name, "': "));
  } catch (...) {
    cpu::unregister_module_globals(module.handle);
    throw;
  }
  s.loaded.emplace(&kernel, std::move(module));
}

void unload_cpu_modules() {
  State& s = state();
  std::vector<LoadedModule> doomed;
  {
    auto lock = support::lock_blocking(s.mutex);
    for (auto& entry : s.loaded) doomed.push_back(std::move(entry.second));
    s.loaded.clear();
  }
  std::sort(doomed.begin(), doomed.end(),
            [](const LoadedModule& a, const LoadedModule& b) { return a.order > b.order; });
  for (LoadedModule& module : doomed) {
    for (const auto& teardown : module.teardowns) {
      std::string error;
      if (s.runner && !s.runner(teardown, module.handle, &error))
        std::fprintf(stderr, "cuhost: a teardown callback failed: %s\n", error.c_str());
    }
    cpu::unregister_module_globals(module.handle);
  }
}

}  // namespace cuhost::runtime
