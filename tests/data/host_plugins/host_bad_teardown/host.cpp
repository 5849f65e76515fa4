// A host library with the default setup but not the teardown the manifest names.
#include <cuhost/plugin_abi.h>
CUHOST_PLUGIN_EXPORT int cuhost_plugin_setup(cuhost_plugin_context*) { return 0; }
