// A host library whose teardown throws a C++ exception while its module is
// unloaded: cuhost says so on stderr and the unload goes on.
#include <cuhost/plugin_abi.h>

#include <stdexcept>

CUHOST_PLUGIN_EXPORT int cuhost_plugin_setup(cuhost_plugin_context*) { return 0; }

CUHOST_PLUGIN_EXPORT int release_tables(cuhost_plugin_context*) { throw std::runtime_error("tables already released"); }
