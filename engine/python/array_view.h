// How the launcher sees an array argument without caring where it came from:
// a DeviceNDArray, any object with __cuda_array_interface__ (CuPy, PyTorch),
// a DLPack capsule, or a host NumPy array (copied in and back by the
// launcher). Implemented by python/device_array.cpp.
#pragma once

#include <Python.h>

#include <cstdint>

#include "ir/types.h"

namespace cuhost::runtime {
class AccessOrder;
}

namespace cuhost::python {

constexpr int kMaxDims = 8;

struct ArrayView {
  void* data = nullptr;  // device pointer (host memory on the CPU backend)
  int ndim = 0;
  // Filled up to ndim only: a launch builds one view per argument, and
  // zeroing 128 bytes each time was a measurable part of the launch cost.
  std::int64_t shape[kMaxDims];
  std::int64_t strides[kMaxDims];   // bytes
  const ir::Type* dtype = nullptr;  // scalar type
  bool readonly = false;
  ir::Layout layout = ir::Layout::A;  // C/F when contiguous that way
  // The producer's stream of a __cuda_array_interface__ object (0 if none):
  // a launch synchronizes on it first, as numba-cuda does.
  std::uintptr_t interface_stream = 0;
  // The device the memory lives on, when known (DeviceNDArrays); -1 otherwise.
  int device = -1;
  // The cross-stream ordering of its allocation (DeviceNDArrays cuhost
  // allocated on the CUDA backend), else null (python/array_order.h).
  runtime::AccessOrder* order = nullptr;
  const ir::Type* type() const { return ir::array(dtype, ndim, layout, readonly); }
};

// Fills `out` for a device-resident array (DeviceNDArray, __cuda_array_interface__
// object, DLPack capsule). Returns false, with no Python error, for other objects;
// returns false with a Python error set for a malformed interface.
bool device_array_view(PyObject* obj, ArrayView* out);

// Fills `out` for a host NumPy array (any strides). False if not an ndarray.
bool host_array_view(PyObject* obj, ArrayView* out);

// A device copy of a host NumPy array for a launch: allocates device memory
// (contiguous, C order, same dtype and shape), copies the data in (handling
// any strides, incl. non-contiguous views) on `stream`, and returns a new
// reference to an object whose device_array_view() is the copy. copy_back()
// writes it back into the original host array after the launch (synchronous,
// like numba). Returns nullptr with a Python error on failure.
PyObject* host_to_device_for_launch(PyObject* host_array, std::uintptr_t stream);
int copy_back_after_launch(PyObject* device_copy, PyObject* host_array, std::uintptr_t stream);

// The numba layout of strides: C, F or A.
ir::Layout layout_of(int ndim, const std::int64_t* shape, const std::int64_t* strides, int itemsize);

}  // namespace cuhost::python
