// P2: launch cost from the C++ embedding API with no Python on the launch
// path. The same kernels as bench_launch.py and raw/kernels.cu (an empty one
// and the 4-argument one: a scalar and three device arrays), timed exactly as
// raw/kernels.cu times `<<<>>>` (1000 warm-up launches, then 5 rounds of
// 20000 launches and one synchronization; the median round per launch).
// Then the graph rows of bench_graphs.py from C++: a chain of 100 small
// kernels launched one by one and replayed as a graph (cuhost/graph.h),
// per kernel. Prints CUHOST-BENCH lines with system "cuhost-cpp" for
// compare.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <cuhost/graph.h>
#include <cuhost/runtime.h>

using namespace cuhost;

static void launch_cost(Runtime& rt, const char* name, const std::function<void()>& fn) {
  for (int i = 0; i < 1000; ++i) fn();
  rt.synchronize();
  std::vector<double> us;
  const int calls = rt.backend() == Backend::Cuda ? 20000 : 200;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) fn();
    rt.synchronize();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  std::sort(us.begin(), us.end());
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"cuhost-cpp\", \"backend\": \"%s\", \"unit\": \"us\", "
              "\"median\": %.4f, \"p10\": %.4f, \"p90\": %.4f, \"samples\": []}\n",
              name, backend_name(rt.backend()), us[2], us[0], us[4]);
  std::fflush(stdout);
}

// Microseconds per kernel of `chain` (100 kernels): 200 chains, one wait, median of 5 rounds.
static void chain_cost(Runtime& rt, const char* name, const std::function<void()>& chain) {
  for (int i = 0; i < 3; ++i) chain();
  rt.synchronize();
  std::vector<double> us;
  const int chains = rt.backend() == Backend::Cuda ? 200 : 20;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < chains; ++i) chain();
    rt.synchronize();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                 (chains * 100.0));
  }
  std::sort(us.begin(), us.end());
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"cuhost-cpp\", \"backend\": \"%s\", \"unit\": \"us\", "
              "\"median\": %.4f, \"p10\": %.4f, \"p90\": %.4f, \"samples\": []}\n",
              name, backend_name(rt.backend()), us[2], us[0], us[4]);
  std::fflush(stdout);
}

int main() {
  RuntimeOptions options;
  Runtime& rt = Runtime::initialize(options);
  if (rt.run_string(R"(
from numba import cuda

@cuda.jit
def k0():
    pass

@cuda.jit
def k4(s, x, y, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = s * x[i] + y[i]

@cuda.jit
def step(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a + 1.0
)",
                    "embed_launch.py") != 0)
    return 1;
  auto k0 = rt.kernel("k0", "void()");
  auto k4 = rt.kernel("k4", "void(float32, float32[::1], float32[::1], float32[::1])");
  const std::int64_t n = 1024;
  auto x = rt.allocate(n * 4), y = rt.allocate(n * 4), o = rt.allocate(n * 4);
  std::vector<float> h(n);
  for (std::int64_t i = 0; i < n; ++i) h[i] = static_cast<float>(i % 100) / 100.0f;
  rt.copy_to_device(x->address(), h.data(), n * 4);
  rt.copy_to_device(y->address(), h.data(), n * 4);
  const KernelArg args[4] = {2.0f, KernelArg::array(x->address(), {n}), KernelArg::array(y->address(), {n}),
                             KernelArg::array(o->address(), {n})};
  launch_cost(rt, "launch_0args", [&] { k0->launch(Dim3(1), Dim3(32), nullptr, 0); });
  launch_cost(rt, "launch_4args_device", [&] { k4->launch(Dim3(4), Dim3(256), args, 4); });
  auto step = rt.kernel("step", "void(float32[::1], float32)");
  auto chain_state = rt.allocate(256 * 4);
  const KernelArg step_args[2] = {KernelArg::array(chain_state->address(), {256}), 0.5f};
  auto eager_chain = [&] {
    for (int k = 0; k < 100; ++k) step->launch(Dim3(1), Dim3(256), step_args, 2);
  };
  chain_cost(rt, "graph_chain100_eager", eager_chain);
  GraphCapture capture;
  eager_chain();
  std::shared_ptr<Graph> graph = capture.end();
  chain_cost(rt, "graph_chain100_replay", [&] { graph->launch(); });
  // The result is right (checked once, after the timing).
  std::vector<float> out(n);
  rt.copy_to_host(out.data(), o->address(), n * 4);
  for (std::int64_t i = 0; i < n; ++i)
    if (out[i] != 2.0f * h[i] + h[i]) {
      std::fprintf(stderr, "embed_launch: wrong result at %lld\n", static_cast<long long>(i));
      return 1;
    }
  return 0;
}
