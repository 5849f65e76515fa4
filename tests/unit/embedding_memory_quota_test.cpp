// The device-memory quota through the embedding API: a host sets a quota per
// script (Runtime::set_memory_quota) before running it; what the host
// allocates itself (Runtime::allocate) and lends to scripts
// (register_buffer) is not counted; a script's allocation past the quota is
// a CudaAPIError naming it, which the script can catch; memory the script
// frees returns to the count.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <cuhost/runtime.h>

using namespace cuhost;

TEST_CASE("a host gives each script its memory quota, and its own buffers do not count", "[embedding]") {
  RuntimeOptions options;
  options.backend = Backend::Cpu;
  Runtime& rt = Runtime::initialize(options);
  constexpr std::size_t MiB = std::size_t(1) << 20;

  rt.set_memory_quota(MiB);
  std::shared_ptr<Buffer> host = rt.allocate(4 * MiB);  // the host's: beyond the quota, and not counted
  CHECK(rt.memory_quota_in_use() == 0);
  std::vector<float> values(MiB / 4);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000) * 0.5f;
  rt.copy_to_device(host->address(), values.data(), MiB);
  rt.register_buffer(HostBuffer{"lent", host->address(), {static_cast<std::int64_t>(values.size())}, "float32"});

  int rc = rt.run_string(R"(
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.driver import CudaAPIError

lent = cuda.host_array("lent")
part = cuda.device_array(lent.size // 2, dtype=np.float32)  # half the quota

@cuda.jit
def halve(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] / 2

halve[(part.size + 255) // 256, 256](part, lent)
host = lent.copy_to_host()
assert (part.copy_to_host() == host[:part.size] / 2).all()
try:
    cuda.device_array(lent.size // 2 + 1, dtype=np.float32)
    raise SystemExit("allocation past the quota succeeded")
except CudaAPIError as e:
    assert str(e) == ("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY allocating 524292 bytes: past the device-memory "
                      "quota of 1 MiB (--memory-quota), with 524288 bytes in use"), str(e)
del part
cuda.current_context().deallocations.clear()
)",
                         "quota_script_1.py");
  REQUIRE(rc == 0);
  CHECK(rt.memory_quota_in_use() == 0);

  // The next script gets a larger quota.
  rt.set_memory_quota(3 * MiB);
  rc = rt.run_string(R"(
import numpy as np
from numba import cuda
kept = cuda.device_array(2 * 1024 * 1024, dtype=np.uint8)
)",
                     "quota_script_2.py");
  REQUIRE(rc == 0);
  CHECK(rt.memory_quota_in_use() == 2 * MiB);  // still held by the script's global
  rt.set_memory_quota(0);
}
