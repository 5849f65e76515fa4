// Unit tests of the device-memory quota's count (runtime/memory_quota.h):
// charges up to the quota exactly, the refusal's message, refunds, raw
// driver allocations refunded by address, allocations of an external memory
// manager not counted twice, and threads racing for the last bytes.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "support/diagnostics.h"
#include "support/memory_quota.h"

using namespace cuhost;
using namespace cuhost::support;

namespace {

// Restores an empty count and no quota after each test.
struct QuotaScope {
  explicit QuotaScope(std::size_t bytes) {
    REQUIRE(memory_quota_in_use() == 0);
    set_memory_quota(bytes);
  }
  ~QuotaScope() { set_memory_quota(0); }
};

}  // namespace

TEST_CASE("memory quota: charges up to the quota, refuses past it with the quota named", "[memory]") {
  QuotaScope q(3 << 20);
  charge_memory_quota(2 << 20, "cuMemAlloc");
  charge_memory_quota(1 << 20, "cuMemAlloc");  // exactly the quota
  CHECK(memory_quota_in_use() == 3u << 20);
  try {
    charge_memory_quota(1, "cuMemAllocManaged");
    FAIL("a charge past the quota succeeded");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::CudaAPIError);
    CHECK(std::string(e.what()) ==
          "cuMemAllocManaged failed: CUDA_ERROR_OUT_OF_MEMORY allocating 1 bytes: past the device-memory quota of "
          "3 MiB (--memory-quota), with 3145728 bytes in use");
  }
  CHECK(memory_quota_in_use() == 3u << 20);  // a refusal counts nothing
  refund_memory_quota(2 << 20);
  refund_memory_quota(1 << 20);
  CHECK(memory_quota_in_use() == 0);
  // A request larger than the whole quota (no overflow in the check).
  CHECK_FALSE(try_charge_memory_quota(~std::size_t(0)));
}

TEST_CASE("memory quota: without a quota everything is counted and nothing refused", "[memory]") {
  QuotaScope q(0);
  CHECK(try_charge_memory_quota(std::size_t(1) << 50));
  CHECK(memory_quota_in_use() == std::size_t(1) << 50);
  refund_memory_quota(std::size_t(1) << 50);
  CHECK(memory_quota_in_use() == 0);
}

TEST_CASE("memory quota: raw allocations are refunded by address, a manager's counted once", "[memory]") {
  QuotaScope q(1 << 20);
  std::uintptr_t address = 0xabc000;
  int result = raw_allocation_within_quota(4096, 2, &address, [] { return 0; });
  CHECK(result == 0);
  CHECK(memory_quota_in_use() == 4096);
  CHECK(raw_allocation_within_quota(1 << 20, 2, &address, [] { return 0; }) == 2);  // refused: not called
  CHECK(raw_allocation_within_quota(100, 2, &address, [] { return 7; }) == 7);      // the driver failed: refunded
  CHECK(memory_quota_in_use() == 4096);
  refund_raw_allocation(0x999000);  // not ours: nothing happens
  CHECK(memory_quota_in_use() == 4096);
  refund_raw_allocation(address);
  refund_raw_allocation(address);  // freed twice: refunded once
  CHECK(memory_quota_in_use() == 0);
  {
    UncountedAllocations manager;  // an external memory manager allocating for an array
    CHECK(raw_allocation_within_quota(std::size_t(2) << 20, 2, &address, [] { return 0; }) == 0);
    CHECK(memory_quota_in_use() == 0);
  }
  refund_raw_allocation(address);
  CHECK(memory_quota_in_use() == 0);
}

TEST_CASE("memory quota: threads racing for the last bytes never pass it", "[memory]") {
  QuotaScope q(1000);
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i)
        if (try_charge_memory_quota(1)) granted.fetch_add(1);
    });
  for (auto& th : threads) th.join();
  CHECK(granted.load() == 1000);
  CHECK(memory_quota_in_use() == 1000);
  refund_memory_quota(1000);
}

TEST_CASE("memory quota: sizes are described in whole units", "[memory]") {
  CHECK(describe_bytes(4u << 20) == "4 MiB");
  CHECK(describe_bytes(std::size_t(2) << 30) == "2 GiB");
  CHECK(describe_bytes(512u << 10) == "512 KiB");
  CHECK(describe_bytes(1048577) == "1048577 bytes");
}
