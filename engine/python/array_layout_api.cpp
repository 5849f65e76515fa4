// `_cuhost._layout_*`: the strided layout arithmetic of ir/array_layout.h
// for Python, so that numba's data-less array model
// (cuda/cudadrv/dummyarray.py) computes with the same code as DeviceNDArray.
// A layout crosses as (offset, shape, strides, itemsize); results come back
// as tuples of ints. Also the reading of index keys both share.
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/array_layout.h"
#include "python/array_index_items.h"
#include "python/module.h"
#include "python/py_api.h"

namespace cuhost::python {

bool index_items_of(PyObject* key, const char* owner, std::vector<ir::IndexItem>* out) {
  PyRef items(PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key));
  if (!items) return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items.get()); ++i) {
    PyObject* k = PyTuple_GET_ITEM(items.get(), i);
    if (k == Py_Ellipsis) {
      out->push_back(ir::IndexItem::ellipsis());
    } else if (k == Py_None) {
      PyErr_Format(PyExc_IndexError, "%s indexing does not support None (numpy.newaxis); use reshape", owner);
      return false;
    } else if (PySlice_Check(k)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k, &start, &stop, &step) < 0) return false;
      // PySlice_Unpack gives absent bounds as extremes, which resolve_slice
      // clamps as it does None.
      out->push_back(ir::IndexItem::slice(start, stop, step));
    } else if (PyIndex_Check(k) && !PyBool_Check(k)) {
      Py_ssize_t idx = PyNumber_AsSsize_t(k, PyExc_IndexError);
      if (idx == -1 && PyErr_Occurred()) return false;
      out->push_back(ir::IndexItem::integer(idx));
    } else {
      PyErr_Format(PyExc_IndexError,
                   "only integers, slices (':') and ellipsis ('...') are valid indices of a%s %s (got %s)",
                   owner[0] == 'A' ? "n" : "", owner, Py_TYPE(k)->tp_name);
      return false;
    }
  }
  return true;
}

namespace {

bool ints_of(PyObject* seq_obj, std::vector<std::int64_t>* out, const char* what) {
  PyRef seq(PySequence_Fast(seq_obj, what));
  if (!seq) return false;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    Py_ssize_t v = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq.get(), i), PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) return false;
    out->push_back(v);
  }
  return true;
}

// The layout of the arguments (offset, shape, strides, itemsize).
bool layout_of(PyObject* args, ir::StridedLayout* out, PyObject** rest = nullptr, Py_ssize_t nrest = 0) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n != 4 + nrest) {
    PyErr_Format(PyExc_TypeError, "expected %zd arguments (offset, shape, strides, itemsize, ...), got %zd", 4 + nrest,
                 n);
    return false;
  }
  Py_ssize_t offset = PyNumber_AsSsize_t(PyTuple_GET_ITEM(args, 0), PyExc_OverflowError);
  if (offset == -1 && PyErr_Occurred()) return false;
  Py_ssize_t itemsize = PyNumber_AsSsize_t(PyTuple_GET_ITEM(args, 3), PyExc_OverflowError);
  if (itemsize == -1 && PyErr_Occurred()) return false;
  out->offset = offset;
  out->itemsize = itemsize;
  if (!ints_of(PyTuple_GET_ITEM(args, 1), &out->shape, "shape must be a sequence of ints") ||
      !ints_of(PyTuple_GET_ITEM(args, 2), &out->strides, "strides must be a sequence of ints"))
    return false;
  if (out->shape.size() != out->strides.size()) {
    PyErr_SetString(PyExc_ValueError, "shape and strides differ in length");
    return false;
  }
  for (Py_ssize_t i = 0; i < nrest; ++i) rest[i] = PyTuple_GET_ITEM(args, 4 + i);
  return true;
}

PyObject* int_tuple(const std::vector<std::int64_t>& v) {
  PyRef t(PyTuple_New(static_cast<Py_ssize_t>(v.size())));
  if (!t) return nullptr;
  for (std::size_t i = 0; i < v.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(v[i]);
    if (!item) return nullptr;
    PyTuple_SET_ITEM(t.get(), static_cast<Py_ssize_t>(i), item);
  }
  return t.release();
}

// (offset, shape, strides) of a result layout.
PyObject* placed(const ir::StridedLayout& a) {
  PyRef shape(int_tuple(a.shape)), strides(int_tuple(a.strides));
  if (!shape || !strides) return nullptr;
  return Py_BuildValue("LOO", static_cast<long long>(a.offset), shape.get(), strides.get());
}

bool order_of(PyObject* o, char* out) {
  const char* s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : nullptr;
  if (!s || !s[0] || s[1] || (s[0] != 'C' && s[0] != 'F' && s[0] != 'A')) {
    PyErr_Clear();
    PyErr_SetString(PyExc_ValueError, "order not C|F|A");
    return false;
  }
  *out = s[0];
  return true;
}

// _layout_describe(offset, shape, strides, itemsize) -> (size, (begin, end),
// c_contiguous, f_contiguous, dims): dims as numba's Dim fields (start, stop,
// size, stride), the offset carried by the first axis.
PyObject* py_describe(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  if (!layout_of(args, &a)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    ir::Extent e = ir::extent(a);
    ir::Contiguity c = ir::contiguity(a);
    PyRef dims(PyTuple_New(a.ndim()));
    if (!dims) return nullptr;
    for (int k = 0; k < a.ndim(); ++k) {
      std::int64_t start = k == 0 ? a.offset : 0;
      PyObject* d = Py_BuildValue("LLLL", static_cast<long long>(start),
                                  static_cast<long long>(start + a.shape[k] * a.strides[k]),
                                  static_cast<long long>(a.shape[k]), static_cast<long long>(a.strides[k]));
      if (!d) return nullptr;
      PyTuple_SET_ITEM(dims.get(), k, d);
    }
    return Py_BuildValue("L(LL)OOO", static_cast<long long>(a.size()), static_cast<long long>(e.begin),
                         static_cast<long long>(e.end), c.c ? Py_True : Py_False, c.f ? Py_True : Py_False, dims.get());
  });
}

// _layout_index(offset, shape, strides, itemsize, key) -> (offset, shape,
// strides, element): the view a basic index selects.
PyObject* py_index(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  PyObject* key = nullptr;
  if (!layout_of(args, &a, &key, 1)) return nullptr;
  std::vector<ir::IndexItem> items;
  if (!index_items_of(key, "Array", &items)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    ir::IndexedView v = ir::select(a, items);
    PyRef view(placed(v.layout));
    if (!view) return nullptr;
    return Py_BuildValue("OOOO", PyTuple_GET_ITEM(view.get(), 0), PyTuple_GET_ITEM(view.get(), 1),
                         PyTuple_GET_ITEM(view.get(), 2), v.element ? Py_True : Py_False);
  });
}

// _layout_reshape(offset, shape, strides, itemsize, newshape, order) ->
// (offset, shape, strides) without a copy (numba's errors otherwise).
PyObject* py_reshape(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  PyObject* rest[2];
  if (!layout_of(args, &a, rest, 2)) return nullptr;
  std::vector<std::int64_t> shape;
  char order;
  if (!ints_of(rest[0], &shape, "the new shape must be a sequence of ints") || !order_of(rest[1], &order))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return placed(ir::reshape(a, shape, order)); });
}

// _layout_squeeze(offset, shape, strides, itemsize, axes) -> (offset, shape,
// strides): axes None drops every length-1 axis.
PyObject* py_squeeze(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  PyObject* axes_obj = nullptr;
  if (!layout_of(args, &a, &axes_obj, 1)) return nullptr;
  std::optional<std::vector<std::int64_t>> axes;
  if (axes_obj != Py_None) {
    axes.emplace();
    if (!ints_of(axes_obj, &*axes, "axis must be an int or a tuple of ints")) return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return placed(ir::squeeze(a, axes)); });
}

// _layout_ravel(offset, shape, strides, itemsize, order) -> (offset, shape,
// strides), or None when the array is not contiguous in that order.
PyObject* py_ravel(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  PyObject* order_obj = nullptr;
  char order;
  if (!layout_of(args, &a, &order_obj, 1) || !order_of(order_obj, &order)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::optional<ir::StridedLayout> flat = ir::ravel(a, order);
    if (!flat) Py_RETURN_NONE;
    return placed(*flat);
  });
}

// _layout_contiguous_extents(offset, shape, strides, itemsize) -> [(begin, end), ...]
PyObject* py_contiguous_extents(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  if (!layout_of(args, &a)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<ir::Extent> extents = ir::contiguous_extents(a);
    PyRef list(PyList_New(static_cast<Py_ssize_t>(extents.size())));
    if (!list) return nullptr;
    for (std::size_t i = 0; i < extents.size(); ++i) {
      PyObject* e =
          Py_BuildValue("(LL)", static_cast<long long>(extents[i].begin), static_cast<long long>(extents[i].end));
      if (!e) return nullptr;
      PyList_SET_ITEM(list.get(), static_cast<Py_ssize_t>(i), e);
    }
    return list.release();
  });
}

// _layout_nocopy_strides(offset, shape, strides, itemsize, newshape, fortran)
// -> the strides of newshape over the same memory, or None.
PyObject* py_nocopy_strides(PyObject*, PyObject* args) {
  ir::StridedLayout a;
  PyObject* rest[2];
  if (!layout_of(args, &a, rest, 2)) return nullptr;
  std::vector<std::int64_t> shape;
  if (!ints_of(rest[0], &shape, "the new shape must be a sequence of ints")) return nullptr;
  int fortran = PyObject_IsTrue(rest[1]);
  if (fortran < 0) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::optional<std::vector<std::int64_t>> strides = ir::nocopy_strides(a, shape, fortran != 0);
    if (!strides) Py_RETURN_NONE;
    return int_tuple(*strides);
  });
}

// _layout_contiguous_strides(shape, itemsize, fortran) -> numba's strides of
// a C- (F-) contiguous array of shape (lengths taken as they are).
PyObject* py_contiguous_strides(PyObject*, PyObject* args) {
  PyObject* shape_obj;
  long long itemsize;
  int fortran;
  if (!PyArg_ParseTuple(args, "OLp:_layout_contiguous_strides", &shape_obj, &itemsize, &fortran)) return nullptr;
  std::vector<std::int64_t> shape;
  if (!ints_of(shape_obj, &shape, "shape must be a sequence of ints")) return nullptr;
  return int_tuple(ir::contiguous_strides(shape, itemsize, fortran != 0, false));
}

// _layout_element_offset(offset, strides, indices) -> the byte offset of the
// element at indices.
PyObject* py_element_offset(PyObject*, PyObject* args) {
  long long offset;
  PyObject* strides_obj;
  PyObject* indices_obj;
  if (!PyArg_ParseTuple(args, "LOO:_layout_element_offset", &offset, &strides_obj, &indices_obj)) return nullptr;
  ir::StridedLayout a;
  a.offset = offset;
  std::vector<std::int64_t> indices;
  if (!ints_of(strides_obj, &a.strides, "strides must be a sequence of ints") ||
      !ints_of(indices_obj, &indices, "indices must be a sequence of ints"))
    return nullptr;
  a.shape.assign(a.strides.size(), 1);
  return PyLong_FromLongLong(ir::element_offset(a, indices));
}

PyMethodDef g_methods[] = {
    {"_layout_describe", py_describe, METH_VARARGS, "Size, extent, contiguity and dims of a strided layout."},
    {"_layout_index", py_index, METH_VARARGS, "The view of a strided layout a basic index selects."},
    {"_layout_reshape", py_reshape, METH_VARARGS, "A strided layout reshaped without a copy."},
    {"_layout_squeeze", py_squeeze, METH_VARARGS, "A strided layout without length-1 axes."},
    {"_layout_ravel", py_ravel, METH_VARARGS, "The 1-d view of a contiguous layout, or None."},
    {"_layout_contiguous_extents", py_contiguous_extents, METH_VARARGS,
     "The byte ranges a strided layout's elements occupy."},
    {"_layout_nocopy_strides", py_nocopy_strides, METH_VARARGS,
     "The strides of a new shape over the same memory, or None."},
    {"_layout_contiguous_strides", py_contiguous_strides, METH_VARARGS, "The strides of a contiguous array."},
    {"_layout_element_offset", py_element_offset, METH_VARARGS, "The byte offset of one element."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_array_layout(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
