// Indexing of DeviceNDArray: basic slicing and integer indexing give views
// sharing the allocation (numba's semantics; an all-integer index reads one
// element back as a NumPy scalar), assignment writes scalars, host arrays
// (broadcast to the view) or device arrays into the selected view; plus
// reshape, ravel and transpose.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ir/array_layout.h"
#include "python/array_index_items.h"
#include "python/device_array.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/stream_view.h"
#include "python/streams.h"

namespace cuhost::python {

namespace {

DeviceArrayObject* as_array(PyObject* o) { return reinterpret_cast<DeviceArrayObject*>(o); }

// The array's layout relative to its data pointer (ir/array_layout.h).
ir::StridedLayout layout_of(const DeviceArrayObject* a) {
  ir::StridedLayout l;
  l.itemsize = a->itemsize;
  l.shape.assign(a->shape, a->shape + a->ndim);
  l.strides.assign(a->strides, a->strides + a->ndim);
  return l;
}

// A view of `self` with `layout` (its offset relative to self's data).
PyObject* view_with(DeviceArrayObject* self, const ir::StridedLayout& layout, PyObject* stream) {
  return new_device_view(self, nullptr, self->data + static_cast<std::uintptr_t>(layout.offset), layout.ndim(),
                         layout.shape.data(), layout.strides.data(), self->dtype, self->readonly, stream);
}

struct Selection {
  ir::StridedLayout layout;
  bool all_integers = true;
};

bool select(DeviceArrayObject* self, PyObject* key, Selection* out) {
  std::vector<ir::IndexItem> items;
  if (!index_items_of(key, "DeviceNDArray", &items)) return false;
  return guarded(false, [&] {
    ir::IndexedView view = ir::select(layout_of(self), items);
    out->layout = std::move(view.layout);
    out->all_integers = view.element;
    return true;
  });
}

PyObject* view_of(DeviceArrayObject* self, const Selection& sel) { return view_with(self, sel.layout, self->stream); }

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

// Reads reshape's shape arguments: reshape(3, 4) or reshape((3, 4)), with
// one -1 resolved by the layout unit.
bool parse_new_shape(PyObject* args, std::int64_t total, std::vector<std::int64_t>* shape) {
  PyObject* src = args;
  if (PyTuple_GET_SIZE(args) == 1 && !PyIndex_Check(PyTuple_GET_ITEM(args, 0))) src = PyTuple_GET_ITEM(args, 0);
  PyRef seq(PySequence_Fast(src, "reshape: shape must be ints or a sequence of ints"));
  if (!seq) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  if (n > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "reshape: at most %d dimensions", kMaxDims);
    return false;
  }
  std::vector<std::int64_t> requested;
  for (Py_ssize_t i = 0; i < n; ++i) {
    requested.push_back(PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq.get(), i), PyExc_OverflowError));
    if (PyErr_Occurred()) return false;
  }
  ir::ResolvedShape resolved = ir::resolve_new_shape(requested, total);
  if (resolved.problem == ir::ShapeProblem::TwoUnknown) {
    PyErr_SetString(PyExc_ValueError, ir::shape_problem_message(resolved.problem));
    return false;
  }
  if (resolved.problem != ir::ShapeProblem::None) {
    PyErr_Format(PyExc_ValueError, "cannot reshape array of size %lld into the requested shape",
                 static_cast<long long>(total));
    return false;
  }
  *shape = std::move(resolved.shape);
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
  ir::StridedLayout layout = layout_of(self);
  std::vector<std::int64_t> shape;
  if (!parse_new_shape(args, layout.size(), &shape)) return nullptr;
  // numba-cuda reshapes only arrays contiguous in the order asked for (a
  // view of another layout would not cover one extent).
  ir::Contiguity contiguous = ir::contiguity(layout);
  order = ir::resolve_order(order, contiguous);
  if ((order == 'C' && !contiguous.c) || (order == 'F' && !contiguous.f)) {
    PyErr_SetString(PyExc_NotImplementedError,
                    "reshape of a non-contiguous DeviceNDArray (or in the other order) needs a copy: use "
                    "copy_to_host() or ravel() first");
    return nullptr;
  }
  layout.strides = ir::contiguous_strides(shape, self->itemsize, order == 'F');
  layout.shape = std::move(shape);
  return view_with(self, layout, self->stream);
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
  if (std::optional<ir::StridedLayout> flat = ir::ravel(layout_of(self), order))
    return view_with(self, *flat, self->stream);
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

// squeeze(axis=None): drops axes of length 1 (all, or those in `axis`).
PyObject* device_array_squeeze(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"axis", "stream", nullptr};
  PyObject* axis = Py_None;
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:squeeze", const_cast<char**>(names), &axis, &stream))
    return nullptr;
  DeviceArrayObject* self = as_array(o);
  std::optional<std::vector<std::int64_t>> axes;
  if (axis != Py_None) {
    PyRef seq(PyIndex_Check(axis) ? PyTuple_Pack(1, axis) : PySequence_Tuple(axis));
    if (!seq) return nullptr;
    axes.emplace();
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(seq.get()); ++k) {
      Py_ssize_t a = PyNumber_AsSsize_t(PyTuple_GET_ITEM(seq.get(), k), PyExc_OverflowError);
      if (a == -1 && PyErr_Occurred()) return nullptr;
      axes->push_back(a);
    }
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    return view_with(self, ir::squeeze(layout_of(self), axes), stream ? stream : self->stream);
  });
}

}  // namespace cuhost::python
