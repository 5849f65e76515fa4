// A host library without the setup entry point the manifest expects.
#include <cuhost/plugin_abi.h>
CUHOST_PLUGIN_EXPORT int unrelated_function(cuhost_plugin_context*) { return 0; }
