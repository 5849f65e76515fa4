// Plugin host libraries (the C ABI is cuhost/plugin_abi.h). A plugin's host
// library is loaded with dlopen the first time a module that links one of the
// plugin's device functions is loaded, and never unloaded; its setup entry
// point runs once for every such module (a GPU module per kernel
// specialization and device, or a CPU JIT module), and its teardown when the
// module unloads. The backend reaches the module's globals through
// ModuleGlobals, so a library fills a __device__ table the same way on the
// GPU and on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/foreign.h"
#include "model/module_globals.h"
#include "plugin/manifest.h"

namespace cuhost::plugin {

using model::ModuleGlobals;

// The host libraries set up for one module. Destroying it runs their
// teardowns, last set up first.
class ModuleHostState {
 public:
  virtual ~ModuleHostState() = default;
};

// The plugin folders whose host library must set up a module linking
// `items` (items a plugin with a host library brought along), each once, in
// first-use order.
std::vector<std::string> host_plugins_of(const std::vector<ir::LinkItem>& items);

// Loads each plugin's host library (once per process) and runs its setup for
// one module. Throws UserError(PluginError) naming the plugin, the library
// and the entry point when a library cannot be loaded, lacks an entry point
// or its setup fails; the setups already done are torn down first.
std::unique_ptr<ModuleHostState> set_up_module(const std::vector<std::string>& plugin_dirs,
                                               std::shared_ptr<ModuleGlobals> globals, const std::string& kernel_name);

// "" when the host library of `m` loads and defines its entry points (or
// there is none), else why not (for `cuhost plugins`). Loads the library.
// `has_teardown` tells whether it defines a teardown entry point.
std::string check_host_library(const Manifest& m, bool* has_teardown = nullptr);

}  // namespace cuhost::plugin
