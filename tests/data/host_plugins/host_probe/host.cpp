// Calls each function of the plugin ABI context and records what it returned
// in host_probe_table (see the test for the expected values); teardown says
// which setup it undoes on stderr.
#include <cuhost/plugin_abi.h>

#include <cstdio>

namespace {
int g_setups = 0;
}

CUHOST_PLUGIN_EXPORT int cuhost_plugin_setup(cuhost_plugin_context* c) {
  long long r[12] = {};
  r[0] = c->abi_version;
  r[1] = c->struct_size == sizeof(cuhost_plugin_context);
  r[2] = c->backend;
  uint64_t address = 0;
  size_t bytes = 0;
  r[3] = c->get_global(c->module, "no_such_global", &address, &bytes);
  r[4] = c->get_global(c->module, "host_probe_table", &address, &bytes);
  r[5] = static_cast<long long>(bytes);
  r[6] = c->write_global(c->module, "host_probe_table", 90, r, 8);  // 90 + 8 > 96 bytes
  r[7] = c->write_global(c->module, "host_probe_table", 0, nullptr, 8);
  int seven = 7;
  r[8] = c->write_global(c->module, "host_probe_const", 0, &seven, sizeof seven);
  r[10] = ++g_setups;
  r[11] = c->kernel_name[0];
  if (int s = c->write_global(c->module, "host_probe_table", 0, r, sizeof r)) return s;
  long long back[2] = {};
  if (int s = c->read_global(c->module, "host_probe_table", 80, back, sizeof back)) return s;
  r[9] = back[0] * 1000 + back[1];  // r[10] * 1000 + r[11]
  c->user_data = reinterpret_cast<void*>(static_cast<long>(g_setups));
  return c->write_global(c->module, "host_probe_table", 72, &r[9], 8);
}

CUHOST_PLUGIN_EXPORT int cuhost_plugin_teardown(cuhost_plugin_context* c) {
  std::fprintf(stderr, "host_probe: teardown of setup %ld (kernel '%s')\n", reinterpret_cast<long>(c->user_data),
               c->kernel_name);
  return 0;
}
