// Test support for running kernels compiled for the CPU target without the
// launcher: kernel parameters as kernel_abi.h slots, every block run through
// the generated block entry, and compiling a source string for the CPU.
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "codegen_support.h"
#include "model/cpu_abi.h"

namespace cuhost::testing {

// Kernel parameters as kernel_abi.h slots: one pointer per slot value.
struct Params {
  std::vector<std::unique_ptr<std::int64_t>> storage;
  std::vector<void*> ptrs;
  template <typename T>
  void scalar(T v) {
    auto cell = std::make_unique<std::int64_t>(0);
    std::memcpy(cell.get(), &v, sizeof(T));
    ptrs.push_back(cell.get());
    storage.push_back(std::move(cell));
  }
  template <typename T>
  void array(std::vector<T>& a) {
    scalar<void*>(a.data());
    scalar<std::int64_t>(std::int64_t(a.size()));
    scalar<std::int64_t>(std::int64_t(sizeof(T)));
  }
};

// Runs every block of a 1-d grid through the block entry (no runtime: the
// kernels run this way report no errors).
inline void run_blocks(const runtime::CompiledKernel& k, Params& p, int grid, int block) {
  REQUIRE(k.cpu_block_fn != nullptr);
  auto fn = reinterpret_cast<void (*)(void**, CuhostThreadCtx*)>(k.cpu_block_fn);
  std::vector<char> shared(k.static_shared_bytes + 16);
  for (int b = 0; b < grid; ++b) {
    CuhostThreadCtx ctx{};
    ctx.bid[0] = b;
    ctx.bdim[0] = block;
    ctx.bdim[1] = ctx.bdim[2] = 1;
    ctx.gdim[0] = grid;
    ctx.gdim[1] = ctx.gdim[2] = 1;
    ctx.shared = shared.data();
    fn(p.ptrs.data(), &ctx);
  }
}

inline std::shared_ptr<const runtime::CompiledKernel> cpu_kernel(const std::string& src, const std::string& name,
                                                                 const std::vector<std::string>& args,
                                                                 bool bounds_check = false) {
  return compile_source(src, name, args, runtime::Target::CPU, {}, bounds_check);
}

}  // namespace cuhost::testing
