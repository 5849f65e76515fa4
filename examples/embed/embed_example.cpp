// An application embedding cuhost: it owns a stream and three buffers, lends
// them to a Python script that defines and checks a kernel, then launches
// that kernel itself from C++ on its own stream and checks the result.
// Usage: cuhost_embed_example [auto|cpu|cuda]. Exit code 0 when every value
// matches the C++ reference.
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include <cuhost/runtime.h>

namespace {

// On the CUDA backend the application makes its own stream with the driver
// API, loaded at run time like cuhost does, so this program also starts on
// machines without a driver. On the CPU backend streams are host streams (0).
std::uintptr_t make_stream(const cuhost::Runtime& rt) {
  if (rt.backend() != cuhost::Backend::Cuda) return 0;
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) throw std::runtime_error("libcuda.so.1 not found");
  using DeviceGet = int (*)(int*, int);
  using Retain = int (*)(void**, int);
  using SetCurrent = int (*)(void*);
  using StreamCreate = int (*)(void**, unsigned);
  auto device_get = reinterpret_cast<DeviceGet>(dlsym(lib, "cuDeviceGet"));
  auto retain = reinterpret_cast<Retain>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
  auto set_current = reinterpret_cast<SetCurrent>(dlsym(lib, "cuCtxSetCurrent"));
  auto stream_create = reinterpret_cast<StreamCreate>(dlsym(lib, "cuStreamCreate_v2") ? dlsym(lib, "cuStreamCreate_v2")
                                                                                      : dlsym(lib, "cuStreamCreate"));
  int device = 0;
  void* context = nullptr;
  void* stream = nullptr;
  if (!device_get || !retain || !set_current || !stream_create || device_get(&device, 0) != 0 ||
      retain(&context, device) != 0 || set_current(context) != 0 || stream_create(&stream, 1 /* non-blocking */) != 0)
    throw std::runtime_error("cannot create a CUDA stream");
  return reinterpret_cast<std::uintptr_t>(stream);
}

const char* kScript = R"PY(
import numpy as np
from numba import cuda

@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

# The application's buffers and stream, zero-copy.
x, y, out = cuda.host_array("x"), cuda.host_array("y"), cuda.host_array("out")
stream = cuda.host_stream("work")
saxpy[(out.size + 127) // 128, 128, stream](np.float32(2.0), x, y, out)
stream.synchronize()
expected = np.float32(2.0) * x.copy_to_host() + y.copy_to_host()
assert np.allclose(out.copy_to_host(), expected, rtol=1e-6), "script: wrong saxpy result"
print("script: saxpy on", out.size, "elements checked against NumPy")
)PY";

bool check(const std::vector<float>& out, const std::vector<float>& x, const std::vector<float>& y, float a,
           const char* who) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    float want = a * x[i] + y[i];
    if (std::fabs(out[i] - want) > 1e-5f * std::fabs(want) + 1e-6f) {
      std::fprintf(stderr, "%s: out[%zu] = %g, expected %g\n", who, i, out[i], want);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  cuhost::RuntimeOptions options;
  const char* backend = argc > 1 ? argv[1] : "auto";
  if (std::strcmp(backend, "cpu") == 0) options.backend = cuhost::Backend::Cpu;
  if (std::strcmp(backend, "cuda") == 0) options.backend = cuhost::Backend::Cuda;
  try {
    cuhost::Runtime& rt = cuhost::Runtime::initialize(options);
    std::printf("cuhost %s, backend %s\n", cuhost::version(), cuhost::backend_name(rt.backend()));

    const std::int64_t n = 3000;  // not a multiple of the block size
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
    std::mt19937 rng(20);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    std::vector<float> hx(n), hy(n), hout(n);
    for (std::int64_t i = 0; i < n; ++i) hx[i] = dist(rng), hy[i] = dist(rng);

    // Memory the application owns (device memory on CUDA, host memory on the CPU) and its stream.
    auto x = rt.allocate(bytes), y = rt.allocate(bytes), out = rt.allocate(bytes);
    rt.copy_to_device(x->address(), hx.data(), bytes);
    rt.copy_to_device(y->address(), hy.data(), bytes);
    std::uintptr_t stream = make_stream(rt);
    rt.register_stream("work", stream);
    rt.register_buffer({"x", x->address(), {n}, "float32"});
    rt.register_buffer({"y", y->address(), {n}, "float32"});
    rt.register_buffer({"out", out->address(), {n}, "float32"});

    // 1. The script defines the kernel and runs it on the lent buffers and stream.
    if (int rc = rt.run_string(kScript, "embedded_saxpy.py"); rc != 0) return rc;
    rt.copy_to_host(hout.data(), out->address(), bytes);
    if (!check(hout, hx, hy, 2.0f, "script")) return 1;

    // 2. The application launches the same kernel from C++, no Python on the launch path.
    auto saxpy = rt.kernel("saxpy", "void(float32, float32[::1], float32[::1], float32[::1])");
    saxpy->launch(cuhost::Dim3(static_cast<unsigned>((n + 255) / 256)), cuhost::Dim3(256),
                  {-3.5f, cuhost::KernelArg::array(x->address(), {n}), cuhost::KernelArg::array(y->address(), {n}),
                   cuhost::KernelArg::array(out->address(), {n})},
                  stream);
    rt.synchronize();
    rt.copy_to_host(hout.data(), out->address(), bytes);
    if (!check(hout, hx, hy, -3.5f, "C++ launch")) return 1;
    std::printf("C++ launch: saxpy on %lld elements checked against the C++ reference\n", static_cast<long long>(n));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuhost_embed_example: %s\n", e.what());
    return 1;
  }
}
