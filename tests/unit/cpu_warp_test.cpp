// CPU warp emulation tests: shuffles (down/idx/up/xor with widths), votes,
// ballot and activemask on hand-written IR kernels (tests/data/cpu/warp.ll),
// checked against a host model of CUDA's 32-lane semantics, full and
// partial warps.
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "cpu/jit.h"
#include "cpu/launcher.h"

using namespace cuhost;

namespace {

std::string read_cpu_data(const std::string& name) {
  std::ifstream in(std::string(CUHOST_TEST_DATA_DIR) + "/cpu/" + name);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<void*> warp_kernels() {
  static std::vector<void*> fns = [] {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    llvm::SMDiagnostic diag;
    auto module = llvm::parseAssemblyString(read_cpu_data("prelude.ll") + read_cpu_data("warp.ll"), diag, *ctx);
    REQUIRE(module);
    return cpu::add_module(std::move(module), std::move(ctx),
                           {"warp.cpu.thread", "shfl_modes.cpu.thread", "active.cpu.thread", "half_exit.cpu.thread"});
  }();
  return fns;
}

struct Slots {
  std::vector<std::uint64_t> values;
  std::vector<void*> ptrs;
  void** build() {
    ptrs.clear();
    for (auto& v : values) ptrs.push_back(&v);
    return ptrs.data();
  }
};

std::uint64_t addr(const void* p) { return reinterpret_cast<std::uint64_t>(p); }

}  // namespace

TEST_CASE("cpu: warp shuffle-down reduction, ballot and votes", "[cpu]") {
  const unsigned bs = 128, blocks = 50, n = bs * blocks;
  std::mt19937 rng(21);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<std::int32_t> in(n);
  for (auto& x : in) x = dist(rng);
  for (unsigned l = 0; l < 32; ++l) in[32 * 3 + l] = 1 + int(l);  // warp 3: all positive
  for (unsigned l = 0; l < 32; ++l) in[32 * 5 + l] = -int(l);     // warp 5: none positive
  std::vector<std::int32_t> sums(n / 32, 0), ballots(n, 0), flags(n, -1);
  Slots s;
  s.values = {addr(in.data()), addr(sums.data()), addr(ballots.data()), addr(flags.data()), n};
  cpu::CpuLaunch l;
  l.kernel_name = "warp";
  l.thread_fn = warp_kernels()[0];
  l.needs_fibers = true;
  l.grid = {blocks};
  l.block = {bs};
  l.params = s.build();
  cpu::launch(l);
  for (unsigned w = 0; w < n / 32; ++w) {
    std::int32_t sum = 0;
    std::uint32_t ballot = 0;
    for (unsigned j = 0; j < 32; ++j) {
      sum += in[w * 32 + j];
      if (in[w * 32 + j] > 0) ballot |= 1u << j;
    }
    INFO("warp " << w);
    REQUIRE(sums[w] == sum);
    int all = ballot == 0xffffffffu, any = ballot != 0, eq = ballot == 0 || ballot == 0xffffffffu;
    for (unsigned j = 0; j < 32; ++j) {
      REQUIRE(std::uint32_t(ballots[w * 32 + j]) == ballot);
      REQUIRE(flags[w * 32 + j] == (all | any << 1 | eq << 2));
    }
  }
  CHECK(flags[32 * 3] == 7);
  CHECK(flags[32 * 5] == 4);
}

TEST_CASE("cpu: shuffle modes, widths and partial warps follow shfl.sync", "[cpu]") {
  for (unsigned bs : {64u, 48u, 7u}) {
    const unsigned blocks = 5, n = bs * blocks;
    std::mt19937 rng(bs);
    std::vector<std::int32_t> in(n);
    for (auto& x : in) x = int(rng() % 100000);
    std::vector<std::int32_t> o_idx(n), o_up(n), o_xor(n), o_down(n), active(n);
    Slots s;
    s.values = {addr(in.data()),    addr(o_idx.data()),  addr(o_up.data()),
                addr(o_xor.data()), addr(o_down.data()), addr(active.data())};
    cpu::CpuLaunch l;
    l.kernel_name = "shfl_modes";
    l.thread_fn = warp_kernels()[1];
    l.needs_fibers = true;
    l.grid = {blocks};
    l.block = {bs};
    l.params = s.build();
    cpu::launch(l);
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < bs; ++t) {
        unsigned i = b * bs + t, lane = t % 32, wbase = t / 32 * 32;
        unsigned present = std::min(32u, bs - wbase);
        auto value_of = [&](unsigned src_lane, bool in_range) {
          if (!in_range || src_lane >= present) return in[i];
          return in[b * bs + wbase + src_lane];
        };
        INFO("block size " << bs << ", block " << b << ", thread " << t);
        unsigned seg8 = lane & ~7u, seg16 = lane & ~15u;
        CHECK(o_idx[i] == value_of(seg8 + 3, true));
        CHECK(o_up[i] == value_of(lane - 2, lane >= seg16 + 2));
        CHECK(o_xor[i] == value_of(lane ^ 5u, true));
        CHECK(o_down[i] == value_of(lane + 1, lane + 1 <= 31));
        CHECK(std::uint32_t(active[i]) == (present == 32 ? 0xffffffffu : (1u << present) - 1u));
      }
  }
}

TEST_CASE("cpu: activemask names the lanes that reach it together", "[cpu]") {
  for (unsigned bs : {64u, 40u}) {
    const unsigned blocks = 3, n = bs * blocks;
    std::vector<std::int32_t> first(n, 0), second(n, 0);
    Slots s;
    s.values = {addr(first.data()), addr(second.data())};
    cpu::CpuLaunch l;
    l.kernel_name = "active";
    l.thread_fn = warp_kernels()[2];
    l.needs_fibers = true;
    l.grid = {blocks};
    l.block = {bs};
    l.params = s.build();
    cpu::launch(l);
    for (unsigned i = 0; i < n; ++i) {
      unsigned t = i % bs, lane = t % 32, present = std::min(32u, bs - t / 32 * 32);
      std::uint32_t all = present == 32 ? 0xffffffffu : (1u << present) - 1u, thirds = 0;
      for (unsigned j = 0; j < present; j += 3) thirds |= 1u << j;
      INFO("block size " << bs << ", i " << i);
      CHECK(std::uint32_t(first[i]) == (lane % 3 == 0 ? thirds : 0u));
      CHECK(std::uint32_t(second[i]) == all);
    }
  }
}

TEST_CASE("cpu: lanes that returned are left out of warp operations", "[cpu]") {
  const unsigned bs = 96, blocks = 4, n = bs * blocks;
  std::mt19937 rng(5);
  std::vector<std::int32_t> in(n), shfl_out(n, -1), ballot_out(n, -1);
  for (auto& x : in) x = int(rng() % 1000000);
  Slots s;
  s.values = {addr(in.data()), addr(shfl_out.data()), addr(ballot_out.data())};
  cpu::CpuLaunch l;
  l.kernel_name = "half_exit";
  l.thread_fn = warp_kernels()[3];
  l.needs_fibers = true;
  l.grid = {blocks};
  l.block = {bs};
  l.params = s.build();
  cpu::launch(l);
  for (unsigned i = 0; i < n; ++i) {
    unsigned lane = i % bs % 32;
    INFO("i " << i);
    if (lane >= 16) {
      CHECK(shfl_out[i] == -1);
      CHECK(ballot_out[i] == -1);
    } else {
      CHECK(shfl_out[i] == (lane < 8 ? in[i + 8] : in[i]));
      CHECK(std::uint32_t(ballot_out[i]) == 0xffffu);
    }
  }
}
