// The embedding path of lent memory and streams: a host application
// registers a buffer and a stream through the public Runtime API and a
// script sees them as cuda.host_array / cuda.host_stream, zero-copy (CPU
// backend: the buffer is host memory).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <cuhost/runtime.h>

using namespace cuhost;

TEST_CASE("scripts see host-registered buffers and streams without copies", "[memory]") {
  RuntimeOptions options;
  options.backend = Backend::Cpu;
  Runtime& rt = Runtime::initialize(options);
  REQUIRE(rt.backend() == Backend::Cpu);

  std::vector<float> data(12);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f + 1.0f;
  rt.register_buffer(HostBuffer{"weights", reinterpret_cast<std::uintptr_t>(data.data()), {3, 4}, "float32"});
  rt.register_stream("compute", 0);
  rt.register_stream("default", 0);

  int rc = rt.run_string(R"(
import numpy as np
from numba import cuda
w = cuda.host_array("weights")
assert isinstance(w, cuda.DeviceNDArray) and w.shape == (3, 4) and w.dtype == np.float32
assert np.array_equal(w.copy_to_host(), np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 + 1)
w[1] = -1.0
w[2, ::2] = 7.0
assert cuda.host_array_names() == ["weights"]
assert cuda.host_stream_names() == ["compute", "default"]
assert cuda.host_stream("default").name == "default"
try:
    cuda.host_array("bias")
    raise SystemExit(3)
except KeyError as err:
    assert err.args[0] == "no host array named 'bias'; the host registered 'weights'", err.args[0]
)",
                         "memory_host_array_test.py");
  REQUIRE(rc == 0);
  for (int j = 0; j < 4; ++j) REQUIRE(data[4 + j] == -1.0f);
  REQUIRE(data[8] == 7.0f);
  REQUIRE(data[9] == 9 * 0.5f + 1.0f);
  REQUIRE(data[10] == 7.0f);
  REQUIRE(data[0] == 1.0f);

  // A failing assertion in the script is reported as exit code 1.
  REQUIRE(rt.run_string("from numba import cuda\nassert cuda.host_array('weights').shape == (4, 3)\n",
                        "memory_host_array_fail.py") == 1);
}
