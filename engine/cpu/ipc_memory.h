// Inter-process sharing of the CPU device's memory (CUDA IPC on the CPU
// backend). An allocation is exported by moving its pages, contents and
// address unchanged, onto a memfd (mmap MAP_FIXED|MAP_SHARED over the same
// range); the 64-byte handle names the exporting process and the memfd, and
// another process maps the same memory by opening /proc/<pid>/fd/<fd>.
// Writes on either side are seen by the other, as with cuIpcOpenMemHandle.
// The allocation must be page-aligned and own whole pages (cuhost's CPU
// allocations are); when it is freed, release_export() puts private
// anonymous pages back before the allocator reuses the range.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuhost::cpu {

using IpcHandleBytes = std::array<unsigned char, 64>;

std::size_t page_size();

// The handle for the allocation [base, base + bytes) (exported once; later
// calls return the same handle). Throws UserError when the range cannot be
// shared.
IpcHandleBytes export_memory(std::uintptr_t base, std::size_t bytes);

// Maps the memory a handle names into this process; returns its address.
// Throws UserError when the exporting process or its memory is gone, or
// when the handle is not one cuhost's CPU backend made.
std::uintptr_t open_exported(const IpcHandleBytes& handle, std::size_t* bytes);

// Unmaps memory open_exported mapped. Throws UserError for other addresses.
void close_exported(std::uintptr_t address);

// Called before an allocation at `base` is freed: if it was exported, its
// pages become private anonymous memory again and the memfd is closed.
void release_export(std::uintptr_t base) noexcept;

}  // namespace cuhost::cpu
