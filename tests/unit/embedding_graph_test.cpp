// Graphs from the C++ embedding API (cuhost/graph.h): launches of a script's
// kernels made from C++ on a captured stream become a graph that runs when
// launched, as many times as launched; captured launches take new arguments;
// what a graph cannot hold is refused. Backend Auto: the CPU here, the GPU on
// the GPU machine.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuhost/graph.h>
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
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]

@cuda.jit
def double_it(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = 2.0 * x[i]
)",
                         "embedding_graph_kernels.py");
  REQUIRE(rc == 0);
  return rt;
}

std::vector<double> random_doubles(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-10.0, 10.0);
  std::vector<double> v(n);
  for (double& d : v) d = dist(gen);
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

std::vector<double> read(Runtime& rt, const Buffer& b, std::size_t n) {
  std::vector<double> v(n);
  rt.copy_to_host(v.data(), b.address(), n * 8);
  return v;
}

}  // namespace

TEST_CASE("C++ launches captured into a graph run on each graph launch", "[embedding][graph]") {
  Runtime& rt = runtime_with_kernels();
  auto axpy = rt.kernel("axpy", "void(float64, float64[::1], float64[::1])");
  auto twice = rt.kernel("double_it", "void(float64[::1])");
  const std::size_t n = 777;
  const auto len = static_cast<std::int64_t>(n);
  auto x = random_doubles(n, 1), y = random_doubles(n, 2);
  auto dx = rt.allocate(n * 8), dy = rt.allocate(n * 8);
  rt.copy_to_device(dx->address(), x.data(), n * 8);
  rt.copy_to_device(dy->address(), y.data(), n * 8);
  const Dim3 grid((n + 127) / 128), block(128);
  auto ax = KernelArg::array(dx->address(), {len}), ay = KernelArg::array(dy->address(), {len});

  GraphCapture capture;  // the default launch stream
  axpy->launch(grid, block, {1.5, ax, ay});
  twice->launch(grid, block, {ay});
  std::shared_ptr<Graph> graph = capture.end();
  REQUIRE(graph->kernel_count() == 2);
  REQUIRE(graph->kernel_name(0) == "axpy");
  REQUIRE(graph->kernel_name(1) == "double_it");
  REQUIRE(read(rt, *dy, n) == y);  // nothing ran during the capture

  std::vector<double> ref = y;
  for (int step = 0; step < 3; ++step) {
    graph->launch();
    rt.synchronize();
    for (std::size_t i = 0; i < n; ++i) ref[i] = 2.0 * (1.5 * x[i] + ref[i]);
    std::vector<double> got = read(rt, *dy, n);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == Approx(ref[i]).epsilon(1e-12));
  }

  // New arguments for the first captured launch: another scale and source.
  auto z = random_doubles(n, 3);
  auto dz = rt.allocate(n * 8);
  rt.copy_to_device(dz->address(), z.data(), n * 8);
  graph->set_kernel_args(0, {-0.5, KernelArg::array(dz->address(), {len}), ay});
  graph->launch();
  rt.synchronize();
  for (std::size_t i = 0; i < n; ++i) ref[i] = 2.0 * (-0.5 * z[i] + ref[i]);
  std::vector<double> got = read(rt, *dy, n);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == Approx(ref[i]).epsilon(1e-12));

  REQUIRE(error_of([&] { graph->set_kernel_args(0, {1.0, ax}); }) == "kernel 'axpy' takes 3 arguments, got 2");
  REQUIRE(error_of([&] { graph->set_kernel_args(1, {1.0}); }) ==
          "argument 0 of kernel 'double_it' (array(float64, 1d, C)): got a float");
  REQUIRE(error_of([&] { graph->set_kernel_args(2, {ay}); }) ==
          "captured launch 2 out of range: the graph has 2 kernel launches");
}

TEST_CASE("graph captures from C++ refuse what a graph cannot hold", "[embedding][graph]") {
  Runtime& rt = runtime_with_kernels();
  auto twice = rt.kernel("double_it", "void(float64[::1])");
  auto buf = rt.allocate(64 * 8);
  std::vector<double> host(64, 1.0);
  rt.copy_to_device(buf->address(), host.data(), 64 * 8);
  {
    GraphCapture capture;
    REQUIRE(error_of([&] { rt.allocate(16); })
                .find("cannot allocate 16 bytes of device memory while the default "
                      "stream is being captured into a graph") != std::string::npos);
    REQUIRE(error_of([&] {
              rt.copy_to_host(host.data(), buf->address(), 64 * 8);
            }).find("cannot copy 512 bytes from the device to host memory and wait for it") != std::string::npos);
    REQUIRE(error_of([&] { GraphCapture again; }) == "the default stream is already being captured into a graph");
    twice->launch(Dim3(1), Dim3(64), {KernelArg::array(buf->address(), {64})});
    // Left without end(): the capture is dropped and the stream free again.
  }
  REQUIRE(read(rt, *buf, 64) == host);
  GraphCapture capture;
  std::shared_ptr<Graph> graph = capture.end();
  REQUIRE(graph->kernel_count() == 0);
  graph->launch();
  REQUIRE(error_of([&] { capture.end(); }) == "GraphCapture::end() was called twice");
}
