// Unit tests of the host driver layer's C++ parts on the CPU backend: the
// pending-free queues (count and byte limits, deferral, flush), device
// allocations released through them, the external-allocator hook, the CPU
// device's driver model (context stack, memory, host registration) and
// in-process IPC of the CPU device's memory.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "cpu/driver_model.h"
#include "cpu/ipc_memory.h"
#include "runtime/device_memory.h"
#include "runtime/ipc.h"
#include "runtime/pending_frees.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

// A device ordinal no real allocation uses, so the tests own its queue.
constexpr int kQueue = 7;

std::size_t queued() { return runtime::pending_frees(kQueue).count; }

}  // namespace

TEST_CASE("pending frees release past the count limit, and not while deferred", "[memory][pending]") {
  runtime::set_pending_free_limits(3, 1.0);
  runtime::flush_pending_frees(kQueue);
  int released = 0;
  auto release = [&released] { ++released; };
  for (int i = 1; i <= 3; ++i) {
    runtime::queue_free(kQueue, 8, release);
    REQUIRE(queued() == std::size_t(i));
  }
  runtime::queue_free(kQueue, 8, release);  // the fourth exceeds the limit: all four go
  REQUIRE(queued() == 0);
  REQUIRE(released == 4);

  runtime::defer_frees(kQueue);
  runtime::defer_frees(kQueue);  // nested
  for (int i = 0; i < 6; ++i) runtime::queue_free(kQueue, 8, release);
  REQUIRE(queued() == 6);
  REQUIRE_FALSE(runtime::flush_pending_frees(kQueue));
  runtime::undefer_frees(kQueue);
  REQUIRE(runtime::pending_frees(kQueue).deferred == 1);
  REQUIRE_FALSE(runtime::flush_pending_frees(kQueue));
  runtime::undefer_frees(kQueue);
  REQUIRE(runtime::flush_pending_frees(kQueue));
  REQUIRE(queued() == 0);
  REQUIRE(released == 10);
  runtime::set_pending_free_limits(10, 0.2);
}

TEST_CASE("pending frees release past the byte limit, a fraction of the device's memory", "[memory][pending]") {
  runtime::flush_pending_frees(kQueue);
  runtime::set_pending_free_limits(1000, 1e-6);
  std::size_t limit = runtime::max_pending_bytes(kQueue);
  std::size_t capacity = runtime::pending_frees(kQueue).capacity;
  REQUIRE(capacity > 0);
  REQUIRE(limit == static_cast<std::size_t>(static_cast<double>(capacity) * 1e-6));
  int released = 0;
  runtime::queue_free(kQueue, limit / 2, [&] { ++released; });
  runtime::queue_free(kQueue, limit - limit / 2, [&] { ++released; });
  REQUIRE(queued() == 2);
  REQUIRE(runtime::pending_frees(kQueue).bytes == limit);
  runtime::queue_free(kQueue, 1, [&] { ++released; });  // one byte over
  REQUIRE(queued() == 0);
  REQUIRE(released == 3);
  runtime::set_pending_free_limits(10, 0.2);
}

TEST_CASE("device memory goes to the device's queue when its last owner lets go", "[memory][pending]") {
  REQUIRE(runtime::session().backend == Backend::Cpu);
  runtime::set_pending_free_limits(10, 0.2);
  runtime::flush_pending_frees(0);
  {
    auto a = runtime::DeviceAllocation::allocate(4096 + 3);
    REQUIRE(a->address() % cpu::page_size() == 0);  // whole pages: shareable over IPC
    std::uintptr_t base = 0;
    std::size_t size = 0;
    REQUIRE(runtime::find_allocation(a->address() + 100, &base, &size));
    REQUIRE(base == a->address());
    REQUIRE(size == 4096 + 3);
  }
  REQUIRE(runtime::pending_frees(0).count == 1);
  REQUIRE(runtime::pending_frees(0).bytes == 4096 + 3);
  REQUIRE(runtime::flush_pending_frees(0));
  REQUIRE(runtime::pending_frees(0).count == 0);
}

namespace {
int g_external_calls = 0;
bool external(int, std::size_t bytes, std::uintptr_t* address, std::shared_ptr<void>* owner) {
  ++g_external_calls;
  auto* block = new std::vector<char>(bytes);
  *address = reinterpret_cast<std::uintptr_t>(block->data());
  *owner = std::shared_ptr<void>(block, [](void* p) { delete static_cast<std::vector<char>*>(p); });
  return true;
}
}  // namespace

TEST_CASE("an external allocator receives the device's allocations and gets them back", "[memory][external]") {
  runtime::flush_pending_frees(0);
  runtime::set_external_allocator(&external);
  runtime::use_external_allocator(0, true);
  std::weak_ptr<void> held;
  {
    auto a = runtime::DeviceAllocation::allocate(64);
    REQUIRE(g_external_calls == 1);
    REQUIRE(a->external_owner() != nullptr);
    held = a->external_owner();
    std::memset(reinterpret_cast<void*>(a->address()), 1, 64);
  }
  REQUIRE(held.expired());                             // handed back at once...
  REQUIRE(runtime::pending_frees(0).count == 0);       // ...not queued
  auto none = runtime::DeviceAllocation::allocate(0);  // zero bytes never reach the allocator
  REQUIRE(g_external_calls == 1);
  runtime::use_external_allocator(0, false);
  auto own = runtime::DeviceAllocation::allocate(64);
  REQUIRE(g_external_calls == 1);
  REQUIRE(own->external_owner() == nullptr);
}

TEST_CASE("managed allocations are host memory on the CPU backend", "[memory][managed]") {
  auto m = runtime::DeviceAllocation::allocate_managed(1000, true);
  REQUIRE(m->managed());
  std::memset(reinterpret_cast<void*>(m->address()), 0xab, 1000);
  REQUIRE(reinterpret_cast<unsigned char*>(m->address())[999] == 0xab);
}

namespace {
std::uint64_t call(const char* name, std::vector<std::uint64_t> in, std::uint64_t* out = nullptr,
                   CUresult expect = CUDA_SUCCESS) {
  const model::BindingCall* c = cpu::find_cpu_binding_call(name);
  REQUIRE(c != nullptr);
  REQUIRE(static_cast<int>(in.size()) == c->inputs);
  std::uint64_t local[16] = {};
  CUresult r = c->call(in.data(), out ? out : local);
  REQUIRE(r == expect);
  return out ? out[0] : local[0];
}
}  // namespace

TEST_CASE("the CPU device's contexts form a per-thread stack", "[driver]") {
  std::uint64_t primary = call("cuDevicePrimaryCtxRetain", {0});
  REQUIRE(primary == cpu::primary_context_handle());
  while (call("cuCtxGetCurrent", {}) != 0) call("cuCtxPopCurrent", {});
  std::uint64_t out[16] = {};
  call("cuCtxPopCurrent", {}, out, CUDA_ERROR_INVALID_CONTEXT);
  call("cuCtxGetDevice", {}, out, CUDA_ERROR_INVALID_CONTEXT);
  call("cuCtxPushCurrent", {primary});
  std::uint64_t created = call("cuCtxCreate", {0, 0, 0});  // pushed, as the driver does
  REQUIRE(created != primary);
  REQUIRE(call("cuCtxGetCurrent", {}) == created);
  REQUIRE(call("cuCtxGetDevice", {}) == 0);
  call("cuCtxDestroy", {created});  // destroying a current context pops it
  REQUIRE(call("cuCtxGetCurrent", {}) == primary);
  REQUIRE(call("cuCtxPopCurrent", {}) == primary);
  REQUIRE(call("cuCtxGetCurrent", {}) == 0);
  call("cuCtxPushCurrent", {12345}, out, CUDA_ERROR_INVALID_CONTEXT);
  call("cuDeviceGet", {1}, out, CUDA_ERROR_INVALID_DEVICE);
  call("cuModuleLoadData", {0}, out, CUDA_ERROR_NOT_SUPPORTED);
}

TEST_CASE("the CPU device's memory entry points move host bytes", "[driver]") {
  std::uint64_t out[16] = {};
  std::uint64_t p = call("cuMemAlloc", {1000});
  std::vector<unsigned char> in(1000), back(1000);
  std::mt19937 rng(3);
  for (auto& b : in) b = static_cast<unsigned char>(rng());
  call("cuMemcpyHtoD", {p, reinterpret_cast<std::uintptr_t>(in.data()), 1000});
  call("cuMemsetD8", {p, 0x7f, 10});
  call("cuMemcpyDtoH", {reinterpret_cast<std::uintptr_t>(back.data()), p, 1000});
  REQUIRE(std::memcmp(back.data() + 10, in.data() + 10, 990) == 0);
  REQUIRE(back[9] == 0x7f);
  call("cuMemGetAddressRange", {p + 17}, out);
  REQUIRE(out[0] == p);
  REQUIRE(out[1] == 1000);
  call("cuMemFree", {p});
  call("cuMemFree", {p}, out, CUDA_ERROR_INVALID_VALUE);
  // Host registration: once per range, undone once.
  call("cuMemHostRegister", {reinterpret_cast<std::uintptr_t>(in.data()), 1000, 0});
  call("cuMemHostRegister", {reinterpret_cast<std::uintptr_t>(in.data()) + 8, 8, 0}, out,
       CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  call("cuMemHostUnregister", {reinterpret_cast<std::uintptr_t>(in.data())});
  call("cuMemHostUnregister", {reinterpret_cast<std::uintptr_t>(in.data())}, out,
       CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  std::uint64_t s = call("cuStreamCreate", {0});
  call("cuStreamSynchronize", {s});
  call("cuStreamDestroy", {s});
  call("cuStreamSynchronize", {s}, out, CUDA_ERROR_INVALID_HANDLE);
}

TEST_CASE("CPU device memory exported over IPC is the same memory where it is opened", "[ipc]") {
  auto a = runtime::DeviceAllocation::allocate(10000);
  auto* data = reinterpret_cast<int*>(a->address());
  for (int i = 0; i < 2500; ++i) data[i] = i * 3;
  runtime::IpcExport e = runtime::ipc_export(a->address() + 400);
  REQUIRE(e.base == a->address());
  REQUIRE(e.size == 10000);
  REQUIRE(data[2499] == 2499 * 3);                                // contents kept across the move onto shared pages
  REQUIRE(runtime::ipc_export(a->address()).handle == e.handle);  // exported once
  std::uintptr_t opened = runtime::ipc_open(e.handle);
  REQUIRE(opened != a->address());
  auto* view = reinterpret_cast<int*>(opened);
  REQUIRE(view[100] == 300);
  view[7] = -1;  // a write through the mapping is seen by the owner
  REQUIRE(data[7] == -1);
  runtime::ipc_close(opened);
  REQUIRE_THROWS_AS(runtime::ipc_close(opened), UserError);
  cpu::IpcHandleBytes bogus{};
  REQUIRE_THROWS_AS(runtime::ipc_open(bogus), UserError);
  int on_stack = 0;
  REQUIRE_THROWS_AS(runtime::ipc_export(reinterpret_cast<std::uintptr_t>(&on_stack)), UserError);
}
