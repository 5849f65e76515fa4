// Which device the memory of a device array and a stream belong to, and the
// checks a launch makes with them: a kernel runs on the calling thread's
// device; an array of another device is used through peer access when the
// driver allows it (enabled on first need), else the launch is refused with
// a ValueError naming both devices, as is a stream of another device.
#pragma once

#include <Python.h>

#include <cstdint>

namespace cuhost::python {

// The device of memory a view borrows (a host-lent buffer, another
// library's __cuda_array_interface__ object): the driver's answer for the
// pointer, else the calling thread's device; 0 on the CPU backend.
int device_of_borrowed(std::uintptr_t data);

// An array argument on `array_device` for a launch on `launch_device`:
// true when usable (the same device, or peer access enabled); false with a
// ValueError otherwise.
bool check_array_device(const char* kernel, Py_ssize_t argument, int array_device, int launch_device);

// A launch on `launch_device` with a stream of `stream_device`: false with a
// ValueError when they differ.
bool check_stream_device(const char* kernel, int stream_device, int launch_device);

}  // namespace cuhost::python
