// numba-cuda's launch-time performance warnings, each switched by its
// numba.cuda.config flag (read at the moment it applies, so override_config
// and NUMBA_* variables both work): a grid too small to fill the device
// (CUDA_LOW_OCCUPANCY_WARNINGS) and host arrays copied for a GPU launch
// (CUDA_WARN_ON_IMPLICIT_COPY). Both issue NumbaPerformanceWarning.
#pragma once

namespace cuhost::python {

// Warns when grid[0]*grid[1]*grid[2] is below 128 blocks (numba-cuda's
// threshold). Returns false with a Python exception set when the
// warning was turned into an error.
bool warn_if_low_occupancy(const unsigned grid[3]);

// Warns that a host array passed to a kernel is copied to and from the
// device (on a GPU; the CPU backend warns the same, for the same launch on a GPU). Returns false with a Python
// exception set when the warning was turned into an error.
bool warn_implicit_copy();

}  // namespace cuhost::python
