// Devices of arrays and streams, and the launch checks (see array_devices.h).
#include "python/array_devices.h"

#include "cuda/context.h"
#include "python/errors.h"
#include "runtime/devices.h"
#include "runtime/session.h"

namespace cuhost::python {

int device_of_borrowed(std::uintptr_t data) {
  if (runtime::session().backend != Backend::Cuda) return 0;
  int owner = -1;
  try {
    if (data) owner = cuda::device_of_pointer(data);
  } catch (...) {
  }
  return owner >= 0 ? owner : runtime::current_device();
}

bool check_array_device(const char* kernel, Py_ssize_t argument, int array_device, int launch_device) {
  if (array_device < 0 || array_device == launch_device) return true;
  bool usable = false;
  try {
    usable = runtime::use_peer_memory(launch_device, array_device);
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_ValueError,
                 "kernel '%s': argument %zd is an array on device %d, but the kernel runs on device %d (the current "
                 "device), and enabling peer access failed: %s",
                 kernel, argument, array_device, launch_device, e.what());
    return false;
  }
  if (usable) return true;
  PyErr_Format(PyExc_ValueError,
               "kernel '%s': argument %zd is an array on device %d, but the kernel runs on device %d (the current "
               "device), and device %d cannot access the memory of device %d (no peer access between them); copy "
               "the array to device %d first, or launch inside `with cuda.gpus[%d]:`",
               kernel, argument, array_device, launch_device, launch_device, array_device, launch_device, array_device);
  return false;
}

bool check_stream_device(const char* kernel, int stream_device, int launch_device) {
  if (stream_device < 0 || stream_device == launch_device) return true;
  PyErr_Format(PyExc_ValueError,
               "kernel '%s' runs on device %d (the current device), but its stream belongs to device %d; launch "
               "inside `with cuda.gpus[%d]:`, or use a stream of device %d",
               kernel, launch_device, stream_device, stream_device, launch_device);
  return false;
}

}  // namespace cuhost::python
