// Launch configuration parsing (see launch_dims.h).
#include "python/launch_dims.h"

#include <string>

#include "python/py_api.h"
#include "python/stream_view.h"

namespace cuhost::python {

namespace {

// The dimensions as numba's messages show them: "[1, 2, 3, 4]".
std::string dims_repr(PyObject* const* items, Py_ssize_t n) {
  std::string out = "[";
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyRef r(PyObject_Repr(items[i]));
    if (i) out += ", ";
    out += r && PyUnicode_Check(r.get()) ? PyUnicode_AsUTF8(r.get()) : "?";
    if (!r) PyErr_Clear();
  }
  return out + "]";
}

}  // namespace

// Parses one of griddim/blockdim: an int or a sequence of 1..3 ints, with
// numba-cuda's messages (ValueError for the count, TypeError for a non-int).
bool parse_dims(PyObject* v, unsigned out[3], const char* what) {
  out[0] = out[1] = out[2] = 1;
  PyObject* fast = nullptr;
  PyObject* const* items = &v;
  Py_ssize_t n = 1;
  if (PyTuple_Check(v) || PyList_Check(v)) {
    fast = v;
    n = PySequence_Fast_GET_SIZE(v);
    items = PySequence_Fast_ITEMS(fast);
    if (n < 1 || n > 3) {
      PyErr_Format(PyExc_ValueError, "%s must be a sequence of 1, 2 or 3 integers, got %s", what,
                   dims_repr(items, n).c_str());
      return false;
    }
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* x = items[i];
    if (PyFloat_Check(x) || !PyIndex_Check(x)) {
      PyErr_Format(PyExc_TypeError, "%s must be a sequence of integers, got %s", what, dims_repr(items, n).c_str());
      return false;
    }
    PyRef idx(PyNumber_Index(x));
    if (!idx) return false;
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(idx.get(), &overflow);
    if (overflow > 0 || value > 0xffffffffLL) {
      PyErr_Format(PyExc_ValueError, "%s dimension %zd is too large", what, i);
      return false;
    }
    if (overflow < 0 || value <= 0) {
      PyErr_Format(PyExc_ValueError, "%s dimensions must be positive, got %lld in dimension %zd", what,
                   overflow < 0 ? -1LL : value, i);
      return false;
    }
    out[i] = static_cast<unsigned>(value);
  }
  return true;
}

bool parse_stream(PyObject* v, PyObject** obj, std::uintptr_t* handle) {
  *obj = nullptr;
  *handle = 0;
  if (!v || v == Py_None) return true;
  if (PyLong_CheckExact(v) && PyLong_AsLongLong(v) == 0) return true;  // numba's stream=0: the default stream
  if (!stream_handle(v, handle)) return false;
  *obj = v;
  return true;
}

bool parse_shared(PyObject* v, unsigned* out) {
  *out = 0;
  if (!v || v == Py_None) return true;
  if (PyFloat_Check(v) || !PyIndex_Check(v)) {
    PyErr_Format(PyExc_TypeError, "dynamic shared memory size must be an int (bytes), got %s", Py_TYPE(v)->tp_name);
    return false;
  }
  long long n = PyLong_AsLongLong(v);
  if (n == -1 && PyErr_Occurred()) return false;
  if (n < 0 || n > 0xffffffffLL) {
    PyErr_Format(PyExc_ValueError, "dynamic shared memory size must be between 0 and 2**32-1 bytes, got %lld", n);
    return false;
  }
  *out = static_cast<unsigned>(n);
  return true;
}

bool check_block(const unsigned block[3]) {
  unsigned long long threads = 1ULL * block[0] * block[1] * block[2];
  if (threads > kMaxThreadsPerBlock) {
    // What the driver answers to such a launch (numba-cuda lets its
    // CUDA_ERROR_INVALID_VALUE escape), raised before any work on either backend.
    PyErr_Format(exception_class(ErrorKind::CudaAPIError),
                 "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE: a block of %u x %u x %u = %llu threads exceeds the "
                 "limit of %u threads per block",
                 block[0], block[1], block[2], threads, kMaxThreadsPerBlock);
    return false;
  }
  return true;
}

}  // namespace cuhost::python
