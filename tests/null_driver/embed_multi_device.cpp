// The embedding API over several devices, run on the null driver with two
// devices (CUHOST_NULL_DEVICES=2) and the null NCCL: a host application
// chooses a device per thread (Runtime::set_device), launches a script's
// kernel from C++ on each device and from one thread per device, lends a
// stream and a buffer per device, lends communicators, and gets clear errors
// for invalid devices. A launch in the wrong context would fail with
// CUDA_ERROR_INVALID_HANDLE there, as on a real driver. Exits 0 and prints
// "embedding over two devices ok" when every check passed.
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cuhost/runtime.h>

namespace {

int g_failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++g_failures;
  }
}

template <class Fn>
void expect_error(Fn&& fn, const std::string& fragment) {
  try {
    fn();
    check(false, "no error containing: " + fragment);
  } catch (const std::exception& e) {
    check(std::string(e.what()).find(fragment) != std::string::npos,
          "error '" + std::string(e.what()) + "' lacks: " + fragment);
  }
}

// A stream of `device` made through the (null) driver, as a host application
// would make it with its own CUDA code.
std::uintptr_t host_stream_on(int device) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto get = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  void *retain = nullptr, *set = nullptr, *create = nullptr;
  get("cuDevicePrimaryCtxRetain", &retain, CUDA_VERSION, 0, nullptr);
  get("cuCtxSetCurrent", &set, CUDA_VERSION, 0, nullptr);
  get("cuStreamCreate", &create, CUDA_VERSION, 0, nullptr);
  CUcontext ctx = nullptr;
  reinterpret_cast<CUresult (*)(CUcontext*, CUdevice)>(retain)(&ctx, device);
  reinterpret_cast<CUresult (*)(CUcontext)>(set)(ctx);
  CUstream s = nullptr;
  reinterpret_cast<CUresult (*)(CUstream*, unsigned)>(create)(&s, CU_STREAM_NON_BLOCKING);
  return reinterpret_cast<std::uintptr_t>(s);
}

}  // namespace

int main() {
  using namespace cuhost;
  RuntimeOptions options;
  options.backend = Backend::Cuda;
  Runtime& rt = Runtime::initialize(options);
  check(rt.device_count() == 2, "two devices");
  check(rt.device() == 0, "device 0 by default");

  int rc = rt.run_string(R"(
from numba import cuda

@cuda.jit
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= a
)",
                         "embed_multi_device.py");
  check(rc == 0, "the kernel script runs");
  std::shared_ptr<Kernel> k = rt.kernel("scale", "void(float32[::1], float32)");

  // One launch per device from this thread, then one thread per device.
  for (int d : {0, 1, 0}) {
    rt.set_device(d);
    check(rt.device() == d, "set_device");
    std::shared_ptr<Buffer> b = rt.allocate(64 * sizeof(float));
    std::vector<float> host(64, 1.0f);
    rt.copy_to_device(b->address(), host.data(), host.size() * sizeof(float));
    k->launch(Dim3(1), Dim3(64), {KernelArg::array(b->address(), {64}), 2.0f});
    rt.synchronize();
  }
  // Kernel objects are made on this thread (it holds the interpreter);
  // launching needs no Python.
  std::vector<std::shared_ptr<Kernel>> kernels;
  for (int t = 0; t < 4; ++t) kernels.push_back(rt.kernel("scale", "void(float32[::1], float32)"));
  std::vector<std::thread> threads;
  std::vector<std::string> errors(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&rt, &errors, &kernels, t] {
      try {
        rt.set_device(t % 2);
        std::shared_ptr<Buffer> b = rt.allocate(32 * sizeof(float));
        std::shared_ptr<Kernel> own = kernels[static_cast<std::size_t>(t)];
        for (int i = 0; i < 3; ++i) own->launch(Dim3(1), Dim3(32), {KernelArg::array(b->address(), {32}), 1.5f});
        rt.synchronize();
      } catch (const std::exception& e) {
        errors[static_cast<std::size_t>(t)] = e.what();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& e : errors) check(e.empty(), "thread launch: " + e);
  rt.set_device(0);

  // A stream and a buffer lent per device; launches on device 1's stream
  // from a thread on device 1.
  std::uintptr_t s1 = host_stream_on(1);
  rt.register_stream("work1", s1);  // its device comes from the driver
  rt.set_device(1);
  std::shared_ptr<Buffer> on1 = rt.allocate(16 * sizeof(float));
  rt.set_device(0);
  rt.register_buffer(HostBuffer{"field1", on1->address(), {16}, "float32"});  // its device comes from the driver
  rc = rt.run_string(R"(
from numba import cuda
s = cuda.host_stream("work1")
f = cuda.host_array("field1")
try:
    scale[1, 16, s](f, 2.0)
    raise AssertionError("a stream of device 1 was used on device 0")
except ValueError as e:
    assert "its stream belongs to device 1" in str(e), e
with cuda.gpus[1]:
    scale[1, 16, s](f, 2.0)      # both on device 1
    scale[1, 16](f, 2.0)         # device 1's default stream
    s.synchronize()
scale[1, 16](f, 2.0)             # device 0 reads device 1's buffer through peer access
)",
                     "embed_multi_device_lent.py");
  check(rc == 0, "lent stream and buffer on device 1");
  rt.set_device(1);
  k->launch(Dim3(1), Dim3(16), {KernelArg::array(on1->address(), {16}), 1.0f}, s1);
  rt.set_device(0);

  // Communicators over both devices (the null NCCL), lent to scripts.
  CommunicatorOptions comm_options;
  comm_options.scope = CommunicatorOptions::Scope::Process;
  rt.create_communicators(comm_options);
  rc = rt.run_string(R"(
import numpy as np
from numba import cuda
from cuhost import nccl
comms = nccl.communicators()
assert [c.device for c in comms] == [0, 1], comms
xs = []
for c in comms:
    with cuda.gpus[c.device]:
        xs.append(cuda.to_device(np.full(8, c.rank + 1.0)))
with nccl.group():
    for c, x in zip(comms, xs):
        c.all_reduce(x)
for x in xs:
    assert (x.copy_to_host() == 3.0).all()
)",
                     "embed_multi_device_nccl.py");
  check(rc == 0, "communicators lent by the host");

  expect_error([&] { rt.set_device(2); }, "no device 2 (2 device(s) on the cuda backend)");
  expect_error([&] { rt.register_stream("bad", s1, 5); }, "no device 5");
  CommunicatorOptions bad;
  bad.scope = CommunicatorOptions::Scope::Process;
  bad.devices = {0, 0};
  expect_error([&] { rt.create_communicators(bad); }, "device 0 is listed twice for communicators");

  if (g_failures) return 1;
  std::printf("embedding over two devices ok\n");
  return 0;
}
