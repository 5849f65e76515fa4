// Unit tests of the backend-neutral device memory layer and the layout rules
// the launcher uses, on the CPU backend (device memory is host memory).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "python/array_view.h"
#include "runtime/device_memory.h"
#include "runtime/session.h"

using namespace cuhost;

TEST_CASE("device allocations are aligned, sized and copy random bytes both ways", "[memory]") {
  REQUIRE(runtime::session().backend == Backend::Cpu);
  std::mt19937 rng(42);
  for (std::size_t bytes : {1u, 255u, 256u, 4097u, 1u << 20}) {
    auto a = runtime::DeviceAllocation::allocate(bytes);
    REQUIRE(a->size() == bytes);
    REQUIRE(a->address() != 0);
    REQUIRE(a->address() % 256 == 0);
    std::vector<unsigned char> in(bytes), out(bytes, 0);
    for (auto& b : in) b = static_cast<unsigned char>(rng());
    runtime::copy_to_device(a->address(), in.data(), bytes, 0, true);
    auto b = runtime::DeviceAllocation::allocate(bytes);
    runtime::copy_on_device(b->address(), a->address(), bytes, 0, true);
    runtime::copy_to_host(out.data(), b->address(), bytes, 0, true);
    REQUIRE(std::memcmp(in.data(), out.data(), bytes) == 0);
  }
}

TEST_CASE("zero-byte allocations have no address and copies of zero bytes do nothing", "[memory]") {
  auto a = runtime::DeviceAllocation::allocate(0);
  REQUIRE(a->address() == 0);
  REQUIRE(a->size() == 0);
  runtime::copy_to_device(a->address(), nullptr, 0, 0, true);
  runtime::synchronize_stream(0);
}

TEST_CASE("pinned allocations are usable host memory", "[memory]") {
  auto p = runtime::PinnedAllocation::allocate(1000);
  REQUIRE(p->data() != nullptr);
  REQUIRE(p->size() == 1000);
  std::memset(p->data(), 0x5a, 1000);
  REQUIRE(static_cast<unsigned char*>(p->data())[999] == 0x5a);
}

TEST_CASE("layout_of follows numpy's contiguity rules", "[memory]") {
  using python::layout_of;
  std::int64_t shape2[] = {3, 4};
  std::int64_t c[] = {32, 8}, f[] = {8, 24}, a[] = {64, 8};
  REQUIRE(layout_of(2, shape2, c, 8) == ir::Layout::C);
  REQUIRE(layout_of(2, shape2, f, 8) == ir::Layout::F);
  REQUIRE(layout_of(2, shape2, a, 8) == ir::Layout::A);
  // 1-d contiguous is C (numba types it C); a step makes it A.
  std::int64_t shape1[] = {10}, s1[] = {4}, s2[] = {8};
  REQUIRE(layout_of(1, shape1, s1, 4) == ir::Layout::C);
  REQUIRE(layout_of(1, shape1, s2, 4) == ir::Layout::A);
  // Size-1 axes do not count, whatever their stride.
  std::int64_t shape_one[] = {3, 1}, odd[] = {8, 999};
  REQUIRE(layout_of(2, shape_one, odd, 8) == ir::Layout::C);
  // Empty arrays are contiguous; 0-d arrays too.
  std::int64_t shape_empty[] = {0, 5}, any[] = {7, 3};
  REQUIRE(layout_of(2, shape_empty, any, 8) == ir::Layout::C);
  REQUIRE(layout_of(0, nullptr, nullptr, 8) == ir::Layout::C);
  // Broadcast (stride 0) is not contiguous.
  std::int64_t shape_b[] = {4, 3}, b[] = {0, 8};
  REQUIRE(layout_of(2, shape_b, b, 8) == ir::Layout::A);
  // Negative strides are not contiguous.
  std::int64_t neg[] = {-8};
  REQUIRE(layout_of(1, shape1, neg, 8) == ir::Layout::A);
}
