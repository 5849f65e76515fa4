// The CPU target end to end: kernels compiled through runtime::compile_kernel
// for the host, run by calling the generated block entry directly (no
// launcher) on random data, checked against a host reference; plus the
// structure of the CPU module (block entry only without barriers, static
// shared layout, bounds checks only when asked).
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#include "codegen/cpu_fission.h"
#include "cpu_kernel_support.h"

using namespace cuhost;
using namespace cuhost::testing;

TEST_CASE("codegen cpu: saxpy matches a host reference", "[codegen]") {
  const char* src = R"(
from numba import cuda

def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
)";
  auto k = cpu_kernel(src, "saxpy", {"float32", "float32[::1]", "float32[::1]", "float32[::1]"});
  CHECK(k->cpu_thread_fn != nullptr);
  // The block entry's x loop is vectorized, and the guard `i < x.size` is
  // split off the loop (range check elimination) instead of masking every
  // load and store, which AMD chips run many times slower.
  CHECK(k->llvm_ir.find(" x float>") != std::string::npos);
  CHECK(k->llvm_ir.find("llvm.masked.store") == std::string::npos);
  CHECK(k->llvm_ir.find("llvm.masked.load") == std::string::npos);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-10.f, 10.f);
  const int n = 1000;
  std::vector<float> x(n), y(n), out(n, -1.f);
  for (int i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
  float a = 2.5f;
  Params p;
  p.scalar(a);
  p.array(x);
  p.array(y);
  p.array(out);
  run_blocks(*k, p, 8, 128);  // 1024 threads for 1000 elements: the guard matters
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == Approx(a * x[i] + y[i]).epsilon(1e-6));
}

TEST_CASE("codegen cpu: // and % follow Python for ints and floats; int division by zero gives 0", "[codegen]") {
  const char* src = R"(
from numba import cuda

def divmod_k(a, b, q, r, fa, fb, fq, fr):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]
        fq[i] = fa[i] // fb[i]
        fr[i] = fa[i] % fb[i]
)";
  auto k = cpu_kernel(src, "divmod_k",
                      {"int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "float64[::1]", "float64[::1]",
                       "float64[::1]", "float64[::1]"});
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::int64_t> di(-50, 50);
  std::uniform_real_distribution<double> dd(-20.0, 20.0);
  const int n = 256;
  std::vector<std::int64_t> a(n), b(n), q(n, 99), r(n, 99);
  std::vector<double> fa(n), fb(n), fq(n), fr(n);
  for (int i = 0; i < n; ++i) {
    a[i] = di(rng);
    b[i] = di(rng);
    fa[i] = dd(rng);
    fb[i] = dd(rng);
  }
  b[0] = 0;  // division by zero: 0 without debug
  a[1] = INT64_MIN;
  b[1] = -1;  // no trap, wraps like two's complement
  Params p;
  for (auto* v : {&a, &b, &q, &r}) p.array(*v);
  for (auto* v : {&fa, &fb, &fq, &fr}) p.array(*v);
  run_blocks(*k, p, 2, 128);
  for (int i = 0; i < n; ++i) {
    INFO("i=" << i << " a=" << a[i] << " b=" << b[i]);
    if (b[i] == 0) {
      CHECK(q[i] == 0);
      CHECK(r[i] == 0);
    } else if (b[i] == -1) {
      CHECK(q[i] == std::int64_t(0ULL - std::uint64_t(a[i])));
      CHECK(r[i] == 0);
    } else {
      std::int64_t eq = a[i] / b[i], er = a[i] % b[i];
      if (er != 0 && ((er < 0) != (b[i] < 0))) eq -= 1, er += b[i];
      CHECK(q[i] == eq);
      CHECK(r[i] == er);
    }
    double m = std::fmod(fa[i], fb[i]);
    double d = (fa[i] - m) / fb[i];
    if (m != 0 && ((fb[i] < 0) != (m < 0))) m += fb[i], d -= 1.0;
    double fl = std::floor(d);
    if (d - fl > 0.5) fl += 1.0;
    CHECK(fq[i] == fl);
    CHECK(fr[i] == Approx(m).margin(1e-12));
  }
}

TEST_CASE("codegen cpu: negative indices wrap, device functions, loops and math", "[codegen]") {
  const char* src = R"(
from numba import cuda
import math

@cuda.jit(device=True)
def scale(v, s):
    return v * s

def k(x, out, j):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for t in range(x.size - 1, -1, -2):
            acc += x[t]
        out[i] = scale(x[j], 2.0) + acc + math.sqrt(abs(x[i]))
)";
  auto k = cpu_kernel(src, "k", {"float64[::1]", "float64[::1]", "int64"});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dd(-5.0, 5.0);
  const int n = 37;
  std::vector<double> x(n), out(n);
  for (double& v : x) v = dd(rng);
  std::int64_t j = -1;
  Params p;
  p.array(x);
  p.array(out);
  p.scalar(j);
  run_blocks(*k, p, 1, 64);
  double acc = 0;
  for (int t = n - 1; t > -1; t -= 2) acc += x[t];
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == Approx(x[n - 1] * 2.0 + acc + std::sqrt(std::fabs(x[i]))));
}

TEST_CASE("codegen cpu: barriers need the thread entry; shared layout is reported", "[codegen]") {
  const char* src = R"(
from numba import cuda
import numpy as np

def reduce(x, out):
    buf = cuda.shared.array(256, np.float32)
    tmp = cuda.shared.array((4, 3), np.int64)
    tid = cuda.threadIdx.x
    buf[tid] = x[tid]
    tmp[0, 0] = 1
    cuda.syncthreads()
    if tid == 0:
        out[0] = buf[0] + buf[1] + tmp[0, 0]
)";
  auto k = cpu_kernel(src, "reduce", {"float32[::1]", "float32[::1]"});
  CHECK(k->cpu_thread_fn != nullptr);
  // Loop fission (cpu_fission.cpp) gives this kernel a block entry too.
  CHECK((k->cpu_block_fn != nullptr) == codegen::cpu_fission_enabled());
  CHECK(k->uses_barriers);
  CHECK(k->static_shared_bytes == 1024 + 96);
  CHECK(k->llvm_ir.find("cuhost_cpu_syncthreads") != std::string::npos);
}

TEST_CASE("codegen cpu: bounds checks only when asked", "[codegen]") {
  const char* src = "from numba import cuda\n\ndef k(x, i):\n    x[i] = 1.0\n";
  auto plain = cpu_kernel(src, "k", {"float32[::1]", "int64"});
  CHECK(plain->llvm_ir.find("cuhost_cpu_index_error") == std::string::npos);
  auto checked = cpu_kernel(src, "k", {"float32[::1]", "int64"}, true);
  CHECK(checked->llvm_ir.find("cuhost_cpu_index_error") != std::string::npos);
}

TEST_CASE("codegen cpu: complex128 arithmetic matches std::complex", "[codegen][complex]") {
  const char* src = R"(
from numba import cuda

def k(alpha, x, out):
    i = cuda.grid(1)
    if i < x.size:
        z = x[i]
        out[i] = alpha * z / (z + 2j) - z.conjugate() + abs(z)
)";
  auto k = cpu_kernel(src, "k", {"complex128", "complex128[::1]", "complex128[::1]"});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(-4.0, 4.0);
  const int n = 257;
  std::vector<std::complex<double>> x(n), out(n, {-1.0, -1.0});
  for (auto& v : x) v = {dist(rng), dist(rng)};
  std::complex<double> alpha(0.5, -1.75);
  Params p;
  p.scalar(alpha.real());
  p.scalar(alpha.imag());
  p.array(x);
  p.array(out);
  run_blocks(*k, p, 3, 128);
  for (int i = 0; i < n; ++i) {
    std::complex<double> want = alpha * x[i] / (x[i] + std::complex<double>(0, 2)) - std::conj(x[i]) + std::abs(x[i]);
    INFO(i);
    REQUIRE(out[i].real() == Approx(want.real()).epsilon(1e-12).margin(1e-12));
    REQUIRE(out[i].imag() == Approx(want.imag()).epsilon(1e-12).margin(1e-12));
  }
}
