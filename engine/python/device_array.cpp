// The DeviceNDArray type: construction, attributes, copies to and from the
// host, contiguity queries and __cuda_array_interface__ (v3). Indexing lives
// in device_array_index.cpp, strided copies in device_array_copy.cpp.
#include "python/device_array.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "ir/array_layout.h"
#include "ir/layout.h"
#include "python/array_devices.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/record_dtype.h"
#include "python/stream_view.h"
#include "python/type_object.h"
#include "runtime/graph_capture.h"

namespace cuhost::python {

// ---- numpy and dtypes ----------------------------------------------------

PyObject* numpy_module() {
  static PyObject* np = nullptr;
  if (!np) np = PyImport_ImportModule("numpy");
  return np;
}

PyObject* numpy_ndarray_type() {
  static PyObject* t = nullptr;
  if (!t) {
    PyObject* np = numpy_module();
    if (!np) return nullptr;
    t = PyObject_GetAttrString(np, "ndarray");
  }
  return t;
}

PyObject* to_numpy_dtype(PyObject* spec) {
  PyObject* np = numpy_module();
  if (!np) return nullptr;
  return PyObject_CallMethod(np, "dtype", "O", spec);
}

const ir::Type* scalar_of_typestr(const char* t) {
  if (!t || !t[0]) return nullptr;
  if (t[0] == '>') return nullptr;  // big-endian data is not a kernel type
  const char* kind = (t[0] == '<' || t[0] == '|' || t[0] == '=') ? t + 1 : t;
  char k = kind[0];
  int size = std::atoi(kind + 1);
  switch (k) {
    case 'b': return size == 1 ? ir::boolean() : nullptr;
    case 'i': return (size == 1 || size == 2 || size == 4 || size == 8) ? ir::integer(size * 8, true) : nullptr;
    case 'u': return (size == 1 || size == 2 || size == 4 || size == 8) ? ir::integer(size * 8, false) : nullptr;
    case 'f': return size == 2 ? ir::float16() : size == 4 ? ir::float32() : size == 8 ? ir::float64() : nullptr;
    case 'c': return size == 8 ? ir::complex64() : size == 16 ? ir::complex128() : nullptr;
    case 'S': return size > 0 ? ir::char_seq(size, false) : nullptr;  // bytes, NUL-padded
    case 'U': return size > 0 ? ir::char_seq(size, true) : nullptr;   // UCS-4 code points (the size counts them)
    case 'M':
    case 'm': {
      // "M8[D]", "m8[ns]", "M8" (generic unit).
      if (size != 8) return nullptr;
      std::string unit;
      if (const char* open = std::strchr(kind, '[')) {
        const char* close = std::strchr(open, ']');
        if (!close) return nullptr;
        unit.assign(open + 1, close);
      }
      return k == 'M' ? ir::datetime64(unit) : ir::timedelta64(unit);
    }
    default: return nullptr;
  }
}

bool describe_dtype(PyObject* dtype, const ir::Type** scalar, std::int64_t* itemsize) {
  PyRef hasobject(PyObject_GetAttrString(dtype, "hasobject"));
  if (!hasobject) return false;
  if (PyObject_IsTrue(hasobject.get())) {
    PyErr_SetString(PyExc_TypeError, "a device array cannot hold Python objects (dtype 'object')");
    return false;
  }
  PyRef size(PyObject_GetAttrString(dtype, "itemsize"));
  if (!size) return false;
  *itemsize = PyLong_AsLongLong(size.get());
  if (*itemsize <= 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a device array needs a dtype with a fixed, non-zero size");
    return false;
  }
  PyRef str(PyObject_GetAttrString(dtype, "str"));
  if (!str) return false;
  *scalar = scalar_of_typestr(PyUnicode_AsUTF8(str.get()));
  if (!*scalar && *itemsize == 2) {
    // ml_dtypes' bfloat16 has an opaque typestr ('<V2'); its name says what it is.
    if (PyRef name{PyObject_GetAttrString(dtype, "name")}) {
      const char* n = PyUnicode_AsUTF8(name.get());
      if (n && std::string(n) == "bfloat16") *scalar = ir::bfloat16();
    }
    PyErr_Clear();
  }
  if (!*scalar) *scalar = record_type_of_dtype(dtype);  // structured: a record type, or none
  return !PyErr_Occurred();
}

// ---- geometry ------------------------------------------------------------

std::int64_t element_count(int ndim, const std::int64_t* shape) { return ir::element_count(ndim, shape); }

bool is_c_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  return ir::is_c_contiguous(ndim, shape, strides, itemsize);
}

bool is_f_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  return ir::is_f_contiguous(ndim, shape, strides, itemsize);
}

namespace {
void contiguous(int ndim, const std::int64_t* shape, std::int64_t itemsize, bool fortran, std::int64_t* strides) {
  std::vector<std::int64_t> s =
      ir::contiguous_strides(std::vector<std::int64_t>(shape, shape + ndim), itemsize, fortran);
  std::copy(s.begin(), s.end(), strides);
}
}  // namespace

void c_strides(int ndim, const std::int64_t* shape, std::int64_t itemsize, std::int64_t* strides) {
  contiguous(ndim, shape, itemsize, false, strides);
}

void f_strides(int ndim, const std::int64_t* shape, std::int64_t itemsize, std::int64_t* strides) {
  contiguous(ndim, shape, itemsize, true, strides);
}

ir::Layout layout_of(int ndim, const std::int64_t* shape, const std::int64_t* strides, int itemsize) {
  return ir::layout_of_strides(ndim, shape, strides, itemsize);
}

// ---- construction --------------------------------------------------------

namespace {

DeviceArrayObject* alloc_object() {
  auto* self = reinterpret_cast<DeviceArrayObject*>(DeviceArrayType.tp_alloc(&DeviceArrayType, 0));
  if (!self) return nullptr;
  new (&self->memory) std::shared_ptr<runtime::DeviceAllocation>();
  self->base = nullptr;
  self->dtype = nullptr;
  self->stream = nullptr;
  self->scalar = nullptr;
  self->kernel_type = nullptr;
  self->data = 0;
  self->itemsize = 0;
  self->device = -1;
  self->ndim = 0;
  self->readonly = false;
  return self;
}

bool set_dtype(DeviceArrayObject* self, PyObject* dtype) {
  if (!describe_dtype(dtype, &self->scalar, &self->itemsize)) return false;
  Py_INCREF(dtype);
  self->dtype = dtype;
  return true;
}

void set_stream(DeviceArrayObject* self, PyObject* stream) {
  if (!stream || stream == Py_None)
    stream = PyLong_FromLong(0);
  else
    Py_INCREF(stream);
  self->stream = stream;
}

bool check_ndim(int ndim) {
  if (ndim < 0 || ndim > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "device arrays have at most %d dimensions (got %d)", kMaxDims, ndim);
    return false;
  }
  return true;
}

}  // namespace

PyObject* new_device_array(int ndim, const std::int64_t* shape, const std::int64_t* strides, PyObject* dtype,
                           bool fortran, PyObject* stream) {
  if (!check_ndim(ndim)) return nullptr;
  for (int i = 0; i < ndim; ++i)
    if (shape[i] < 0) {
      PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
      return nullptr;
    }
  DeviceArrayObject* self = alloc_object();
  if (!self) return nullptr;
  PyRef result(reinterpret_cast<PyObject*>(self));
  if (!set_dtype(self, dtype)) return nullptr;
  set_stream(self, stream);
  self->ndim = ndim;
  for (int i = 0; i < ndim; ++i) self->shape[i] = shape[i];
  std::int64_t bytes = element_count(ndim, shape) * self->itemsize;
  if (strides) {
    // Explicit strides: allocate the span they reach (numba's alloc_size).
    std::int64_t span = self->itemsize;
    for (int i = 0; i < ndim; ++i) {
      if (strides[i] < 0) {
        PyErr_SetString(PyExc_ValueError, "device_array: negative strides need an existing allocation");
        return nullptr;
      }
      self->strides[i] = strides[i];
      if (shape[i] > 0) span += (shape[i] - 1) * strides[i];
    }
    bytes = element_count(ndim, shape) == 0 ? 0 : span;
  } else if (fortran) {
    f_strides(ndim, shape, self->itemsize, self->strides);
  } else {
    c_strides(ndim, shape, self->itemsize, self->strides);
  }
  // On failure `result` drops the half-built array.
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    self->memory = runtime::DeviceAllocation::allocate(static_cast<std::size_t>(bytes));
    self->data = self->memory->address();
    self->device = self->memory->device();
    return result.release();
  });
}

PyObject* new_device_view(DeviceArrayObject* owner, PyObject* base, std::uintptr_t data, int ndim,
                          const std::int64_t* shape, const std::int64_t* strides, PyObject* dtype, bool readonly,
                          PyObject* stream) {
  if (!check_ndim(ndim)) return nullptr;
  DeviceArrayObject* self = alloc_object();
  if (!self) return nullptr;
  PyRef result(reinterpret_cast<PyObject*>(self));
  if (!set_dtype(self, dtype)) return nullptr;
  set_stream(self, stream);
  self->device = owner ? owner->device : device_of_borrowed(data);
  if (owner) {
    self->memory = owner->memory;
    if (owner->base) {
      Py_INCREF(owner->base);
      self->base = owner->base;
    }
  } else if (base) {
    Py_INCREF(base);
    self->base = base;
  }
  self->data = data;
  self->ndim = ndim;
  self->readonly = readonly;
  for (int i = 0; i < ndim; ++i) {
    self->shape[i] = shape[i];
    self->strides[i] = strides[i];
  }
  return result.release();
}

// ---- the type --------------------------------------------------------------

namespace {

DeviceArrayObject* as_array(PyObject* o) { return reinterpret_cast<DeviceArrayObject*>(o); }

PyObject* int_tuple(int n, const std::int64_t* v) {
  PyObject* t = PyTuple_New(n);
  if (!t) return nullptr;
  for (int i = 0; i < n; ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(v[i]));
  return t;
}

// Parses a shape: an int or a sequence of ints.
bool parse_shape(PyObject* obj, int* ndim, std::int64_t* shape) {
  if (PyLong_Check(obj) || PyIndex_Check(obj)) {
    *ndim = 1;
    shape[0] = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    return !PyErr_Occurred();
  }
  PyRef seq(PySequence_Fast(obj, "shape must be an int or a sequence of ints"));
  if (!seq) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  if (n > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "device arrays have at most %d dimensions (got %zd)", kMaxDims, n);
    return false;
  }
  *ndim = static_cast<int>(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    shape[i] = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq.get(), i), PyExc_OverflowError);
    if (PyErr_Occurred()) return false;
  }
  return true;
}

// An array over memory described by a memory object (numba's gpu_data: a
// MemoryPointer or anything with device_ctypes_pointer), which the array
// keeps alive.
PyObject* view_of_memory(PyObject* memory, int ndim, const std::int64_t* shape, const std::int64_t* strides_in,
                         PyObject* dtype, PyObject* stream) {
  PyRef pointer(PyObject_GetAttrString(memory, "device_ctypes_pointer"));
  if (!pointer) return nullptr;
  PyRef value(PyObject_GetAttrString(pointer.get(), "value"));
  if (!value) return nullptr;
  std::uintptr_t address =
      value.get() == Py_None ? 0 : static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(value.get()));
  if (PyErr_Occurred()) return nullptr;
  PyRef size(PyObject_GetAttrString(dtype, "itemsize"));
  std::int64_t itemsize = size ? PyLong_AsLongLong(size.get()) : 0;
  if (PyErr_Occurred()) return nullptr;
  std::int64_t strides[kMaxDims];
  if (strides_in)
    for (int i = 0; i < ndim; ++i) strides[i] = strides_in[i];
  else
    c_strides(ndim, shape, itemsize, strides);
  return new_device_view(nullptr, memory, address, ndim, shape, strides, dtype, false, stream);
}

// DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None): numba's constructor.
PyObject* da_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"shape", "strides", "dtype", "stream", "gpu_data", nullptr};
  PyObject *shape_obj, *strides_obj, *dtype_obj, *stream = nullptr, *gpu_data = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|OO:DeviceNDArray", const_cast<char**>(names), &shape_obj,
                                   &strides_obj, &dtype_obj, &stream, &gpu_data))
    return nullptr;
  int ndim = 0, sndim = 0;
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  if (!parse_shape(shape_obj, &ndim, shape)) return nullptr;
  bool have_strides = strides_obj != Py_None;
  if (have_strides) {
    if (!parse_shape(strides_obj, &sndim, strides)) return nullptr;
    if (sndim != ndim) {
      PyErr_Format(PyExc_ValueError, "strides have %d entries for a %d-dimensional shape", sndim, ndim);
      return nullptr;
    }
  }
  PyRef dtype(to_numpy_dtype(dtype_obj));
  if (!dtype) return nullptr;
  return gpu_data == Py_None
             ? new_device_array(ndim, shape, have_strides ? strides : nullptr, dtype.get(), false, stream)
             : view_of_memory(gpu_data, ndim, shape, have_strides ? strides : nullptr, dtype.get(), stream);
}

void da_dealloc(PyObject* o) {
  DeviceArrayObject* self = as_array(o);
  self->memory.~shared_ptr();
  Py_CLEAR(self->base);
  Py_CLEAR(self->dtype);
  Py_CLEAR(self->stream);
  Py_TYPE(o)->tp_free(o);
}

PyObject* da_repr(PyObject* o) {
  DeviceArrayObject* self = as_array(o);
  PyRef shape(int_tuple(self->ndim, self->shape));
  if (!shape) return nullptr;
  return PyUnicode_FromFormat("<DeviceNDArray shape=%R dtype=%S at %p>", shape.get(), self->dtype,
                              reinterpret_cast<void*>(self->data));
}

PyObject* get_shape(PyObject* o, void*) { return int_tuple(as_array(o)->ndim, as_array(o)->shape); }
PyObject* get_strides(PyObject* o, void*) { return int_tuple(as_array(o)->ndim, as_array(o)->strides); }
PyObject* get_ndim(PyObject* o, void*) { return PyLong_FromLong(as_array(o)->ndim); }
PyObject* get_size(PyObject* o, void*) {
  return PyLong_FromLongLong(element_count(as_array(o)->ndim, as_array(o)->shape));
}
PyObject* get_itemsize(PyObject* o, void*) { return PyLong_FromLongLong(as_array(o)->itemsize); }
PyObject* get_nbytes(PyObject* o, void*) {
  return PyLong_FromLongLong(element_count(as_array(o)->ndim, as_array(o)->shape) * as_array(o)->itemsize);
}
PyObject* get_dtype(PyObject* o, void*) { return Py_NewRef(as_array(o)->dtype); }
PyObject* get_stream(PyObject* o, void*) { return Py_NewRef(as_array(o)->stream); }
PyObject* get_alloc_size(PyObject* o, void*) {
  DeviceArrayObject* self = as_array(o);
  return PyLong_FromSize_t(self->memory ? self->memory->size() : 0);
}
PyObject* get_pointer(PyObject* o, void*) { return PyLong_FromSize_t(as_array(o)->data); }
PyObject* get_transpose(PyObject* o, void*) { return device_array_transpose(o, nullptr); }

PyObject* get_interface(PyObject* o, void*) {
  DeviceArrayObject* self = as_array(o);
  PyObject* typestr = PyObject_GetAttrString(self->dtype, "str");
  if (!typestr) return nullptr;
  PyObject* shape = int_tuple(self->ndim, self->shape);
  PyObject* strides = is_c_contiguous(self->ndim, self->shape, self->strides, self->itemsize)
                          ? Py_NewRef(Py_None)
                          : int_tuple(self->ndim, self->strides);
  std::uintptr_t handle = 0;
  if (!PyLong_Check(self->stream) || PyLong_AsLongLong(self->stream) != 0) {
    if (!stream_handle(self->stream, &handle)) PyErr_Clear();
  }
  PyObject* stream = handle ? PyLong_FromSize_t(handle) : Py_NewRef(Py_None);
  PyObject* d = Py_BuildValue("{s:N,s:N,s:(NO),s:N,s:i,s:N}", "shape", shape, "strides", strides, "data",
                              PyLong_FromSize_t(self->data), self->readonly ? Py_True : Py_False, "typestr", typestr,
                              "version", 3, "stream", stream);
  return d;
}

Py_ssize_t da_length(PyObject* o) {
  DeviceArrayObject* self = as_array(o);
  if (self->ndim == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of unsized object");
    return -1;
  }
  return static_cast<Py_ssize_t>(self->shape[0]);
}

PyObject* m_is_c_contiguous(PyObject* o, PyObject*) {
  DeviceArrayObject* s = as_array(o);
  return PyBool_FromLong(is_c_contiguous(s->ndim, s->shape, s->strides, s->itemsize));
}
PyObject* m_is_f_contiguous(PyObject* o, PyObject*) {
  DeviceArrayObject* s = as_array(o);
  return PyBool_FromLong(is_f_contiguous(s->ndim, s->shape, s->strides, s->itemsize));
}

std::string shape_text(int ndim, const std::int64_t* shape) {
  std::string s = "(";
  for (int i = 0; i < ndim; ++i) s += std::to_string(shape[i]) + (ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
  return s + ")";
}

bool same_shape(int n1, const std::int64_t* s1, int n2, const std::int64_t* s2) {
  if (n1 != n2) return false;
  for (int i = 0; i < n1; ++i)
    if (s1[i] != s2[i]) return false;
  return true;
}

// Sets ValueError "<op>: shape mismatch: <a_name> <a>, <b_name> <b>" and
// returns false when the two shapes differ.
bool require_same_shape(const char* op, const char* a_name, int an, const std::int64_t* as, const char* b_name, int bn,
                        const std::int64_t* bs) {
  if (same_shape(an, as, bn, bs)) return true;
  PyErr_Format(PyExc_ValueError, "%s: shape mismatch: %s %s, %s %s", op, a_name, shape_text(an, as).c_str(), b_name,
               shape_text(bn, bs).c_str());
  return false;
}

// copy_to_host(ary=None, stream=0)
PyObject* m_copy_to_host(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"ary", "stream", nullptr};
  PyObject* ary = Py_None;
  PyObject* stream_arg = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:copy_to_host", const_cast<char**>(names), &ary, &stream_arg))
    return nullptr;
  DeviceArrayObject* self = as_array(o);
  // numba-cuda copies the array's extent in one memcpy and refuses views that
  // walk memory backwards (its issue #3705); its users see this error.
  for (int i = 0; i < self->ndim; ++i)
    if (self->strides[i] < 0) {
      PyRef strides(int_tuple(self->ndim, self->strides));
      if (strides)
        PyErr_Format(PyExc_NotImplementedError, "D->H copy not implemented for negative strides: %S", strides.get());
      return nullptr;
    }
  std::uintptr_t stream = 0;
  bool sync = true;
  if (!array_copy_stream(self, stream_arg, &stream, &sync)) return nullptr;
  PyRef host;
  if (ary == Py_None) {
    PyObject* shape = int_tuple(self->ndim, self->shape);
    bool fortran = !is_c_contiguous(self->ndim, self->shape, self->strides, self->itemsize) &&
                   is_f_contiguous(self->ndim, self->shape, self->strides, self->itemsize);
    host = PyRef(PyObject_CallMethod(numpy_module(), "empty", "NOs", shape, self->dtype, fortran ? "F" : "C"));
    if (!host) return nullptr;
  } else {
    PyObject* nd = numpy_ndarray_type();
    if (!nd) return nullptr;
    if (!PyObject_IsInstance(ary, nd)) {
      PyErr_Format(PyExc_TypeError, "copy_to_host: ary must be a numpy.ndarray, not %s", Py_TYPE(ary)->tp_name);
      return nullptr;
    }
    host = PyRef::borrow(ary);
  }
  HostRegion region;
  if (!host_region(host.get(), &region, true)) return nullptr;
  if (ary != Py_None) {
    PyRef dt(PyObject_GetAttrString(host.get(), "dtype"));
    if (!dt || !check_array_compatibility(geometry_of(self), self->dtype, geometry_of(region), dt.get()))
      return nullptr;
    if (element_count(self->ndim, self->shape) == 0) return host.release();
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::NamedOperation name("DeviceNDArray.copy_to_host()");
    copy_device_to_host(self, region, stream, sync);
    return host.release();
  });
}

// The array without its broadcast axes, as a view (the array itself when it has none).
PyObject* core_view(DeviceArrayObject* self) {
  ArrayGeometry core = array_core(geometry_of(self));
  bool same = true;
  for (int i = 0; i < self->ndim; ++i) same = same && core.shape[i] == self->shape[i];
  if (same) return Py_NewRef(reinterpret_cast<PyObject*>(self));
  return new_device_view(self, nullptr, self->data, core.ndim, core.shape, core.strides, self->dtype, self->readonly,
                         self->stream);
}

// copy_to_device(ary, stream=0): from a host array(-like) or another device
// array, with numba's rules (device_array_copy_rules.cpp): the destination's
// core must be contiguous; a device source too, with the same strides; a
// host source is first made contiguous in the destination's order.
PyObject* m_copy_to_device(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"ary", "stream", nullptr};
  PyObject* ary = nullptr;
  PyObject* stream_arg = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:copy_to_device", const_cast<char**>(names), &ary, &stream_arg))
    return nullptr;
  DeviceArrayObject* self = as_array(o);
  if (self->readonly) {
    PyErr_SetString(PyExc_ValueError, "copy_to_device: the device array is read-only");
    return nullptr;
  }
  std::uintptr_t stream = 0;
  bool sync = true;
  if (!array_copy_stream(self, stream_arg, &stream, &sync)) return nullptr;
  ArrayGeometry self_core = array_core(geometry_of(self));
  if (is_device_array(ary)) {
    DeviceArrayObject* src = as_array(ary);
    if (element_count(src->ndim, src->shape) == 0) Py_RETURN_NONE;
    if (!require_contiguous_core(geometry_of(self)) || !require_contiguous_core(geometry_of(src)) ||
        !check_array_compatibility(self_core, self->dtype, array_core(geometry_of(src)), src->dtype))
      return nullptr;
    PyRef dst_view(core_view(self));
    PyRef src_view(dst_view ? core_view(src) : nullptr);
    if (!src_view) return nullptr;
    if (!require_same_shape("copy_to_device", "destination", as_array(dst_view.get())->ndim,
                            as_array(dst_view.get())->shape, "source", as_array(src_view.get())->ndim,
                            as_array(src_view.get())->shape))
      return nullptr;
    return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
      runtime::NamedOperation name("DeviceNDArray.copy_to_device()");
      copy_device_to_device(as_array(src_view.get()), as_array(dst_view.get()), stream, sync);
      Py_RETURN_NONE;
    });
  }
  PyRef given(PyObject_CallMethod(numpy_module(), "asarray", "O", ary));
  if (!given) return nullptr;
  PyRef size(PyObject_GetAttrString(given.get(), "size"));
  long long count = size ? PyLong_AsLongLong(size.get()) : -1;
  if (count <= 0) {
    if (count == 0) Py_RETURN_NONE;
    return nullptr;
  }
  if (!require_contiguous_core(geometry_of(self))) return nullptr;
  // The host core (broadcast axes at index 0, kept as length 1), contiguous in the destination's order.
  PyRef host;
  {
    PyRef strides(PyObject_GetAttrString(given.get(), "strides"));
    Py_ssize_t n = strides ? PyTuple_Size(strides.get()) : -1;
    PyRef index(n >= 0 ? PyTuple_New(n) : nullptr);
    PyRef one(PyLong_FromLong(1));
    for (Py_ssize_t i = 0; index && one && i < n; ++i) {
      bool zero = PyLong_AsLongLong(PyTuple_GET_ITEM(strides.get(), i)) == 0;
      PyTuple_SET_ITEM(index.get(), i, PySlice_New(nullptr, zero ? one.get() : nullptr, nullptr));
    }
    PyRef core(index ? PyObject_GetItem(given.get(), index.get()) : nullptr);
    bool fortran = !is_c_contiguous(self_core.ndim, self_core.shape, self_core.strides, self_core.itemsize);
    PyRef asarray(core ? PyObject_GetAttrString(numpy_module(), "asarray") : nullptr);
    PyRef call_args(asarray ? PyTuple_Pack(1, core.get()) : nullptr);
    PyRef call_kwargs(call_args ? Py_BuildValue("{ss}", "order", fortran ? "F" : "C") : nullptr);
    host = PyRef(call_kwargs ? PyObject_Call(asarray.get(), call_args.get(), call_kwargs.get()) : nullptr);
  }
  given = PyRef();
  if (!host) return nullptr;
  HostRegion region;
  PyRef dt(PyObject_GetAttrString(host.get(), "dtype"));
  bool ok = dt && host_region(host.get(), &region, false) &&
            check_array_compatibility(self_core, self->dtype, array_core(geometry_of(region)), dt.get());
  PyRef dst_view(ok ? core_view(self) : nullptr);
  if (!dst_view || !require_same_shape("copy_to_device", "device array", as_array(dst_view.get())->ndim,
                                       as_array(dst_view.get())->shape, "host array", region.ndim, region.shape))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::NamedOperation name("DeviceNDArray.copy_to_device()");
    // A pageable host source must not be released before the copy read
    // it; a page-locked one (cuda.pinned_array) is copied asynchronously
    // on an explicit stream, as numba does. During a graph capture the
    // copy goes as asked, so a captured stream refuses pageable memory
    // for what it is.
    const bool wait = sync || (!runtime::capture_in_progress() && !host_region_page_locked(region));
    copy_host_to_device(region, as_array(dst_view.get()), stream, wait);
    Py_RETURN_NONE;
  });
}

// np.asarray(device_array): the data copied to the host (numba goes through
// copy_to_host too). NumPy 2's copy=False asks for no copy, which device
// memory cannot give: ValueError, numba-cuda's message.
PyObject* m_array(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"dtype", "copy", nullptr};
  PyObject* dtype = Py_None;
  PyObject* copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", const_cast<char**>(names), &dtype, &copy))
    return nullptr;
  if (copy == Py_False) {
    PyErr_SetString(PyExc_ValueError, "`copy=False` is not supported. A copy is always created.");
    return nullptr;
  }
  PyRef empty(PyTuple_New(0));
  if (!empty) return nullptr;
  PyRef host(m_copy_to_host(o, empty.get(), nullptr));
  if (!host || dtype == Py_None) return host.release();
  return PyObject_CallMethod(host.get(), "astype", "O", dtype);
}

PyObject* sq_item(PyObject* o, Py_ssize_t i) {
  PyRef index(PyLong_FromSsize_t(i));
  if (!index) return nullptr;
  return device_array_subscript(o, index.get());
}

// numba's DeviceNDArray.flags: the contiguity flags as a dict, with NumPy's
// rules (axes of length 1 do not count; empty arrays are both).
PyObject* get_flags(PyObject* o, void*) {
  auto* s = reinterpret_cast<DeviceArrayObject*>(o);
  bool c = is_c_contiguous(s->ndim, s->shape, s->strides, s->itemsize);
  bool f = is_f_contiguous(s->ndim, s->shape, s->strides, s->itemsize);
  return Py_BuildValue("{sOsO}", "C_CONTIGUOUS", c ? Py_True : Py_False, "F_CONTIGUOUS", f ? Py_True : Py_False);
}

// The numba type the array has as a kernel argument (the typeof_fallback
// hook: cuda.typing.typeof).
PyObject* get_numba_type(PyObject* o, void*) {
  return call_hook(Hook::TypeofFallback, PyRef(PyTuple_Pack(1, o))).release();
}

PyGetSetDef g_getset[] = {
    {"flags", get_flags, nullptr, "Contiguity flags: {'C_CONTIGUOUS': bool, 'F_CONTIGUOUS': bool}.", nullptr},
    {"_numba_type_", get_numba_type, nullptr, "The numba type of the array as a kernel argument.", nullptr},
    {"shape", get_shape, nullptr, "Shape (tuple of ints).", nullptr},
    {"strides", get_strides, nullptr, "Strides in bytes.", nullptr},
    {"ndim", get_ndim, nullptr, "Number of dimensions.", nullptr},
    {"size", get_size, nullptr, "Number of elements.", nullptr},
    {"itemsize", get_itemsize, nullptr, "Bytes per element.", nullptr},
    {"nbytes", get_nbytes, nullptr, "Bytes of the elements (size * itemsize).", nullptr},
    {"dtype", get_dtype, nullptr, "numpy.dtype of the elements.", nullptr},
    {"stream", get_stream, nullptr, "The stream the array is associated with (0 for none).", nullptr},
    {"alloc_size", get_alloc_size, nullptr, "Bytes of the underlying allocation.", nullptr},
    {"device_pointer", get_pointer, nullptr, "Address of the first element (int).", nullptr},
    {"gpu_data", device_array_gpu_data, nullptr, "The memory the array lies in (a MemoryPointer).", nullptr},
    {"device_ctypes_pointer", device_array_ctypes_pointer, nullptr, "The address of the data as a ctypes value.",
     nullptr},
    {"T", get_transpose, nullptr, "The transposed view.", nullptr},
    {"__cuda_array_interface__", get_interface, nullptr, "CUDA Array Interface, version 3.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef g_methods[] = {
    {"copy_to_host", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_copy_to_host)),
     METH_VARARGS | METH_KEYWORDS, "copy_to_host(ary=None, stream=0): copy to a (new) host array."},
    {"copy_to_device", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_copy_to_device)),
     METH_VARARGS | METH_KEYWORDS, "copy_to_device(ary, stream=0): copy from a host or device array."},
    {"setitem", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_setitem)),
     METH_VARARGS | METH_KEYWORDS, "setitem(key, value, stream=0): a[key] = value on `stream` (asynchronous)."},
    {"is_c_contiguous", m_is_c_contiguous, METH_NOARGS, "True when the view is C-contiguous."},
    {"is_f_contiguous", m_is_f_contiguous, METH_NOARGS, "True when the view is Fortran-contiguous."},
    {"reshape", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_reshape)),
     METH_VARARGS | METH_KEYWORDS, "reshape(*shape, order='C'): a view with a new shape (contiguous arrays)."},
    {"ravel", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_ravel)),
     METH_VARARGS | METH_KEYWORDS, "ravel(order='C', stream=0): a flat view (or copy when not contiguous)."},
    {"transpose", device_array_transpose, METH_VARARGS, "transpose(axes=None): a view with permuted axes."},
    {"view", device_array_view_as, METH_O, "view(dtype): the same memory seen as another dtype."},
    {"bind", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_bind)),
     METH_VARARGS | METH_KEYWORDS, "bind(stream=0): the same view associated with a stream."},
    {"squeeze", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_squeeze)),
     METH_VARARGS | METH_KEYWORDS, "squeeze(axis=None, stream=0): a view without axes of length 1."},
    {"get_ipc_handle", device_array_get_ipc_handle, METH_NOARGS,
     "An IpcArrayHandle to open the array in another process."},
    {"split", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(device_array_split)),
     METH_VARARGS | METH_KEYWORDS, "split(section, stream=0): views of consecutive pieces of `section` elements."},
    {"__array__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_array)), METH_VARARGS | METH_KEYWORDS,
     "The data as a host NumPy array (a copy)."},
    {nullptr, nullptr, 0, nullptr}};

PyMappingMethods g_mapping = {da_length, device_array_subscript, device_array_ass_subscript};
// Sequence slots make iteration (`for row in d`) work, one view per index.
PySequenceMethods g_sequence = [] {
  PySequenceMethods m{};
  m.sq_length = da_length;
  m.sq_item = sq_item;
  return m;
}();

}  // namespace

PyTypeObject DeviceArrayType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.DeviceNDArray";
  t.tp_basicsize = sizeof(DeviceArrayObject);
  t.tp_dealloc = da_dealloc;
  t.tp_repr = da_repr;
  t.tp_as_mapping = &g_mapping;
  t.tp_as_sequence = &g_sequence;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_doc = "An array in device memory (host memory on the CPU backend); numba's DeviceNDArray.";
  t.tp_methods = g_methods;
  t.tp_getset = g_getset;
  t.tp_new = da_new;
  return t;
}();

int add_device_arrays(PyObject* module) {
  if (PyType_Ready(&DeviceArrayType) < 0) return -1;
  return PyModule_AddObjectRef(module, "DeviceNDArray", reinterpret_cast<PyObject*>(&DeviceArrayType));
}

}  // namespace cuhost::python
