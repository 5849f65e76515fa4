// Launch-time performance warnings (see launch_warnings.h).
#include "python/launch_warnings.h"

#include <Python.h>

#include <string>

#include "python/config_flags.h"
#include "python/python_hooks.h"

namespace cuhost::python {

namespace {

bool warn_performance(const std::string& message) {
  PyObject* category = hook(Hook::PerformanceWarning);
  return category && PyErr_WarnEx(category, message.c_str(), 1) == 0;
}

}  // namespace

bool warn_if_low_occupancy(const unsigned grid[3]) {
  // numba-cuda's rule: fewer than 128 blocks in the whole grid, whatever the
  // device (2 x its multiprocessors would be ideal, but scripts and tests
  // rely on the fixed threshold numba-cuda documents).
  constexpr unsigned long long kMinGridSize = 128;
  unsigned long long size = static_cast<unsigned long long>(grid[0]) * grid[1] * grid[2];
  if (size >= kMinGridSize) return true;
  if (!config_flag("CUDA_LOW_OCCUPANCY_WARNINGS")) return true;
  return warn_performance("Grid size " + std::to_string(size) +
                          " will likely result in GPU under-utilization due to low occupancy.");
}

bool warn_implicit_copy() {
  if (!config_flag("CUDA_WARN_ON_IMPLICIT_COPY")) return true;
  return warn_performance("Host array used in CUDA kernel will incur copy overhead to/from device.");
}

}  // namespace cuhost::python
