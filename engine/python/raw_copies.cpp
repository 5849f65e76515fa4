// Byte copies between raw addresses, behind numba-cuda's driver-level copy
// functions (host_to_device, device_to_host, device_to_device,
// device_memset in cudadrv/driver.py): `_memcpy(kind, dst, src, nbytes,
// stream)` and `_memset(dst, byte, nbytes, stream)`. A stream of 0 (or
// None) means the default launch stream, synchronously; an explicit stream
// makes the operation asynchronous on it (numba's rule for copies). Inside
// a graph capture they are recorded or refused as cuhost's other copies are
// (runtime/graph_capture.h).
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/transfer_overrides.h"
#include "runtime/device_memory.h"
#include "runtime/graph_capture.h"

namespace cuhost::python {

namespace {

bool address(PyObject* obj, std::uintptr_t* out) {
  *out = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(obj));
  return !PyErr_Occurred();
}

bool stream_of(PyObject* stream_arg, std::uintptr_t* stream, bool* synchronous) {
  if (!copy_stream(stream_arg, stream, synchronous)) return false;
  return guarded(false, [&] {
    if (*synchronous || !*stream) *stream = default_launch_stream();
    return true;
  });
}

// _memcpy(kind, dst, src, nbytes, stream): kind is "htod", "dtoh" or "dtod".
PyObject* py_memcpy(PyObject*, PyObject* args) {
  const char* kind = nullptr;
  PyObject *dst_obj, *src_obj, *stream_arg = Py_None;
  Py_ssize_t bytes = 0;
  if (!PyArg_ParseTuple(args, "sOOn|O:_memcpy", &kind, &dst_obj, &src_obj, &bytes, &stream_arg)) return nullptr;
  std::uintptr_t dst = 0, src = 0, stream = 0;
  bool sync = true;
  if (!address(dst_obj, &dst) || !address(src_obj, &src) || !stream_of(stream_arg, &stream, &sync)) return nullptr;
  if (bytes < 0) {
    PyErr_SetString(PyExc_ValueError, "cannot copy a negative number of bytes");
    return nullptr;
  }
  std::string k = kind;
  if (k != "htod" && k != "dtoh" && k != "dtod") {
    PyErr_Format(PyExc_ValueError, "_memcpy: unknown kind '%s'", kind);
    return nullptr;
  }
  std::size_t n = static_cast<std::size_t>(bytes);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (k == "htod") {
      if (run_transfer_override(Transfer::HostToDevice, dst, src, n)) Py_RETURN_NONE;
      runtime::NamedOperation name("host_to_device()");
      runtime::copy_to_device(dst, reinterpret_cast<const void*>(src), n, stream, sync);
    } else if (k == "dtoh") {
      if (run_transfer_override(Transfer::DeviceToHost, dst, src, n)) Py_RETURN_NONE;
      runtime::NamedOperation name("device_to_host()");
      runtime::copy_to_host(reinterpret_cast<void*>(dst), src, n, stream, sync);
    } else {
      runtime::NamedOperation name("device_to_device()");
      runtime::copy_on_device(dst, src, n, stream, sync);
    }
    Py_RETURN_NONE;
  });
}

// _memset(dst, byte, nbytes, stream)
PyObject* py_memset(PyObject*, PyObject* args) {
  PyObject *dst_obj, *stream_arg = Py_None;
  int value = 0;
  Py_ssize_t bytes = 0;
  if (!PyArg_ParseTuple(args, "Oin|O:_memset", &dst_obj, &value, &bytes, &stream_arg)) return nullptr;
  std::uintptr_t dst = 0, stream = 0;
  bool sync = true;
  if (!address(dst_obj, &dst) || !stream_of(stream_arg, &stream, &sync)) return nullptr;
  if (bytes < 0) {
    PyErr_SetString(PyExc_ValueError, "cannot set a negative number of bytes");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::NamedOperation name("device_memset()");
    runtime::set_on_device(dst, static_cast<unsigned char>(value & 0xFF), static_cast<std::size_t>(bytes), stream,
                           sync);
    Py_RETURN_NONE;
  });
}

PyMethodDef g_functions[] = {
    {"_memcpy", py_memcpy, METH_VARARGS, "_memcpy(kind, dst, src, nbytes, stream=None): kind htod, dtoh or dtod."},
    {"_memset", py_memset, METH_VARARGS, "_memset(dst, byte, nbytes, stream=None)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_raw_copies(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
