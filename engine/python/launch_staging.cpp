// Staged host-array launches (see launch_staging.h).
#include "python/launch_staging.h"

#include <cstring>
#include <map>
#include <memory>
#include <utility>

#include "python/transfer_overrides.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {
constexpr std::size_t kAlign = 256;                // device alignment of each array in the block
constexpr std::size_t kMaxStagedBytes = 4u << 20;  // larger launches are dominated by the copies anyway
constexpr std::size_t kMinCapacity = 64u << 10;
}  // namespace

struct StagedHostArrays::Buffers {
  std::shared_ptr<runtime::PinnedAllocation> host;
  std::shared_ptr<runtime::DeviceAllocation> device;
  std::size_t capacity = 0;
  bool busy = false;
};

namespace {

// Per (device, stream); lives for the process. Touched with the GIL held.
std::map<std::pair<int, std::uintptr_t>, StagedHostArrays::Buffers*>& cache() {
  static auto* m = new std::map<std::pair<int, std::uintptr_t>, StagedHostArrays::Buffers*>();
  return *m;
}

}  // namespace

StagedHostArrays::~StagedHostArrays() {
  if (buffers_) buffers_->busy = false;
}

bool StagedHostArrays::stage(ArgInfo* infos, Py_ssize_t n, std::uintptr_t stream) {
  std::size_t total = 0;
  std::vector<Item> items;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (infos[i].kind != ArgKind::HostArray) continue;
    const ArrayView& v = infos[i].view;
    if (v.layout != ir::Layout::C && v.ndim > 0) return false;
    std::size_t bytes = static_cast<std::size_t>(v.dtype->byte_size());
    for (int d = 0; d < v.ndim; ++d) bytes *= static_cast<std::size_t>(v.shape[d]);
    // The same host array passed twice shares one device copy, as on the
    // host; arrays that partly overlap take the general path.
    const Item* same = nullptr;
    for (const Item& it : items) {
      const auto* a = static_cast<const char*>(it.host);
      const auto* b = static_cast<const char*>(v.data);
      if (a == b && it.bytes == bytes)
        same = &it;
      else if (a < b + bytes && b < a + it.bytes)
        return false;
    }
    if (same) {
      items.push_back(Item{v.data, same->offset, bytes, true, true});
      continue;
    }
    total = (total + kAlign - 1) / kAlign * kAlign;
    items.push_back(Item{v.data, total, bytes, v.readonly, false});
    total += bytes;
    if (total > kMaxStagedBytes) return false;
  }
  if (items.empty()) return false;

  Buffers*& slot = cache()[{runtime::current_device(), stream}];
  if (!slot) {
    // The first host-array launch on a stream takes the general path: a
    // one-off launch (a script's first call) should not pay for allocating
    // page-locked memory; the second one sets the buffers up.
    slot = new Buffers();
    return false;
  }
  if (slot->busy) return false;
  if (slot->capacity < total) {
    std::size_t capacity = kMinCapacity;
    while (capacity < total) capacity *= 2;
    slot->device.reset();
    slot->host.reset();
    slot->host = runtime::PinnedAllocation::allocate(capacity);
    // cuhost's own bounded cache (<= 4 MiB per stream), not the script's memory: not counted.
    slot->device = runtime::DeviceAllocation::allocate(capacity, runtime::QuotaUse::Exempt);
    slot->capacity = capacity;
  }
  slot->busy = true;
  buffers_ = slot;
  stream_ = stream;
  total_ = total;
  items_ = std::move(items);

  auto* pinned = static_cast<char*>(buffers_->host->data());
  for (const Item& it : items_)
    if (it.bytes && !it.alias) std::memcpy(pinned + it.offset, it.host, it.bytes);
  // numba copies a kernel's host arrays through driver.cuMemcpyHtoD (and back through cuMemcpyDtoH).
  if (!run_transfer_override(Transfer::HostToDevice, buffers_->device->address(),
                             reinterpret_cast<std::uintptr_t>(pinned), total_))
    runtime::copy_to_device(buffers_->device->address(), pinned, total_, stream_, false);
  std::size_t k = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (infos[i].kind != ArgKind::HostArray) continue;
    infos[i].view.data = reinterpret_cast<void*>(buffers_->device->address() + items_[k++].offset);
    infos[i].kind = ArgKind::DeviceArray;
  }
  return true;
}

void StagedHostArrays::finish() {
  if (!buffers_) return;
  auto* pinned = static_cast<char*>(buffers_->host->data());
  if (!run_transfer_override(Transfer::DeviceToHost, reinterpret_cast<std::uintptr_t>(pinned),
                             buffers_->device->address(), total_))
    runtime::copy_to_host(pinned, buffers_->device->address(), total_, stream_, true);
  for (const Item& it : items_)
    if (!it.readonly && it.bytes) std::memcpy(it.host, pinned + it.offset, it.bytes);
}

}  // namespace cuhost::python
