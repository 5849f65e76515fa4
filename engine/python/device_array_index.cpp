// Indexing of DeviceNDArray: basic slicing and integer indexing give views
// sharing the allocation (numba's semantics; an all-integer index reads one
// element back as a NumPy scalar), assignment writes scalars, host arrays
// (broadcast to the view) or device arrays into the selected view; plus
// reshape, ravel and transpose.
#include <cstring>
#include <string>

#include "python/device_array.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/stream_view.h"
#include "python/streams.h"

namespace cuhost::python {

namespace {

DeviceArrayObject* as_array(PyObject* o) { return reinterpret_cast<DeviceArrayObject*>(o); }

struct Selection {
  std::uintptr_t data = 0;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};
  bool all_integers = true;
};

bool select(DeviceArrayObject* self, PyObject* key, Selection* out) {
  PyRef owned_items(PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key));
  if (!owned_items) return false;
  PyObject* items = owned_items.get();
  Py_ssize_t n = PyTuple_GET_SIZE(items);
  int ellipses = 0, consumed = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* k = PyTuple_GET_ITEM(items, i);
    if (k == Py_Ellipsis)
      ++ellipses;
    else if (k == Py_None) {
      PyErr_SetString(PyExc_IndexError, "DeviceNDArray indexing does not support None (numpy.newaxis); use reshape");
      return false;
    } else
      ++consumed;
  }
  if (ellipses > 1) {
    PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
    return false;
  }
  if (consumed > self->ndim) {
    PyErr_Format(PyExc_IndexError, "too many indices for array: array is %d-dimensional, but %d were indexed",
                 self->ndim, consumed);
    return false;
  }
  out->data = self->data;
  int dim = 0;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* k = PyTuple_GET_ITEM(items, i);
    if (k == Py_Ellipsis) {
      int fill = self->ndim - consumed;
      for (int j = 0; j < fill; ++j, ++dim) {
        out->shape[out->ndim] = self->shape[dim];
        out->strides[out->ndim++] = self->strides[dim];
      }
      out->all_integers = false;
    } else if (PySlice_Check(k)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k, &start, &stop, &step) < 0) {
        return false;
      }
      Py_ssize_t len = PySlice_AdjustIndices(static_cast<Py_ssize_t>(self->shape[dim]), &start, &stop, step);
      out->data += static_cast<std::intptr_t>(len > 0 ? start * self->strides[dim] : 0);
      out->shape[out->ndim] = len;
      out->strides[out->ndim++] = self->strides[dim] * step;
      out->all_integers = false;
      ++dim;
    } else if (PyIndex_Check(k) && !PyBool_Check(k)) {
      Py_ssize_t idx = PyNumber_AsSsize_t(k, PyExc_IndexError);
      if (idx == -1 && PyErr_Occurred()) {
        return false;
      }
      std::int64_t extent = self->shape[dim];
      if (idx < 0) idx += extent;
      if (idx < 0 || idx >= extent) {
        PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for axis %d with size %lld",
                     PyNumber_AsSsize_t(k, nullptr), dim, static_cast<long long>(extent));
        return false;
      }
      out->data += static_cast<std::intptr_t>(idx * self->strides[dim]);
      ++dim;
    } else {
      PyErr_Format(PyExc_IndexError,
                   "only integers, slices (':') and ellipsis ('...') are valid indices of a DeviceNDArray (got %s)",
                   Py_TYPE(k)->tp_name);
      return false;
    }
  }
  for (; dim < self->ndim; ++dim) {
    out->shape[out->ndim] = self->shape[dim];
    out->strides[out->ndim++] = self->strides[dim];
    out->all_integers = false;
  }
  return true;
}

PyObject* view_of(DeviceArrayObject* self, const Selection& sel) {
  return new_device_view(self, nullptr, sel.data, sel.ndim, sel.shape, sel.strides, self->dtype, self->readonly,
                         self->stream);
}

}  // namespace

PyObject* device_array_view_of(DeviceArrayObject* self, PyObject* key) {
  Selection sel;
  if (!select(self, key, &sel)) return nullptr;
  return view_of(self, sel);
}

PyObject* device_array_subscript(PyObject* o, PyObject* key) {
  DeviceArrayObject* self = as_array(o);
  Selection sel;
  if (!select(self, key, &sel)) return nullptr;
  PyObject* view = view_of(self, sel);
  if (!view || !sel.all_integers) return view;
  // One element of a structured dtype: a DeviceRecord viewing it (numba-cuda).
  if (is_structured(self->dtype)) return wrap_device_record(view);
  PyRef element_view(view);
  // One element: read it back and return a NumPy scalar, as numba does.
  PyRef host(PyObject_CallMethod(numpy_module(), "empty", "NO", PyTuple_New(0), self->dtype));
  if (!host) return nullptr;
  HostRegion region;
  if (!host_region(host.get(), &region, true)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    copy_device_to_host(as_array(element_view.get()), region, 0, true);
    element_view = PyRef();
    PyRef empty(PyTuple_New(0));
    if (!empty) return nullptr;
    return PyObject_GetItem(host.get(), empty.get());
  });
}

namespace {
int do_setitem(DeviceArrayObject* self, PyObject* key, PyObject* value, PyObject* stream_arg);
}  // namespace

// a[key] = value: on the array's own stream when it has one (asynchronous),
// else on the default stream, waited for through the Stream object (numba).
int device_array_ass_subscript(PyObject* o, PyObject* key, PyObject* value) {
  return do_setitem(as_array(o), key, value, as_array(o)->stream);
}

// a.setitem(key, value, stream=0): numba's explicit-stream assignment.
PyObject* device_array_setitem(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"key", "value", "stream", nullptr};
  PyObject* key;
  PyObject* value;
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:setitem", const_cast<char**>(names), &key, &value, &stream))
    return nullptr;
  if (do_setitem(as_array(o), key, value, stream) < 0) return nullptr;
  Py_RETURN_NONE;
}

namespace {

// numba's rule for a value assigned to a view: no more dimensions than the
// view, and each of its trailing axes of length 1 or the view's length.
bool check_assignable(const DeviceArrayObject* dst, int ndim, const std::int64_t* shape) {
  if (ndim > dst->ndim) {
    PyErr_Format(PyExc_ValueError, "Can't assign %d-D array to %d-D self", ndim, dst->ndim);
    return false;
  }
  for (int i = 0; i < ndim; ++i) {
    int axis = dst->ndim - ndim + i;
    if (shape[i] != 1 && shape[i] != dst->shape[axis]) {
      PyErr_Format(PyExc_ValueError, "Can't copy sequence with size %lld to array axis %d with dimension %lld",
                   static_cast<long long>(shape[i]), axis, static_cast<long long>(dst->shape[axis]));
      return false;
    }
  }
  return true;
}

int do_setitem(DeviceArrayObject* self, PyObject* key, PyObject* value, PyObject* stream_arg) {
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "cannot delete elements of a DeviceNDArray");
    return -1;
  }
  if (self->readonly) {
    PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
    return -1;
  }
  std::uintptr_t stream = 0;
  bool synchronous = true;
  if (!array_copy_stream(self, stream_arg, &stream, &synchronous)) return -1;
  if (synchronous && !stream) stream = default_launch_stream();
  PyRef view(device_array_view_of(self, key));
  if (!view) return -1;
  DeviceArrayObject* dst = as_array(view.get());
  int rc = guarded(-1, [&]() -> int {
    if (is_device_array(value)) {
      DeviceArrayObject* src = as_array(value);
      bool same = src->ndim == dst->ndim && std::memcmp(src->shape, dst->shape, sizeof(std::int64_t) * dst->ndim) == 0;
      int eq = PyObject_RichCompareBool(src->dtype, dst->dtype, Py_EQ);
      if (!same && !check_assignable(dst, src->ndim, src->shape)) {
        // the error is set
      } else if (!same) {
        PyErr_SetString(PyExc_ValueError, "DeviceNDArray assignment: source and destination shapes differ");
      } else if (eq != 1) {
        if (eq == 0) PyErr_SetString(PyExc_TypeError, "DeviceNDArray assignment: source and destination dtypes differ");
      } else {
        copy_device_to_device(src, dst, stream, false);
        return 0;
      }
      return -1;
    }
    // Host value: convert to the dtype and broadcast to the view's shape.
    PyObject* np = numpy_module();
    PyRef host(PyObject_CallMethod(np, "asarray", "OO", value, self->dtype));
    if (!host) return -1;
    {
      PyRef value_shape(PyObject_GetAttrString(host.get(), "shape"));
      std::int64_t dims[kMaxDims] = {};
      Py_ssize_t n = value_shape ? PyTuple_Size(value_shape.get()) : -1;
      for (Py_ssize_t i = 0; i < n && i < kMaxDims; ++i)
        dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(value_shape.get(), i));
      if (n < 0 || PyErr_Occurred() || !check_assignable(dst, static_cast<int>(n), dims)) return -1;
    }
    PyRef shape(PyTuple_New(dst->ndim));
    if (!shape) return -1;
    for (int i = 0; i < dst->ndim; ++i) PyTuple_SET_ITEM(shape.get(), i, PyLong_FromLongLong(dst->shape[i]));
    PyRef wide(PyObject_CallMethod(np, "broadcast_to", "OO", host.get(), shape.get()));
    HostRegion region;
    if (!wide || !host_region(wide.get(), &region, false)) return -1;
    copy_host_to_device(region, dst, stream, false);
    return 0;
  });
  view = PyRef();
  if (rc == 0 && synchronous && !synchronize_through_stream_object(stream, "default")) rc = -1;
  return rc;
}

}  // namespace

namespace {

// Parses reshape's shape arguments: reshape(3, 4) or reshape((3, 4)), with
// one -1 inferred.
bool parse_new_shape(PyObject* args, std::int64_t total, int* ndim, std::int64_t* shape) {
  PyObject* src = args;
  if (PyTuple_GET_SIZE(args) == 1 && !PyIndex_Check(PyTuple_GET_ITEM(args, 0))) src = PyTuple_GET_ITEM(args, 0);
  PyRef seq(PySequence_Fast(src, "reshape: shape must be ints or a sequence of ints"));
  if (!seq) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  if (n > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "reshape: at most %d dimensions", kMaxDims);
    return false;
  }
  int unknown = -1;
  std::int64_t known = 1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    shape[i] = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq.get(), i), PyExc_OverflowError);
    if (PyErr_Occurred()) return false;
    if (shape[i] == -1) {
      if (unknown >= 0) {
        PyErr_SetString(PyExc_ValueError, "can only specify one unknown dimension");
        return false;
      }
      unknown = static_cast<int>(i);
    } else {
      known *= shape[i];
    }
  }
  *ndim = static_cast<int>(n);
  if (unknown >= 0 && known > 0 && total % known == 0)
    shape[unknown] = total / known;
  else if (unknown >= 0)
    known = -1;
  if ((unknown >= 0 && known < 0) || (unknown < 0 && known != total)) {
    PyErr_Format(PyExc_ValueError, "cannot reshape array of size %lld into the requested shape",
                 static_cast<long long>(total));
    return false;
  }
  return true;
}

bool parse_order(PyObject* order, char* out) {
  if (!order) {
    *out = 'C';
    return true;
  }
  const char* s = PyUnicode_Check(order) ? PyUnicode_AsUTF8(order) : nullptr;
  if (!s || (std::strcmp(s, "C") && std::strcmp(s, "F") && std::strcmp(s, "A"))) {
    PyErr_SetString(PyExc_ValueError, "order must be 'C', 'F' or 'A'");
    return false;
  }
  *out = s[0];
  return true;
}

}  // namespace

PyObject* device_array_reshape(PyObject* o, PyObject* args, PyObject* kwargs) {
  DeviceArrayObject* self = as_array(o);
  PyObject* order_obj = kwargs ? PyDict_GetItemString(kwargs, "order") : nullptr;
  char order;
  if (!parse_order(order_obj, &order)) return nullptr;
  int ndim = 0;
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  if (!parse_new_shape(args, element_count(self->ndim, self->shape), &ndim, shape)) return nullptr;
  bool c = is_c_contiguous(self->ndim, self->shape, self->strides, self->itemsize);
  bool f = is_f_contiguous(self->ndim, self->shape, self->strides, self->itemsize);
  if (order == 'A') order = c ? 'C' : 'F';
  if (order == 'C' && c)
    c_strides(ndim, shape, self->itemsize, strides);
  else if (order == 'F' && f)
    f_strides(ndim, shape, self->itemsize, strides);
  else {
    PyErr_SetString(PyExc_NotImplementedError,
                    "reshape of a non-contiguous DeviceNDArray (or in the other order) needs a copy: use "
                    "copy_to_host() or ravel() first");
    return nullptr;
  }
  return new_device_view(self, nullptr, self->data, ndim, shape, strides, self->dtype, self->readonly, self->stream);
}

PyObject* device_array_ravel(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"order", "stream", nullptr};
  PyObject* order_obj = nullptr;
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:ravel", const_cast<char**>(names), &order_obj, &stream))
    return nullptr;
  DeviceArrayObject* self = as_array(o);
  char order;
  if (!parse_order(order_obj, &order)) return nullptr;
  std::int64_t n = element_count(self->ndim, self->shape);
  std::int64_t stride = self->itemsize;
  bool c = is_c_contiguous(self->ndim, self->shape, self->strides, self->itemsize);
  bool f = is_f_contiguous(self->ndim, self->shape, self->strides, self->itemsize);
  if (order == 'A') order = f && !c ? 'F' : 'C';
  if ((order == 'C' && c) || (order == 'F' && f))
    return new_device_view(self, nullptr, self->data, 1, &n, &stride, self->dtype, self->readonly, self->stream);
  // Not contiguous in that order: numba-cuda refuses rather than copying
  // silently (a flat view must alias the array).
  PyErr_SetString(PyExc_NotImplementedError, "operation requires copying");
  return nullptr;
}

// numba's transpose: the identity permutation gives the array itself; a 2-D
// array gives a transposed *copy* (numba.cuda.kernels.transpose, so the
// result is C-contiguous); other ranks are not supported.
PyObject* device_array_transpose(PyObject* o, PyObject* args) {
  DeviceArrayObject* self = as_array(o);
  PyObject* axes = nullptr;
  if (args && PyTuple_GET_SIZE(args) > 0) {
    axes = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    if (axes == Py_None) axes = nullptr;
  }
  if (axes) {
    PyRef seq(PySequence_Fast(axes, "transpose: axes must be a sequence of ints"));
    if (!seq) return nullptr;
    bool identity = PySequence_Fast_GET_SIZE(seq.get()) == self->ndim;
    bool permutation = identity;
    bool seen[kMaxDims] = {};
    for (int i = 0; permutation && i < self->ndim; ++i) {
      long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq.get(), i));
      if (PyErr_Occurred() || a < 0 || a >= self->ndim || seen[a]) {
        PyErr_Clear();
        permutation = identity = false;
      } else {
        seen[a] = true;
        identity = identity && a == i;
      }
    }
    if (identity) return Py_NewRef(o);
    if (self->ndim == 2 && !permutation) {
      PyRef shown(PySequence_Tuple(axes));
      if (shown) PyErr_Format(PyExc_ValueError, "invalid axes list %R", shown.get());
      return nullptr;
    }
  }
  if (self->ndim != 2) {
    PyErr_SetString(PyExc_NotImplementedError, "transposing a non-2D DeviceNDArray isn't supported");
    return nullptr;
  }
  return call_hook(Hook::Transpose, PyRef(PyTuple_Pack(1, o))).release();
}

// view(dtype): the same bytes as another dtype; the last axis must be
// contiguous when the item size changes (numpy's rule).
PyObject* device_array_view_as(PyObject* o, PyObject* dtype_spec) {
  DeviceArrayObject* self = as_array(o);
  PyRef dtype(to_numpy_dtype(dtype_spec));
  if (!dtype) return nullptr;
  const ir::Type* scalar = nullptr;
  std::int64_t itemsize = 0;
  if (!describe_dtype(dtype.get(), &scalar, &itemsize)) return nullptr;
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  for (int i = 0; i < self->ndim; ++i) {
    shape[i] = self->shape[i];
    strides[i] = self->strides[i];
  }
  if (itemsize != self->itemsize) {
    // NumPy's rules and messages (ndarray.view).
    int last = self->ndim - 1;
    const char* problem = nullptr;
    if (last < 0)
      problem = "Changing the dtype of a 0d array is only supported if the itemsize is unchanged";
    else if (self->strides[last] != self->itemsize && self->shape[last] != 1)
      problem = "To change to a dtype of a different size, the last axis must be contiguous";
    else if (itemsize > self->itemsize && (self->shape[last] * self->itemsize) % itemsize != 0)
      problem =
          "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis "
          "of the array.";
    else if (itemsize < self->itemsize && self->itemsize % itemsize != 0)
      problem = "When changing to a smaller dtype, its size must be a divisor of the size of original dtype";
    if (problem) {
      PyErr_SetString(PyExc_ValueError, problem);
      return nullptr;
    }
    shape[last] = self->shape[last] * self->itemsize / itemsize;
    strides[last] = itemsize;
  }
  return new_device_view(self, nullptr, self->data, self->ndim, shape, strides, dtype.get(), self->readonly,
                         self->stream);
}

// bind(stream=0): the same view associated with another stream.
PyObject* device_array_bind(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"stream", nullptr};
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:bind", const_cast<char**>(names), &stream)) return nullptr;
  DeviceArrayObject* self = as_array(o);
  return new_device_view(self, nullptr, self->data, self->ndim, self->shape, self->strides, self->dtype, self->readonly,
                         stream);
}

// squeeze(axis=None): drops axes of length 1.
PyObject* device_array_squeeze(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"axis", "stream", nullptr};
  PyObject* axis = Py_None;
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:squeeze", const_cast<char**>(names), &axis, &stream))
    return nullptr;
  DeviceArrayObject* self = as_array(o);
  bool drop[kMaxDims] = {};
  if (axis == Py_None) {
    for (int i = 0; i < self->ndim; ++i) drop[i] = self->shape[i] == 1;
  } else {
    PyRef seq(PyLong_Check(axis) ? PyTuple_Pack(1, axis) : PySequence_Tuple(axis));
    if (!seq) return nullptr;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(seq.get()); ++k) {
      long a = PyLong_AsLong(PyTuple_GET_ITEM(seq.get(), k));
      if (a < 0) a += self->ndim;
      if (PyErr_Occurred() || a < 0 || a >= self->ndim || self->shape[a] != 1) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "squeeze: can only select axes of length 1");
        return nullptr;
      }
      drop[a] = true;
    }
  }
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  int n = 0;
  for (int i = 0; i < self->ndim; ++i)
    if (!drop[i]) {
      shape[n] = self->shape[i];
      strides[n++] = self->strides[i];
    }
  return new_device_view(self, nullptr, self->data, n, shape, strides, self->dtype, self->readonly,
                         stream ? stream : self->stream);
}

}  // namespace cuhost::python
