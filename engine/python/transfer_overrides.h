// numba-cuda makes every synchronous host<->device copy through
// driver.cuMemcpyHtoD / driver.cuMemcpyDtoH, and code written for it replaces
// those entry points on the driver object to watch or forbid transfers
// (driver.cuMemcpyHtoD = f). cuhost copies in C++: the driver object hands a
// replacement here, and the copies of numba's API call it instead.
#pragma once

#include <Python.h>

#include <cstddef>
#include <cstdint>

namespace cuhost::python {

enum class Transfer { HostToDevice, DeviceToHost };

// When the user replaced the entry point of `direction`: calls the
// replacement with (dst, src, bytes) in place of the copy and returns true;
// throws, with its Python error set, when it raised. False otherwise.
// numba's entry points are synchronous copies on the legacy default stream,
// which numba's kernels share; cuhost's kernels run on streams that do not
// wait for it. So the device is synchronized before the replacement runs
// (the data a device-to-host copy reads is final, nothing pending touches
// what a host-to-device copy writes) and, for host-to-device, after it (the
// data has landed before later work on any stream reads it).
bool run_transfer_override(Transfer direction, std::uintptr_t dst, std::uintptr_t src, std::size_t bytes);

// _cuhost._set_transfer_override(kind, fn): kind "htod" or "dtoh"; fn None
// gives the copy back to cuhost.
int add_transfer_overrides(PyObject* module);

}  // namespace cuhost::python
