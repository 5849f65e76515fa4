// The launcher's view of array arguments (array_view.h): DeviceNDArray by a
// type check, any other object through its __cuda_array_interface__ (v0-v3,
// validated field by field), host NumPy arrays through the buffer protocol,
// and the staging copies the launcher makes of host arrays.
#include <cstring>

#include "python/array_view.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "runtime/device_memory.h"

namespace cuhost::python {

namespace {

// An attribute that may be absent: 1 found, 0 absent (no error set), -1 error
// (PyObject_GetOptionalAttr from Python 3.13, _PyObject_LookupAttr before).
int optional_attribute(PyObject* obj, PyObject* name, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyObject_GetOptionalAttr(obj, name, result);
#else
  return _PyObject_LookupAttr(obj, name, result);
#endif
}

bool interface_error(const char* detail) {
  PyErr_Format(PyExc_TypeError, "malformed __cuda_array_interface__: %s", detail);
  return false;
}

bool int_items(PyObject* tuple, const char* field, int* n, std::int64_t* out) {
  if (!PyTuple_Check(tuple)) {
    PyErr_Format(PyExc_TypeError, "malformed __cuda_array_interface__: '%s' must be a tuple of ints, not %s", field,
                 Py_TYPE(tuple)->tp_name);
    return false;
  }
  Py_ssize_t size = PyTuple_GET_SIZE(tuple);
  if (size > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "__cuda_array_interface__: '%s' has %zd entries; at most %d dimensions", field, size,
                 kMaxDims);
    return false;
  }
  for (Py_ssize_t i = 0; i < size; ++i) {
    PyObject* v = PyTuple_GET_ITEM(tuple, i);
    if (!PyLong_Check(v)) {
      PyErr_Format(PyExc_TypeError, "malformed __cuda_array_interface__: '%s' must hold ints, found %s", field,
                   Py_TYPE(v)->tp_name);
      return false;
    }
    out[i] = PyLong_AsLongLong(v);
    if (PyErr_Occurred()) return false;
  }
  *n = static_cast<int>(size);
  return true;
}

// The interface's keys, interned once: looking them up with
// PyDict_GetItemString made a new str (and its hash) per key per launch.
struct InterfaceKeys {
  PyObject* shape = PyUnicode_InternFromString("shape");
  PyObject* typestr = PyUnicode_InternFromString("typestr");
  PyObject* data = PyUnicode_InternFromString("data");
  PyObject* version = PyUnicode_InternFromString("version");
  PyObject* strides = PyUnicode_InternFromString("strides");
  PyObject* mask = PyUnicode_InternFromString("mask");
  PyObject* stream = PyUnicode_InternFromString("stream");
};

const InterfaceKeys& interface_keys() {
  static const InterfaceKeys keys;  // first used with the GIL held; lives for the process
  return keys;
}

}  // namespace

bool parse_array_interface(PyObject* dict, InterfaceInfo* out) {
  if (!PyDict_Check(dict)) {
    PyErr_Format(PyExc_TypeError, "__cuda_array_interface__ must be a dict, not %s", Py_TYPE(dict)->tp_name);
    return false;
  }
  const InterfaceKeys& keys = interface_keys();
  PyObject* shape = PyDict_GetItemWithError(dict, keys.shape);
  if (!shape && PyErr_Occurred()) return false;
  if (!shape) return interface_error("missing 'shape'");
  if (!int_items(shape, "shape", &out->ndim, out->shape)) return false;
  for (int i = 0; i < out->ndim; ++i)
    if (out->shape[i] < 0) return interface_error("'shape' has a negative extent");
  PyObject* typestr = PyDict_GetItemWithError(dict, keys.typestr);
  if (!typestr && PyErr_Occurred()) return false;
  if (!typestr || !PyUnicode_Check(typestr)) return interface_error("'typestr' must be a str such as '<f4'");
  out->typestr = typestr;
  const char* ts = PyUnicode_AsUTF8(typestr);
  out->scalar = scalar_of_typestr(ts);
  const char* digits = ts + ((ts[0] == '<' || ts[0] == '>' || ts[0] == '|' || ts[0] == '=') ? 2 : 1);
  out->itemsize = std::atoi(digits);
  if (out->itemsize <= 0) {
    PyErr_Format(PyExc_TypeError, "malformed __cuda_array_interface__: typestr '%s' has no item size", ts);
    return false;
  }
  PyObject* data = PyDict_GetItemWithError(dict, keys.data);
  if (!data && PyErr_Occurred()) return false;
  if (!data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2 || !PyLong_Check(PyTuple_GET_ITEM(data, 0)))
    return interface_error("'data' must be a tuple (pointer: int, read_only: bool)");
  out->data = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data, 0)));
  int ro = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
  if (ro < 0) return false;
  out->readonly = ro != 0;
  PyObject* version = PyDict_GetItemWithError(dict, keys.version);
  if (!version && PyErr_Occurred()) return false;
  if (!version || !PyLong_Check(version)) return interface_error("missing integer 'version'");
  PyObject* strides = PyDict_GetItemWithError(dict, keys.strides);
  if (!strides && PyErr_Occurred()) return false;
  if (!strides || strides == Py_None) {
    c_strides(out->ndim, out->shape, out->itemsize, out->strides);
  } else {
    int n = 0;
    if (!int_items(strides, "strides", &n, out->strides)) return false;
    if (n != out->ndim) return interface_error("'strides' and 'shape' have different lengths");
  }
  PyObject* mask = PyDict_GetItemWithError(dict, keys.mask);
  if (!mask && PyErr_Occurred()) return false;
  if (mask && mask != Py_None) {
    PyErr_SetString(PyExc_NotImplementedError,
                    "Masked arrays are not supported (the __cuda_array_interface__ has a 'mask')");
    return false;
  }
  PyObject* stream = PyDict_GetItemWithError(dict, keys.stream);
  if (!stream && PyErr_Occurred()) return false;
  out->stream = 0;
  if (stream && stream != Py_None) {
    if (!PyLong_Check(stream)) return interface_error("'stream' must be an int or None");
    out->stream = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(stream));
    if (out->stream == 0) return interface_error("'stream' 0 is disallowed by the interface (use None)");
  }
  return true;
}

const ir::Type* device_array_type(DeviceArrayObject* a) {
  if (!a->kernel_type)
    a->kernel_type = ir::array(a->scalar, a->ndim,
                               layout_of(a->ndim, a->shape, a->strides, static_cast<int>(a->itemsize)), a->readonly);
  return a->kernel_type;
}

namespace {

// An opaque typestr ('<V2') says only the item size; the producer's own
// dtype may say more: CuPy's arrays of ml_dtypes' bfloat16 export '<V2' and
// carry that dtype. Null when it says nothing either.
const ir::Type* opaque_scalar_of_producer(PyObject* obj, std::int64_t itemsize) {
  if (itemsize != 2) return nullptr;
  PyRef dtype(PyObject_GetAttrString(obj, "dtype"));
  if (!dtype) {
    PyErr_Clear();
    return nullptr;
  }
  const ir::Type* scalar = nullptr;
  std::int64_t size = 0;
  if (!describe_dtype(dtype.get(), &scalar, &size) || size != itemsize) scalar = nullptr;
  PyErr_Clear();
  return scalar && scalar->kind == ir::TypeKind::Float ? scalar : nullptr;
}

// A producer whose __cuda_array_interface__ refuses its own dtype with a
// TypeError (PyTorch's bfloat16 tensors) and exports DLPack: the DLPack view.
// The capsule is released here; the producer, an argument of the launch,
// keeps the memory alive.
bool dlpack_fallback_view(PyObject* obj, ArrayView* out) {
  static PyObject* dlpack = PyUnicode_InternFromString("__dlpack__");
  PyObject* found = nullptr;
  if (optional_attribute(obj, dlpack, &found) <= 0) return false;  // the TypeError stays set
  PyRef method(found);
  PyObject* saved_type = nullptr;
  PyObject* saved_value = nullptr;
  PyObject* saved_tb = nullptr;
  PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
  PyRef type_ref(saved_type), value_ref(saved_value), tb_ref(saved_tb);
  PyRef capsule(PyObject_CallNoArgs(method.get()));
  if (!capsule) {  // DLPack fails too: the interface's own error says more
    PyErr_Clear();
    PyErr_Restore(type_ref.release(), value_ref.release(), tb_ref.release());
    return false;
  }
  return dlpack_array_view(capsule.get(), out);
}

}  // namespace

bool device_array_view(PyObject* obj, ArrayView* out) {
  if (is_device_array(obj)) {
    auto* a = reinterpret_cast<DeviceArrayObject*>(obj);
    if (!a->scalar) {
      PyErr_Format(PyExc_TypeError, "arrays of dtype %S cannot be passed to kernels", a->dtype);
      return false;
    }
    out->data = reinterpret_cast<void*>(a->data);
    out->ndim = a->ndim;
    for (int i = 0; i < a->ndim; ++i) {  // a loop: cheaper than memcpy calls for a few extents
      out->shape[i] = a->shape[i];
      out->strides[i] = a->strides[i];
    }
    out->dtype = a->scalar;
    out->readonly = a->readonly;
    out->layout = device_array_type(a)->layout;
    out->device = a->device;
    out->order = a->memory ? a->memory->order() : nullptr;
    return true;
  }
  if (PyLong_Check(obj) || PyFloat_Check(obj) || PyBool_Check(obj)) return false;
  if (PyCapsule_CheckExact(obj)) return dlpack_array_view(obj, out);
  // Plain NumPy arrays are the common non-device argument: skip the lookup.
  PyObject* ndarray = numpy_ndarray_type();
  if (!ndarray) PyErr_Clear();
  if (ndarray && Py_TYPE(obj) == reinterpret_cast<PyTypeObject*>(ndarray)) return false;
  static PyObject* name = PyUnicode_InternFromString("__cuda_array_interface__");
  PyObject* iface_found = nullptr;
  // Looks the attribute up without raising (and then clearing) AttributeError.
  const int found = optional_attribute(obj, name, &iface_found);
  if (found < 0 && PyErr_ExceptionMatches(PyExc_TypeError)) return dlpack_fallback_view(obj, out);
  if (found <= 0) return false;  // absent, or another error from a property
  PyRef iface(iface_found);
  InterfaceInfo info;
  if (!parse_array_interface(iface.get(), &info)) return false;
  if (!info.scalar) info.scalar = opaque_scalar_of_producer(obj, info.itemsize);
  if (!info.scalar) {
    PyErr_Format(PyExc_TypeError, "arrays of typestr %R cannot be passed to kernels", info.typestr);
    return false;
  }
  iface = PyRef();  // info.typestr, borrowed from it, is not read after this
  out->data = reinterpret_cast<void*>(info.data);
  out->ndim = info.ndim;
  std::memcpy(out->shape, info.shape, sizeof(std::int64_t) * info.ndim);
  std::memcpy(out->strides, info.strides, sizeof(std::int64_t) * info.ndim);
  out->dtype = info.scalar;
  out->readonly = info.readonly;
  out->layout = layout_of(info.ndim, info.shape, info.strides, static_cast<int>(info.itemsize));
  out->interface_stream = info.stream;
  return true;
}

bool host_array_view(PyObject* obj, ArrayView* out) {
  PyObject* nd = numpy_ndarray_type();
  if (!nd) {
    PyErr_Clear();
    return false;
  }
  int is = PyObject_IsInstance(obj, nd);
  if (is <= 0) {
    if (is < 0) PyErr_Clear();
    return false;
  }
  PyRef dtype(PyObject_GetAttrString(obj, "dtype"));
  if (!dtype) return false;
  const ir::Type* scalar = nullptr;
  std::int64_t itemsize = 0;
  bool ok = describe_dtype(dtype.get(), &scalar, &itemsize);
  if (ok && !scalar) {
    PyErr_Format(PyExc_TypeError, "arrays of dtype %S cannot be passed to kernels", dtype.get());
    ok = false;
  }
  dtype = PyRef();
  HostRegion region;
  if (!ok || !host_region(obj, &region, false)) return false;
  out->data = region.data;
  out->ndim = region.ndim;
  std::memcpy(out->shape, region.shape, sizeof(std::int64_t) * region.ndim);
  std::memcpy(out->strides, region.strides, sizeof(std::int64_t) * region.ndim);
  out->dtype = scalar;
  out->readonly = region.readonly;
  out->layout = layout_of(region.ndim, region.shape, region.strides, static_cast<int>(region.itemsize));
  return true;
}

PyObject* host_to_device_for_launch(PyObject* host_array, std::uintptr_t stream) {
  PyRef dtype(PyObject_GetAttrString(host_array, "dtype"));
  if (!dtype) return nullptr;
  HostRegion region;
  if (!host_region(host_array, &region, false)) return nullptr;
  PyRef copy;
  {
    runtime::LaunchTemporaryScope temporaries(stream);  // pooled per stream: no cuMemAlloc per launch
    // An F-contiguous array keeps its order (numba's to_device does), so a
    // kernel compiled for F layout accepts it; anything else becomes C.
    bool fortran = !is_c_contiguous(region.ndim, region.shape, region.strides, region.itemsize) &&
                   is_f_contiguous(region.ndim, region.shape, region.strides, region.itemsize);
    copy = PyRef(new_device_array(region.ndim, region.shape, nullptr, dtype.get(), fortran, nullptr));
  }
  dtype = PyRef();
  if (!copy) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    // Synchronous when staged; a direct copy from the pageable host array is
    // ordered before the launch on the same stream.
    copy_host_to_device(region, reinterpret_cast<DeviceArrayObject*>(copy.get()), stream, false);
    return copy.release();
  });
}

int copy_back_after_launch(PyObject* device_copy, PyObject* host_array, std::uintptr_t stream) {
  if (!is_device_array(device_copy)) {
    PyErr_SetString(PyExc_TypeError, "copy_back_after_launch: not a device copy made for a launch");
    return -1;
  }
  HostRegion region;
  if (!host_region(host_array, &region, false)) return -1;
  if (region.readonly) return 0;  // kernels cannot have written a read-only argument
  return guarded(-1, [&] {
    copy_device_to_host(reinterpret_cast<DeviceArrayObject*>(device_copy), region, stream, true);
    return 0;
  });
}

}  // namespace cuhost::python
