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
bool run_transfer_override(Transfer direction, std::uintptr_t dst, std::uintptr_t src, std::size_t bytes);

// _cuhost._set_transfer_override(kind, fn): kind "htod" or "dtoh"; fn None
// gives the copy back to cuhost.
int add_transfer_overrides(PyObject* module);

}  // namespace cuhost::python
