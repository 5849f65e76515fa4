// A host that launches a script's kernel every 2 ms and checks each result
// while the script is edited (live kernels, README "Live kernels"). The
// kernel computes a linear formula a * x + b of int64 inputs; the host finds
// a and b from the first two elements and checks every other element against
// them exactly, so a result computed half by old and half by new code, or by
// any wrong code, is caught. It prints one line per formula it sees (with the
// CLOCK_MONOTONIC time of the first launch that gave it), one per reload
// report, and a summary with the launch latencies when stdin says `quit` or
// closes.
// Usage: cuhost_live_example SCRIPT [--backend auto|cpu|cuda] [--period-us N]
// Exit code 0 when no launch gave a wrong result.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <cuhost/runtime.h>

namespace {

double monotonic_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Interval {
  double start, end;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SCRIPT [--backend auto|cpu|cuda] [--period-us N]\n", argv[0]);
    return 2;
  }
  const std::string script = argv[1];
  cuhost::RuntimeOptions options;
  long period_us = 2000;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--backend")
      options.backend = value == "cpu"    ? cuhost::Backend::Cpu
                        : value == "cuda" ? cuhost::Backend::Cuda
                                          : cuhost::Backend::Auto;
    else if (flag == "--period-us")
      period_us = std::stol(value);
  }
  cuhost::Runtime& rt = cuhost::Runtime::initialize(options);
  if (rt.run_file(script, {}) != 0) return 1;

  // Reload reports arrive on the reload thread: printed at once, and the
  // compile's interval kept for the latency summary.
  std::mutex report_mutex;
  std::vector<Interval> compiles;
  rt.on_reload([&](const cuhost::ReloadEvent& ev) {
    const double now = monotonic_seconds();
    std::lock_guard<std::mutex> lock(report_mutex);
    compiles.push_back({now - ev.seconds, now});
    const char* outcome = ev.outcome == cuhost::ReloadEvent::Outcome::Swapped ? "swapped"
                          : ev.outcome == cuhost::ReloadEvent::Outcome::Error ? "error"
                                                                              : "refused";
    std::printf("reload %s t=%.6f seconds=%.6f line=%d column=%d\n%s", outcome, now, ev.seconds, ev.line, ev.column,
                ev.describe().c_str());
    std::printf("end reload\n");
    std::fflush(stdout);
  });
  rt.watch(script);

  const std::int64_t n = 4096;
  std::shared_ptr<cuhost::Kernel> step = rt.kernel("step", "void(int64[::1], int64[::1])");
  auto x_buf = rt.allocate(n * sizeof(std::int64_t)), out_buf = rt.allocate(n * sizeof(std::int64_t));
  std::vector<std::int64_t> x(n), out(n);
  std::mt19937_64 rng(12345);
  x[0] = 0;
  x[1] = 1;
  for (std::int64_t i = 2; i < n; ++i) x[i] = static_cast<std::int64_t>(rng() % 2000001) - 1000000;
  rt.copy_to_device(x_buf->address(), x.data(), n * sizeof(std::int64_t));

  std::atomic<bool> quit{false};
  std::thread input([&] {
    std::string line;
    while (std::getline(std::cin, line))
      if (line == "quit") break;
    quit = true;
  });

  std::int64_t a = 0, b = 0;
  bool have_formula = false;
  long launches = 0, wrong = 0;
  std::vector<Interval> launch_times;
  const auto period = std::chrono::microseconds(period_us);
  auto next = std::chrono::steady_clock::now();
  do {  // at least one launch, even when stdin is already closed
    const double t0 = monotonic_seconds();
    step->launch(cuhost::Dim3((n + 127) / 128), cuhost::Dim3(128),
                 {cuhost::KernelArg::array(x_buf->address(), {n}), cuhost::KernelArg::array(out_buf->address(), {n})});
    rt.synchronize();
    const double t1 = monotonic_seconds();
    launch_times.push_back({t0, t1});
    rt.copy_to_host(out.data(), out_buf->address(), n * sizeof(std::int64_t));
    ++launches;
    const std::int64_t new_b = out[0], new_a = out[1] - out[0];
    bool consistent = true;
    for (std::int64_t i = 2; i < n && consistent; ++i) consistent = out[i] == new_a * x[i] + new_b;
    if (!consistent) {
      ++wrong;
      std::printf("wrong result at launch %ld\n", launches);
      std::fflush(stdout);
    } else if (!have_formula || new_a != a || new_b != b) {
      a = new_a;
      b = new_b;
      have_formula = true;
      std::printf("formula a=%lld b=%lld t=%.6f launch=%ld\n", static_cast<long long>(a), static_cast<long long>(b), t0,
                  launches);
      std::fflush(stdout);
    }
    if (launches % 250 == 0) {
      std::printf("tick launch=%ld\n", launches);  // the host is alive (through a bad edit too)
      std::fflush(stdout);
    }
    next += period;
    std::this_thread::sleep_until(next);
    if (std::chrono::steady_clock::now() > next + 10 * period) next = std::chrono::steady_clock::now();
  } while (!quit);
  input.join();
  rt.stop_watching();

  // Launch latency (launch and wait), apart for launches that overlapped a
  // reload's compile and those that did not.
  std::vector<double> quiet, compiling;
  {
    std::lock_guard<std::mutex> lock(report_mutex);
    for (const Interval& l : launch_times) {
      bool overlaps = false;
      for (const Interval& c : compiles) overlaps = overlaps || (l.start < c.end && l.end > c.start);
      (overlaps ? compiling : quiet).push_back((l.end - l.start) * 1e6);
    }
  }
  std::printf(
      "summary launches=%ld wrong=%ld quiet_launches=%zu compiling_launches=%zu p99_quiet_us=%.1f "
      "p99_compiling_us=%.1f p50_quiet_us=%.1f\n",
      launches, wrong, quiet.size(), compiling.size(), percentile(quiet, 0.99), percentile(compiling, 0.99),
      percentile(quiet, 0.5));
  std::fflush(stdout);
  return wrong == 0 ? 0 : 1;
}
