// CPU-backend setup of plugin host libraries (see plugin_modules.h).
#include "runtime/plugin_modules.h"

#include <cstdlib>
#include <mutex>

#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {

// Every CPU module's host library state, torn down at exit, last first.
struct CpuModules {
  std::mutex mutex;
  std::vector<std::unique_ptr<plugin::ModuleHostState>> states;
};

CpuModules& cpu_modules() {
  static auto* m = new CpuModules();  // never destroyed: the exit handler empties it
  return *m;
}

void tear_down_all() {
  CpuModules& m = cpu_modules();
  std::vector<std::unique_ptr<plugin::ModuleHostState>> doomed;
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    doomed.swap(m.states);
  }
  while (!doomed.empty()) doomed.pop_back();
}

}  // namespace

CpuPluginSetup::CpuPluginSetup(const std::vector<ir::LinkItem>& link,
                               const std::vector<std::shared_ptr<const ir::ForeignFunction>>& foreign,
                               const llvm::Module& m, bool want_globals)
    : want_globals_(want_globals) {
  std::vector<ir::LinkItem> items = link;
  for (const auto& ff : foreign)
    if (ff) items.insert(items.end(), ff->cpu_link.begin(), ff->cpu_link.end());
  plugins_ = plugin::host_plugins_of(items);
  if (!plugins_.empty() || want_globals_) globals_ = cpu::exported_globals(m);
}

void CpuPluginSetup::add_lookups(std::vector<std::string>& symbols) {
  first_ = symbols.size();
  if (plugins_.empty() && !want_globals_) return;
  for (const cpu::GlobalSymbol& g : globals_) symbols.push_back(g.name);
}

void CpuPluginSetup::run(const std::vector<void*>& addresses, const std::string& kernel_name) {
  if (plugins_.empty() && !want_globals_) return;
  CUHOST_CHECK(addresses.size() == first_ + globals_.size()) << "global addresses missing from the JIT lookup";
  for (std::size_t i = 0; i < globals_.size(); ++i) globals_[i].address = addresses[first_ + i];
  if (plugins_.empty()) return;
  // One setup at a time, as on the GPU (where the module cache's lock holds):
  // host libraries need not be thread-safe.
  CpuModules& m = cpu_modules();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto state = plugin::set_up_module(plugins_, cpu::make_module_globals(globals_), kernel_name);
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(tear_down_all); });
  m.states.push_back(std::move(state));
}

}  // namespace cuhost::runtime
