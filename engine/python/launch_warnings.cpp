// Launch-time performance warnings (see launch_warnings.h).
#include "python/launch_warnings.h"

#include <Python.h>

#include <string>

#include "cpu/device_properties.h"
#include "cuda/context.h"
#include "python/config_flags.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

bool warn_performance(const std::string& message) {
  static PyObject* category = nullptr;
  if (!category) {
    PyObject* errors = PyImport_ImportModule("cuda.core.errors");
    if (errors) {
      category = PyObject_GetAttrString(errors, "NumbaPerformanceWarning");
      Py_DECREF(errors);
    }
    if (!category) return false;
  }
  return PyErr_WarnEx(category, message.c_str(), 1) == 0;
}

int multiprocessor_count() {
  const runtime::Session& s = runtime::session();
  if (s.backend != Backend::Cuda) {
    long count = 1;
    cpu::device_attribute("MULTIPROCESSOR_COUNT", &count);
    return static_cast<int>(count);
  }
  constexpr int kMaxDevices = 64;
  static int counts[kMaxDevices] = {};
  if (s.device < 0 || s.device >= kMaxDevices)
    return cuda::device_attribute(s.device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  int& c = counts[s.device];
  if (c == 0) c = cuda::device_attribute(s.device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  return c;
}

}  // namespace

bool warn_if_low_occupancy(const unsigned grid[3]) {
  unsigned long long size = static_cast<unsigned long long>(grid[0]) * grid[1] * grid[2];
  if (size >= 2ull * 1024) return true;  // above any device's 2 x multiprocessors: no query needed
  if (!config_flag("CUDA_LOW_OCCUPANCY_WARNINGS")) return true;
  int sms = 0;
  try {
    sms = multiprocessor_count();
  } catch (...) {
    return true;  // no device to compare with: the launch itself reports that
  }
  if (size >= 2ull * static_cast<unsigned long long>(sms)) return true;
  return warn_performance("Grid size " + std::to_string(size) +
                          " will likely result in GPU under-utilization due to low occupancy.");
}

bool warn_implicit_copy() {
  if (!config_flag("CUDA_WARN_ON_IMPLICIT_COPY")) return true;
  return warn_performance("Host array used in CUDA kernel will incur copy overhead to/from device.");
}

}  // namespace cuhost::python
