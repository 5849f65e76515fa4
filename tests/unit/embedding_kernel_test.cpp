// The C++ launch API of the embedding runtime (cuhost/kernel.h): a script
// defines kernels, the application compiles them for explicit signatures and
// launches them with C++ values on buffers it allocated through the runtime.
// Backend Auto: the CPU here, the GPU on the GPU machine.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuhost/runtime.h>

using namespace cuhost;

namespace {

Runtime& runtime_with_kernels() {
  RuntimeOptions options;
  options.backend = Backend::Auto;
  Runtime& rt = Runtime::initialize(options);
  int rc = rt.run_string(R"(
from numba import cuda

@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]

@cuda.jit
def transpose_add(src, dst, bias):
    i, j = cuda.grid(2)
    if i < dst.shape[0] and j < dst.shape[1]:
        dst[i, j] = src[i, j] + bias

@cuda.jit(device=True)
def helper(x):
    return x

not_a_kernel = 42
)",
                         "embedding_kernels.py");
  REQUIRE(rc == 0);
  return rt;
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  std::vector<float> v(n);
  for (float& f : v) f = dist(gen);
  return v;
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a script's kernel launches from C++ and matches a host reference", "[embedding][kernel_api]") {
  Runtime& rt = runtime_with_kernels();
  auto k = rt.kernel("saxpy", "void(float32, float32[::1], float32[::1], float32[::1])");
  REQUIRE(k->name() == "saxpy");
  REQUIRE(k->arity() == 4);
  const std::size_t n = 1000;
  auto x = random_floats(n, 1), y = random_floats(n, 2);
  auto dx = rt.allocate(n * 4), dy = rt.allocate(n * 4), dout = rt.allocate(n * 4);
  rt.copy_to_device(dx->address(), x.data(), n * 4);
  rt.copy_to_device(dy->address(), y.data(), n * 4);
  const std::int64_t len = static_cast<std::int64_t>(n);
  for (float a : {2.5f, -0.75f}) {
    k->launch(Dim3((n + 127) / 128), Dim3(128),
              {a, KernelArg::array(dx->address(), {len}), KernelArg::array(dy->address(), {len}),
               KernelArg::array(dout->address(), {len})});
    rt.synchronize();
    std::vector<float> out(n);
    rt.copy_to_host(out.data(), dout->address(), n * 4);
    // a * x + y, rounded once (a GPU contracts it into an fma, as CUDA C
    // does) or twice (the CPU backend).
    for (std::size_t i = 0; i < n; ++i) {
      float product = a * x[i];
      float unfused = product + y[i];
      REQUIRE((out[i] == unfused || out[i] == std::fma(a, x[i], y[i])));
    }
  }
}

TEST_CASE("C++ launches pass strided arrays and convert scalars to the parameter type", "[embedding][kernel_api]") {
  Runtime& rt = runtime_with_kernels();
  auto k = rt.kernel("transpose_add", "void(float64[:, :], float64[:, ::1], float64)");
  const std::int64_t rows = 37, cols = 53;
  std::vector<double> src(static_cast<std::size_t>(rows * cols));
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (double& v : src) v = dist(gen);
  auto dsrc = rt.allocate(src.size() * 8), ddst = rt.allocate(src.size() * 8);
  rt.copy_to_device(dsrc->address(), src.data(), src.size() * 8);
  // src is stored cols x rows; read it transposed through strides.
  const std::int64_t shape[2] = {rows, cols}, strides[2] = {8, rows * 8};
  k->launch(Dim3(3, 4), Dim3(16, 16),
            {KernelArg::array(dsrc->address(), 2, shape, strides), KernelArg::array(ddst->address(), {rows, cols}),
             std::int32_t(3)});
  rt.synchronize();
  std::vector<double> dst(src.size());
  rt.copy_to_host(dst.data(), ddst->address(), dst.size() * 8);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      REQUIRE(dst[static_cast<std::size_t>(i * cols + j)] == src[static_cast<std::size_t>(j * rows + i)] + 3.0);
}

TEST_CASE("C++ kernel lookups and launches report bad input precisely", "[embedding][kernel_api]") {
  Runtime& rt = runtime_with_kernels();
  const char* sig = "void(float32, float32[::1], float32[::1], float32[::1])";
  REQUIRE(error_of([&] { rt.kernel("missing", sig); }) ==
          "no kernel named 'missing' in the script's global namespace (__main__)");
  REQUIRE(error_of([&] { rt.kernel("not_a_kernel", sig); }) ==
          "'not_a_kernel' is not a @cuda.jit kernel (its type is int)");
  REQUIRE(error_of([&] { rt.kernel("helper", "int64(int64)"); }) ==
          "kernel 'helper' must return void, but the signature 'int64(int64)' returns int64");
  REQUIRE(error_of([&] { rt.kernel("helper", "void(int64)"); }) ==
          "'helper' is a device function; only kernels can be launched");
  REQUIRE(error_of([&] { rt.kernel("nosuchmodule:k", sig); }).rfind("cannot import 'nosuchmodule': ", 0) == 0);
  REQUIRE_THROWS(rt.kernel("saxpy", "void(float32, float32[::1]"));

  auto k = rt.kernel("saxpy", sig);
  auto buf = rt.allocate(64 * 4);
  auto arr = KernelArg::array(buf->address(), {64});
  REQUIRE(error_of([&] {
            k->launch(Dim3(1), Dim3(64), {1.0f, arr, arr});
          }) == "kernel 'saxpy' takes 4 arguments, got 3");
  REQUIRE(error_of([&] {
            k->launch(Dim3(1), Dim3(64), {1.0f, 2.0f, arr, arr});
          }) == "argument 1 of kernel 'saxpy' (array(float32, 1d, C)): got a float");
  REQUIRE(error_of([&] {
            k->launch(Dim3(1), Dim3(64), {arr, arr, arr, arr});
          }) == "argument 0 of kernel 'saxpy' (float32): got an array");
  REQUIRE(error_of([&] {
            k->launch(Dim3(1), Dim3(64), {1.0f, KernelArg::array(buf->address(), {8, 8}), arr, arr});
          }) == "argument 1 of kernel 'saxpy' (array(float32, 1d, C)): got an array of 2 dimensions");
  const std::int64_t shape[1] = {32}, strides[1] = {8};
  REQUIRE(error_of([&] {
            k->launch(Dim3(1), Dim3(64), {1.0f, KernelArg::array(buf->address(), 1, shape, strides), arr, arr});
          }) == "argument 1 of kernel 'saxpy' (array(float32, 1d, C)): the array is not C-contiguous");
}
