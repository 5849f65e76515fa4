// A host library whose setup fails with a message.
#include <cuhost/plugin_abi.h>
CUHOST_PLUGIN_EXPORT int cuhost_plugin_setup(cuhost_plugin_context* c) {
  c->set_error(c->module, "calibration file 'gains.bin' is missing");
  return 7;
}
