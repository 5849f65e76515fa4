// The embedding API end to end, as an application uses it: configure a
// Runtime, lend a buffer, register an in-memory plugin and a plugin folder,
// run a kernel script that uses them, and read the results in C++.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <vector>

#include <cuhost/runtime.h>

#include "ffi/clang_compile.h"

using namespace cuhost;

static const char* kManifest = R"TOML(
[plugin]
name = "embedded_math"
version = "1.0"
format = 1
description = "given by the host application"

[build]
link = ["ops.cu"]

[[functions]]
name = "scale_add"
symbol = "embedded_scale_add"
signature = "float32(float32, float32, float32)"
abi = "c"
doc = "a * x + y"
)TOML";

TEST_CASE("an application registers an in-memory plugin and lends a buffer to a kernel script", "[embedding]") {
  RuntimeOptions options;
  options.backend = Backend::Cpu;
  Runtime& rt = Runtime::initialize(options);
  rt.register_plugin(kManifest,
                     {{"ops.cu",
                       "extern \"C\" __device__ float embedded_scale_add(float a, float x, float y) "
                       "{ return a * x + y; }\n"}},
                     "embedding_api_test");
  rt.add_plugin_path(CUHOST_TEST_DATA_DIR "/plugins/tinylib");

  std::vector<float> data(256);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.25f;
  rt.register_buffer(HostBuffer{"signal", reinterpret_cast<std::uintptr_t>(data.data()), {256}, "float32"});

  int rc = rt.run_string(R"(
from numba import cuda
from cuhost.plugins import embedded_math, tinylib

@cuda.jit
def kernel(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = embedded_math.scale_add(2.0, x[i], float(tinylib.add(i, 1)))

kernel[2, 128](cuda.host_array("signal"))
)",
                         "embedding_api_test.py");
  if (access(ffi::clang_path().c_str(), X_OK) != 0) {
    // A bundle without the host compiler cannot run foreign C++ on the CPU:
    // the script fails with the explanation (checked in ffi_host_compile_test).
    REQUIRE(rc == 1);
  } else {
    REQUIRE(rc == 0);
    for (std::size_t i = 0; i < data.size(); ++i) REQUIRE(data[i] == 2.0f * (static_cast<float>(i) * 0.25f) + (i + 1));
  }

  // A bad in-memory manifest is refused at registration with the field named.
  try {
    rt.register_plugin("[plugin]\nname = \"x\"\nversion = \"1\"\nformat = 1\n", {}, "broken_embedded");
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("broken_embedded): field 'functions': missing") != std::string::npos);
  }
}
