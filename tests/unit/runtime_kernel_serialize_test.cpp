// Compiled kernels as bytes and back (runtime/kernel_serialize.h): an NVPTX
// kernel keeps its code and facts; a CPU kernel is JIT-compiled again from
// its IR and runs.
#include <catch2/catch.hpp>

#include "runtime/kernel_serialize.h"

using namespace cuhost;

TEST_CASE("kernel serialization: NVPTX kernels round-trip", "[runtime]") {
  runtime::CompiledKernel k;
  k.name = "saxpy";
  k.symbol = "_cuhost_saxpy_0";
  k.target = runtime::Target::NVPTX;
  k.ptx = ".version 7.8\n.target sm_90\n";
  k.llvm_ir = "; optimized";
  k.llvm_ir_unoptimized = "; lowered";
  k.static_shared_bytes = 40;
  k.uses_barriers = true;
  k.use_cooperative = true;
  REQUIRE(runtime::serializable(k));
  auto back = runtime::deserialize_kernel(runtime::serialize_kernel(k), "saxpy");
  REQUIRE(back);
  CHECK(back->target == runtime::Target::NVPTX);
  CHECK(back->symbol == k.symbol);
  CHECK(back->ptx == k.ptx);
  CHECK(back->llvm_ir_unoptimized == k.llvm_ir_unoptimized);
  CHECK(back->static_shared_bytes == 40);
  CHECK(back->uses_barriers);
  CHECK_FALSE(back->uses_warp_ops);
  CHECK(back->use_cooperative);
  CHECK(back->name == "saxpy");
}

TEST_CASE("kernel serialization: CPU kernels are compiled again from their IR", "[runtime]") {
  runtime::CompiledKernel k;
  k.name = "k";
  k.symbol = "k";
  k.target = runtime::Target::CPU;
  k.cpu_thread_symbol = "k.thread";
  k.llvm_ir = "define i32 @\"k.thread\"(i32 %x) {\n  %y = mul i32 %x, 3\n  ret i32 %y\n}\n";
  REQUIRE(runtime::serializable(k));
  auto back = runtime::deserialize_kernel(runtime::serialize_kernel(k), "k");
  REQUIRE(back);
  REQUIRE(back->cpu_thread_fn);
  CHECK(reinterpret_cast<int (*)(int)>(back->cpu_thread_fn)(14) == 42);
  CHECK(back->cpu_block_fn == nullptr);
}

TEST_CASE("kernel serialization: what cannot travel", "[runtime]") {
  CHECK(runtime::deserialize_kernel("not a kernel", "k") == nullptr);
  runtime::CompiledKernel linked;
  linked.target = runtime::Target::NVPTX;
  linked.ptx = ".version 7.8";
  linked.link.push_back(ir::LinkItem{});
  CHECK_FALSE(runtime::serializable(linked));
  runtime::CompiledKernel no_ir;
  no_ir.target = runtime::Target::CPU;
  CHECK_FALSE(runtime::serializable(no_ir));
}
