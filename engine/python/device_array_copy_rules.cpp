// numba-cuda's rules for the explicit copies of a DeviceNDArray
// (copy_to_device, copy_to_host): its copies are single memcpys of the
// array's extent, so both sides must be contiguous once broadcast axes
// (stride 0) are set aside, and the two sides must agree in dtype, shape and
// strides (axes of length 1 ignored) -- with numba's exception classes and
// messages. cuhost's own paths (to_device, kernel arguments, setitem) copy
// strided data freely; these rules apply where numba's API promises them.
#include <string>

#include "python/device_array.h"

namespace cuhost::python {

namespace {

std::string tuple_text(int n, const std::int64_t* v) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) s += std::to_string(v[i]) + (n == 1 ? "," : i + 1 < n ? ", " : "");
  return s + ")";
}

// The axes of length other than 1 (numpy's squeeze).
int squeeze(const ArrayGeometry& g, std::int64_t* shape, std::int64_t* strides) {
  int n = 0;
  for (int i = 0; i < g.ndim; ++i)
    if (g.shape[i] != 1) {
      shape[n] = g.shape[i];
      strides[n] = g.strides[i];
      ++n;
    }
  return n;
}

}  // namespace

const char* const kNonContiguousCopyMessage =
    "Array contains non-contiguous buffer and cannot be transferred as a single memory region. Please ensure "
    "contiguous buffer with numpy .ascontiguousarray()";

ArrayGeometry array_core(const ArrayGeometry& g) {
  ArrayGeometry core = g;
  if (element_count(g.ndim, g.shape) == 0) return core;
  for (int i = 0; i < g.ndim; ++i)
    if (g.strides[i] == 0) core.shape[i] = 1;
  return core;
}

bool require_contiguous_core(const ArrayGeometry& g) {
  ArrayGeometry core = array_core(g);
  if (is_c_contiguous(core.ndim, core.shape, core.strides, core.itemsize) ||
      is_f_contiguous(core.ndim, core.shape, core.strides, core.itemsize))
    return true;
  PyErr_SetString(PyExc_ValueError, kNonContiguousCopyMessage);
  return false;
}

bool check_array_compatibility(const ArrayGeometry& a, PyObject* a_dtype, const ArrayGeometry& b, PyObject* b_dtype) {
  int eq = PyObject_RichCompareBool(a_dtype, b_dtype, Py_EQ);
  if (eq < 0) return false;
  if (!eq) {
    PyErr_Format(PyExc_TypeError, "incompatible dtype: %S vs. %S", a_dtype, b_dtype);
    return false;
  }
  std::int64_t as[kMaxDims], ast[kMaxDims], bs[kMaxDims], bst[kMaxDims];
  int an = squeeze(a, as, ast), bn = squeeze(b, bs, bst);
  bool same_shape = an == bn;
  for (int i = 0; same_shape && i < an; ++i) same_shape = as[i] == bs[i];
  if (!same_shape) {
    PyErr_Format(PyExc_ValueError, "incompatible shape: %s vs. %s", tuple_text(a.ndim, a.shape).c_str(),
                 tuple_text(b.ndim, b.shape).c_str());
    return false;
  }
  bool same_strides = true;
  for (int i = 0; i < an; ++i) same_strides = same_strides && ast[i] == bst[i];
  if (element_count(a.ndim, a.shape) && !same_strides) {
    PyErr_Format(PyExc_ValueError, "incompatible strides: %s vs. %s", tuple_text(a.ndim, a.strides).c_str(),
                 tuple_text(b.ndim, b.strides).c_str());
    return false;
  }
  return true;
}

ArrayGeometry geometry_of(const DeviceArrayObject* a) {
  ArrayGeometry g;
  g.ndim = a->ndim;
  g.itemsize = a->itemsize;
  for (int i = 0; i < a->ndim; ++i) {
    g.shape[i] = a->shape[i];
    g.strides[i] = a->strides[i];
  }
  return g;
}

ArrayGeometry geometry_of(const HostRegion& r) {
  ArrayGeometry g;
  g.ndim = r.ndim;
  g.itemsize = r.itemsize;
  for (int i = 0; i < r.ndim; ++i) {
    g.shape[i] = r.shape[i];
    g.strides[i] = r.strides[i];
  }
  return g;
}

}  // namespace cuhost::python
