// Kernel deadlines through the embedding API: a host gives each script its
// own kernel timeout (Runtime::set_kernel_timeout before run_string, cleared
// with clear_kernel_timeout), a script's per-launch deadline
// (cuhost.kernel_deadline) only tightens it, and C++ launches take a deadline
// of their own (Kernel::launch_with_deadline). Each stopped launch names the
// kernel and the limit that applied; launches afterwards give right results.
// Backend Auto: the CPU here, the GPU on the GPU machine.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
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
def spin_forever(out):
    i = cuda.grid(1)
    k = 0
    while True:
        k = (k * 7 + 3) % 1001
        if k < 0:
            break
    out[i] = k

@cuda.jit
def scale(out, x, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i]
)",
                         "deadline_kernels.py");
  REQUIRE(rc == 0);
  return rt;
}

// Runs `source` after a prelude that defines stopped(kernel, args, text),
// which asserts that the launch raises KernelError starting with `text`.
int run_script(Runtime& rt, const std::string& source, const std::string& name) {
  return rt.run_string(std::string(R"(
import time
import numpy as np
from numba import cuda
import _cuhost
import cuhost
from __main__ import spin_forever, scale

def stopped(kernel, args, text, limit):
    t0 = time.monotonic()
    try:
        kernel[2, 32](*args)
        cuda.synchronize()
    except _cuhost.KernelError as e:
        assert str(e).startswith(text), str(e)
    else:
        raise AssertionError("the launch returned")
    elapsed = time.monotonic() - t0
    assert limit <= elapsed < limit + 5, elapsed

def right_results(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(1000)
    out = np.zeros_like(x)
    scale[8, 128](out, x, 1.25)
    np.testing.assert_array_equal(out, 1.25 * x)
)") + source,
                       name);
}

float seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<float>(std::chrono::steady_clock::now() - t0).count();
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

TEST_CASE("a host gives each script its kernel timeout, and launches only tighten it", "[embedding][deadline]") {
  Runtime& rt = runtime_with_kernels();

  rt.set_kernel_timeout(0.3);
  REQUIRE(run_script(rt, R"(
assert cuhost.current_kernel_deadline() == (0.3, "script"), cuhost.current_kernel_deadline()
out = np.zeros(64, dtype=np.int64)
stopped(spin_forever, (out,), "kernel 'spin_forever' ran longer than the script's kernel timeout of 0.3 s "
        "(per script: Runtime::set_kernel_timeout) and was stopped", 0.3)
with cuhost.kernel_deadline(0.1):  # tighter than the script's: the launch's applies
    assert cuhost.current_kernel_deadline() == (0.1, "launch")
    stopped(spin_forever, (out,), "kernel 'spin_forever' ran longer than its launch's deadline of 0.1 s", 0.1)
with cuhost.kernel_deadline(30):  # looser: the script's still applies
    assert cuhost.current_kernel_deadline() == (0.3, "script")
    stopped(spin_forever, (out,), "kernel 'spin_forever' ran longer than the script's kernel timeout of 0.3 s", 0.3)
right_results(1)
)",
                     "script_with_timeout.py") == 0);

  rt.clear_kernel_timeout();  // back to RuntimeOptions::kernel_timeout: none
  REQUIRE(run_script(rt, R"(
assert cuhost.current_kernel_deadline() == (0.0, "runtime"), cuhost.current_kernel_deadline()
right_results(2)
(ptx,) = scale.inspect_asm().values()
assert "cuhost_gpu_cancel_flag" not in ptx, ptx
)",
                     "script_without_timeout.py") == 0);

  rt.set_kernel_timeout(0);  // explicitly none for this script
  REQUIRE(run_script(rt, R"(
assert cuhost.current_kernel_deadline() == (0.0, "script"), cuhost.current_kernel_deadline()
right_results(3)
)",
                     "script_with_no_limit.py") == 0);
  rt.clear_kernel_timeout();
}

TEST_CASE("C++ launches take a deadline of their own", "[embedding][deadline][kernel_api]") {
  Runtime& rt = runtime_with_kernels();
  auto spin = rt.kernel("spin_forever", "void(int64[::1])");
  auto scale = rt.kernel("scale", "void(float64[::1], float64[::1], float64)");
  const std::int64_t n = 1000;
  auto dout = rt.allocate(n * 8), dx = rt.allocate(n * 8), dspin = rt.allocate(64 * 8);
  std::mt19937 gen(20261129);
  std::normal_distribution<double> dist;
  std::vector<double> x(n);
  for (double& v : x) v = dist(gen);
  rt.copy_to_device(dx->address(), x.data(), n * 8);

  auto check_scale = [&](double a, bool with_deadline) {
    std::vector<KernelArg> args = {KernelArg::array(dout->address(), {n}), KernelArg::array(dx->address(), {n}), a};
    if (with_deadline)
      scale->launch_with_deadline(10, Dim3(8), Dim3(128), args.data(), args.size());
    else
      scale->launch(Dim3(8), Dim3(128), args.data(), args.size());
    rt.synchronize();
    std::vector<double> out(n);
    rt.copy_to_host(out.data(), dout->address(), n * 8);
    for (std::int64_t i = 0; i < n; ++i) REQUIRE(out[i] == a * x[i]);
  };
  check_scale(1.5, false);
  check_scale(-2.25, true);  // the variant with cancellation points, compiled now
  check_scale(0.75, false);  // the first variant again

  auto t0 = std::chrono::steady_clock::now();
  std::string error = error_of(
      [&] { spin->launch_with_deadline(0.25, Dim3(2), Dim3(32), {KernelArg::array(dspin->address(), {64})}); });
  float elapsed = seconds_since(t0);
  REQUIRE(error.rfind("kernel 'spin_forever' ran longer than its launch's deadline of 0.25 s (per launch: "
                      "cuhost.kernel_deadline) and was stopped",
                      0) == 0);
  REQUIRE(elapsed >= 0.25f);
  REQUIRE(elapsed < 5.25f);

  // A script's timeout holds C++ launches too, and names itself.
  rt.set_kernel_timeout(0.2);
  t0 = std::chrono::steady_clock::now();
  error = error_of([&] { spin->launch(Dim3(2), Dim3(32), {KernelArg::array(dspin->address(), {64})}); });
  elapsed = seconds_since(t0);
  rt.clear_kernel_timeout();
  REQUIRE(error.rfind("kernel 'spin_forever' ran longer than the script's kernel timeout of 0.2 s", 0) == 0);
  REQUIRE(elapsed >= 0.2f);
  REQUIRE(error_of([&] {
            spin->launch_with_deadline(0, Dim3(1), Dim3(1), {KernelArg::array(dspin->address(), {64})});
          }) == "kernel 'spin_forever': a launch's deadline must be > 0 seconds, got 0");
  check_scale(3.0, false);
}
