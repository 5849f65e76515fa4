// CUDA IPC for both backends: the 64-byte handle of the allocation a device
// pointer lies in (cuIpcGetMemHandle on the GPU; on the CPU backend the
// allocation's pages shared through a memfd, cpu/ipc_memory.h), and the
// opening and closing of another process's handle.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuhost::runtime {

using IpcHandle = std::array<unsigned char, 64>;

struct IpcExport {
  IpcHandle handle{};
  std::uintptr_t base = 0;  // the allocation the pointer lies in
  std::size_t size = 0;
};

// Throws UserError (ValueError when `pointer` is not in an allocation that can be shared).
IpcExport ipc_export(std::uintptr_t pointer);
std::uintptr_t ipc_open(const IpcHandle& handle);
void ipc_close(std::uintptr_t address);

}  // namespace cuhost::runtime
