// A host library whose setup throws a C++ exception instead of returning a
// status: cuhost reports it as the plugin's error, never lets it escape.
#include <cuhost/plugin_abi.h>

#include <stdexcept>

CUHOST_PLUGIN_EXPORT int cuhost_plugin_setup(cuhost_plugin_context*) {
  throw std::runtime_error("device table not initialised");
}
