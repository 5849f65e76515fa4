// The lut plugin's host library (liblut_host.so): cuhost calls
// cuhost_lut_setup once for every module that links a lut function, and
// cuhost_lut_teardown when that module unloads. Setup computes the sine
// table in double precision and writes it, the gain (CUHOST_LUT_GAIN,
// default 1) and the ready flag into the module's globals through the
// context's write_global, which works on the GPU and on the CPU backend.
// CUHOST_LUT_TRACE=1 prints a line per setup and teardown to stderr.
#include <cuhost/plugin_abi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool tracing() {
  const char* t = std::getenv("CUHOST_LUT_TRACE");
  return t && *t && std::strcmp(t, "0") != 0;
}

const char* backend_name(int backend) { return backend == CUHOST_PLUGIN_BACKEND_CUDA ? "cuda" : "cpu"; }

// A linker may drop a global no function of the module uses: skip those.
int write_if_present(cuhost_plugin_context* c, const char* name, const void* data, size_t bytes) {
  int status = c->write_global(c->module, name, 0, data, bytes);
  return status == CUHOST_PLUGIN_NOT_FOUND ? CUHOST_PLUGIN_OK : status;
}

}  // namespace

CUHOST_PLUGIN_EXPORT int cuhost_lut_setup(cuhost_plugin_context* c) {
  if (c->abi_version != CUHOST_PLUGIN_ABI_VERSION) {
    c->set_error(c->module, "liblut_host.so was built for another cuhost plugin ABI version");
    return 1;
  }
  float table[256];
  for (int i = 0; i < 256; ++i) table[i] = static_cast<float>(std::sin(2.0 * M_PI * i / 256.0));
  float gain = 1.0f;
  if (const char* g = std::getenv("CUHOST_LUT_GAIN")) {
    char* end = nullptr;
    gain = std::strtof(g, &end);
    if (end == g || *end) {
      char message[160];
      std::snprintf(message, sizeof message, "CUHOST_LUT_GAIN='%s' is not a number", g);
      c->set_error(c->module, message);
      return 2;
    }
  }
  int ready = 1;
  int status = write_if_present(c, "cuhost_lut_table", table, sizeof table);
  if (status == CUHOST_PLUGIN_OK) status = write_if_present(c, "cuhost_lut_gain", &gain, sizeof gain);
  if (status == CUHOST_PLUGIN_OK) status = write_if_present(c, "cuhost_lut_is_ready", &ready, sizeof ready);
  if (status != CUHOST_PLUGIN_OK) return status;  // cuhost reports why the write failed
  if (tracing()) std::fprintf(stderr, "lut: set up kernel '%s' on %s\n", c->kernel_name, backend_name(c->backend));
  return 0;
}

CUHOST_PLUGIN_EXPORT int cuhost_lut_teardown(cuhost_plugin_context* c) {
  if (tracing()) {
    int ready = 0;
    c->read_global(c->module, "cuhost_lut_is_ready", 0, &ready, sizeof ready);
    std::fprintf(stderr, "lut: tear down kernel '%s' on %s (ready=%d)\n", c->kernel_name, backend_name(c->backend),
                 ready);
  }
  return 0;
}
