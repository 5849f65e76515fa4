// Loop fission on the CPU target (codegen/cpu_fission.cpp): barrier kernels
// in the supported subset get a block entry whose regions are vectorized
// loops and compute what a GPU would; the others keep the fiber path.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <random>

#include "codegen/cpu_fission.h"
#include "cpu_kernel_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kReduction = R"(
from numba import cuda, float32

def block_sum(x, partial):
    buf = cuda.shared.array(128, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = 64
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]
)";

}  // namespace

TEST_CASE("fission: a block reduction runs as vectorized loops and sums in the GPU's order", "[fission]") {
  if (!codegen::cpu_fission_enabled()) return;  // CUHOST_CPU_FISSION=0 in the environment
  auto k = cpu_kernel(kReduction, "block_sum", {"float32[::1]", "float32[::1]"});
  CHECK(k->cpu_thread_fn != nullptr);
  CHECK(k->llvm_ir.find(".cpu.block") != std::string::npos);
  CHECK(k->llvm_ir.find(" x float>") != std::string::npos);  // the regions are vectorized
  const int blocks = 9;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> x(blocks * 128 - 37), partial(blocks, -7.f);
  for (float& v : x) v = dist(rng);
  Params p;
  p.array(x);
  p.array(partial);
  run_blocks(*k, p, blocks, 128);
  for (int b = 0; b < blocks; ++b) {
    float buf[128];
    for (int t = 0; t < 128; ++t) buf[t] = b * 128 + t < int(x.size()) ? x[b * 128 + t] : 0.f;
    for (int s = 64; s > 0; s /= 2)
      for (int t = 0; t < s; ++t) buf[t] += buf[t + s];
    REQUIRE(partial[b] == buf[0]);  // same tree, same rounding
  }
}

TEST_CASE("fission: syncthreads_count counts the block's predicates", "[fission]") {
  if (!codegen::cpu_fission_enabled()) return;
  const char* src = R"(
from numba import cuda

def count_positive(x, out):
    i = cuda.grid(1)
    n = cuda.syncthreads_count(x[i] > 0)
    out[i] = n
)";
  auto k = cpu_kernel(src, "count_positive", {"int32[::1]", "int32[::1]"});
  std::mt19937 rng(3);
  std::vector<std::int32_t> x(4 * 64), out(x.size(), -1);
  for (auto& v : x) v = int(rng() % 7) - 3;
  Params p;
  p.array(x);
  p.array(out);
  run_blocks(*k, p, 4, 64);
  for (int b = 0; b < 4; ++b) {
    int n = 0;
    for (int t = 0; t < 64; ++t) n += x[b * 64 + t] > 0;
    for (int t = 0; t < 64; ++t) REQUIRE(out[b * 64 + t] == n);
  }
}

TEST_CASE("fission: kernels outside the supported subset keep the fiber path", "[fission]") {
  struct Case {
    const char* what;
    const char* src;
  };
  const Case cases[] = {
      {"break out of a loop holding a barrier", R"(
from numba import cuda

def k(x):
    for r in range(4):
        cuda.syncthreads()
        if x[0] > r:
            break
        x[1] += 1
)"},
      {"barrier inside an expression", R"(
from numba import cuda

def k(x):
    x[cuda.threadIdx.x] = cuda.syncthreads_count(1) + 1
)"},
      {"warp operation", R"(
from numba import cuda

def k(x):
    cuda.syncthreads()
    x[cuda.threadIdx.x] = cuda.shfl_down_sync(0xffffffff, x[cuda.threadIdx.x], 1)
)"},
      {"barrier in a device function", R"(
from numba import cuda

@cuda.jit(device=True)
def wait():
    cuda.syncthreads()

def k(x):
    wait()
    x[cuda.threadIdx.x] = 1
)"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto k = cpu_kernel(c.src, "k", {"int32[::1]"});
    CHECK(k->uses_barriers);
    CHECK(k->cpu_thread_fn != nullptr);
    CHECK(k->cpu_block_fn == nullptr);
  }
}

TEST_CASE("fission: CUHOST_CPU_FISSION=0 turns it off", "[fission]") {
  const char* old = std::getenv("CUHOST_CPU_FISSION");
  std::string saved = old ? old : "";
  setenv("CUHOST_CPU_FISSION", "0", 1);
  auto off = cpu_kernel(kReduction, "block_sum", {"float32[::1]", "float32[::1]"});
  if (old)
    setenv("CUHOST_CPU_FISSION", saved.c_str(), 1);
  else
    unsetenv("CUHOST_CPU_FISSION");
  CHECK(off->cpu_block_fn == nullptr);
  CHECK(off->cpu_thread_fn != nullptr);
}
