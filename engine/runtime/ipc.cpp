// CUDA IPC on both backends (see ipc.h).
#include "runtime/ipc.h"

#include <cstring>

#include "cpu/ipc_memory.h"
#include "cuda/memory.h"
#include "runtime/device_memory.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {
bool cuda_backend() { return session().backend == Backend::Cuda; }
}  // namespace

IpcExport ipc_export(std::uintptr_t pointer) {
  IpcExport out;
  if (!find_allocation(pointer, &out.base, &out.size))
    throw UserError(ErrorKind::ValueError, concat("cannot make an IPC handle for ", reinterpret_cast<void*>(pointer),
                                                  ": it is not in device memory cuhost allocated"));
  if (cuda_backend()) {
    make_context_current();
    CUipcMemHandle h = cuda::ipc_get_handle(out.base);
    std::memcpy(out.handle.data(), h.reserved, out.handle.size());
  } else {
    out.handle = cpu::export_memory(out.base, out.size);
  }
  return out;
}

std::uintptr_t ipc_open(const IpcHandle& handle) {
  if (cuda_backend()) {
    make_context_current();
    CUipcMemHandle h{};
    std::memcpy(h.reserved, handle.data(), sizeof(h.reserved));
    return cuda::ipc_open(h);
  }
  return cpu::open_exported(handle, nullptr);
}

void ipc_close(std::uintptr_t address) {
  if (cuda_backend()) {
    make_context_current();
    cuda::ipc_close(address);
    return;
  }
  cpu::close_exported(address);
}

}  // namespace cuhost::runtime
