// Module functions behind the memory API: device_array, to_device,
// as_cuda_array, is_cuda_array and test hooks, plus add_memory(), which
// registers every part of the memory/stream/event/device API in `_cuhost`.
#include <cstring>

#include "python/array_view.h"
#include "python/config_flags.h"
#include "python/device_array.h"
#include "python/module.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/streams.h"
#include "python/transfer_overrides.h"
#include "runtime/device_memory.h"
#include "runtime/graph_capture.h"

namespace cuhost::python {

namespace {

DeviceArrayObject* as_array(PyObject* o) { return reinterpret_cast<DeviceArrayObject*>(o); }

bool shape_of(PyObject* obj, int* ndim, std::int64_t* shape, const char* what) {
  if (PyIndex_Check(obj)) {
    *ndim = 1;
    shape[0] = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    return !PyErr_Occurred();
  }
  PyRef seq(PySequence_Fast(obj, what));
  if (!seq) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq.get());
  bool ok = n <= kMaxDims;
  if (!ok) PyErr_Format(PyExc_ValueError, "device arrays have at most %d dimensions (got %zd)", kMaxDims, n);
  for (Py_ssize_t i = 0; ok && i < n; ++i) {
    shape[i] = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq.get(), i), PyExc_OverflowError);
    if (PyErr_Occurred()) ok = false;
  }
  *ndim = static_cast<int>(n);
  return ok;
}

// _device_array(shape, dtype, strides, order, stream)
PyObject* py_device_array(PyObject*, PyObject* args) {
  runtime::NamedOperation name("cuda.device_array()");
  PyObject *shape_obj, *dtype_obj, *strides_obj, *stream;
  const char* order;
  if (!PyArg_ParseTuple(args, "OOOsO:_device_array", &shape_obj, &dtype_obj, &strides_obj, &order, &stream))
    return nullptr;
  int ndim = 0, sndim = 0;
  std::int64_t shape[kMaxDims], strides[kMaxDims];
  if (!shape_of(shape_obj, &ndim, shape, "shape must be an int or a tuple of ints")) return nullptr;
  if (strides_obj != Py_None) {
    if (!shape_of(strides_obj, &sndim, strides, "strides must be a tuple of ints")) return nullptr;
    if (sndim != ndim) {
      PyErr_Format(PyExc_ValueError, "strides have %d entries for a %d-dimensional shape", sndim, ndim);
      return nullptr;
    }
  }
  if (std::strcmp(order, "C") && std::strcmp(order, "F")) {
    PyErr_Format(PyExc_ValueError, "order must be 'C' or 'F', not '%s'", order);
    return nullptr;
  }
  PyRef dtype(to_numpy_dtype(dtype_obj));
  if (!dtype) return nullptr;
  return new_device_array(ndim, shape, strides_obj != Py_None ? strides : nullptr, dtype.get(), order[0] == 'F',
                          stream);
}

// _to_device(ndarray, stream, copy): a new device array holding the host data.
PyObject* py_to_device(PyObject*, PyObject* args) {
  runtime::NamedOperation name("cuda.to_device()");
  PyObject *host, *stream_arg;
  int copy = 1;
  if (!PyArg_ParseTuple(args, "OOp:_to_device", &host, &stream_arg, &copy)) return nullptr;
  HostRegion region;
  if (!host_region(host, &region, false)) return nullptr;
  PyRef dtype(PyObject_GetAttrString(host, "dtype"));
  if (!dtype) return nullptr;
  // Broadcast axes (stride 0) stay broadcast on the device, as numba keeps
  // the host's strides: only the core (those axes at length 1) is copied.
  bool broadcast = false;
  std::int64_t full_shape[kMaxDims];
  for (int i = 0; i < region.ndim; ++i) {
    full_shape[i] = region.shape[i];
    if (region.strides[i] == 0) {
      broadcast = true;
      if (region.shape[i] > 1) region.shape[i] = 1;
    }
  }
  bool fortran = !is_c_contiguous(region.ndim, region.shape, region.strides, region.itemsize) &&
                 is_f_contiguous(region.ndim, region.shape, region.strides, region.itemsize);
  PyObject* stream_keep = (stream_arg == Py_None) ? nullptr : stream_arg;
  PyRef dev(new_device_array(region.ndim, region.shape, nullptr, dtype.get(), fortran, stream_keep));
  if (dev && broadcast) {
    DeviceArrayObject* core = as_array(dev.get());
    std::int64_t strides[kMaxDims];
    for (int i = 0; i < region.ndim; ++i) strides[i] = region.strides[i] == 0 ? 0 : core->strides[i];
    PyRef view(
        new_device_view(core, nullptr, core->data, region.ndim, full_shape, strides, dtype.get(), false, stream_keep));
    if (view && copy) {
      std::uintptr_t stream = 0;
      bool sync = true;
      bool ok = copy_stream(stream_arg, &stream, &sync) && guarded(false, [&] {
                  copy_host_to_device(region, core, stream, sync);
                  return true;
                });
      if (!ok) return nullptr;
    }
    return view.release();
  }
  if (!dev || !copy) return dev.release();
  std::uintptr_t stream = 0;
  bool sync = true;
  if (!copy_stream(stream_arg, &stream, &sync)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    copy_host_to_device(region, as_array(dev.get()), stream, sync);
    return dev.release();
  });
}

PyObject* py_is_cuda_array(PyObject*, PyObject* obj) {
  if (is_device_array(obj)) Py_RETURN_TRUE;
  int has = PyObject_HasAttrString(obj, "__cuda_array_interface__");
  return PyBool_FromLong(has);
}

// as_cuda_array(obj, sync=True): a zero-copy DeviceNDArray view of any object
// exporting __cuda_array_interface__; the view keeps `obj` alive.
PyObject* py_as_cuda_array(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"obj", "sync", nullptr};
  PyObject* obj;
  int sync = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p:as_cuda_array", const_cast<char**>(names), &obj, &sync))
    return nullptr;
  if (is_device_array(obj)) {
    DeviceArrayObject* a = as_array(obj);
    return new_device_view(a, nullptr, a->data, a->ndim, a->shape, a->strides, a->dtype, a->readonly, a->stream);
  }
  PyRef iface(PyObject_GetAttrString(obj, "__cuda_array_interface__"));
  if (!iface) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return nullptr;
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError,
                 "as_cuda_array: a %s does not implement the CUDA Array Interface "
                 "(__cuda_array_interface__)",
                 Py_TYPE(obj)->tp_name);
    return nullptr;
  }
  InterfaceInfo info;
  if (!parse_array_interface(iface.get(), &info)) return nullptr;
  PyRef dtype(to_numpy_dtype(info.typestr));
  PyRef stream(info.stream ? new_stream_object(info.stream, "external", nullptr) : nullptr);
  // numba-cuda synchronizes on the producer's stream through the Stream
  // object, unless CUDA_ARRAY_INTERFACE_SYNC is off.
  bool synced = !(sync && info.stream && stream && config_flag("CUDA_ARRAY_INTERFACE_SYNC"));
  if (!synced) synced = bool(PyRef(PyObject_CallMethod(stream.get(), "synchronize", nullptr)));
  if (!synced || !dtype || (info.stream && !stream)) return nullptr;
  return guarded<PyObject*>(nullptr, [&] {
    return new_device_view(nullptr, obj, info.data, info.ndim, info.shape, info.strides, dtype.get(), info.readonly,
                           stream.get());
  });
}

// _roundtrip_for_test(host, fn=None): the launcher's copy-in of a host array,
// fn(device_copy) standing in for the kernel, then the copy-back. Returns the
// device copy.
PyObject* py_roundtrip_for_test(PyObject*, PyObject* args) {
  PyObject* host;
  PyObject* fn = Py_None;
  if (!PyArg_ParseTuple(args, "O|O:_roundtrip_for_test", &host, &fn)) return nullptr;
  ArrayView view;
  if (!host_array_view(host, &view)) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "_roundtrip_for_test: not a numpy.ndarray");
    return nullptr;
  }
  std::uintptr_t stream = 0;
  if (!guarded(false, [&] {
        stream = default_launch_stream();
        return true;
      }))
    return nullptr;
  PyRef dev(host_to_device_for_launch(host, stream));
  if (!dev) return nullptr;
  if (fn != Py_None && !PyRef(PyObject_CallOneArg(fn, dev.get()))) return nullptr;
  if (copy_back_after_launch(dev.get(), host, stream) < 0) return nullptr;
  return dev.release();
}

const char* layout_name(ir::Layout l) { return l == ir::Layout::C ? "C" : l == ir::Layout::F ? "F" : "A"; }

// _array_view_for_test(obj): what the launcher sees for an argument, as a dict
// (device views first, then host arrays); None for anything else.
PyObject* py_array_view_for_test(PyObject*, PyObject* obj) {
  ArrayView v;
  const char* where = "device";
  if (!device_array_view(obj, &v)) {
    if (PyErr_Occurred()) return nullptr;
    where = "host";
    if (!host_array_view(obj, &v)) {
      if (PyErr_Occurred()) return nullptr;
      Py_RETURN_NONE;
    }
  }
  PyObject* shape = PyTuple_New(v.ndim);
  PyObject* strides = PyTuple_New(v.ndim);
  for (int i = 0; i < v.ndim; ++i) {
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(v.shape[i]));
    PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(v.strides[i]));
  }
  return Py_BuildValue("{s:s,s:N,s:i,s:N,s:N,s:s,s:s,s:O,s:s}", "where", where, "data",
                       PyLong_FromSize_t(reinterpret_cast<std::uintptr_t>(v.data)), "ndim", v.ndim, "shape", shape,
                       "strides", strides, "dtype", v.dtype->str().c_str(), "layout", layout_name(v.layout), "readonly",
                       v.readonly ? Py_True : Py_False, "type", v.type()->str().c_str());
}

PyObject* py_force_staging_for_test(PyObject*, PyObject* arg) {
  int on = PyObject_IsTrue(arg);
  if (on < 0) return nullptr;
  force_staging_for_test(on != 0);
  Py_RETURN_NONE;
}

PyMethodDef g_functions[] = {
    {"_device_array", py_device_array, METH_VARARGS, "_device_array(shape, dtype, strides, order, stream)."},
    {"_to_device", py_to_device, METH_VARARGS, "_to_device(ndarray, stream, copy)."},
    {"is_cuda_array", py_is_cuda_array, METH_O, "True for objects exporting __cuda_array_interface__."},
    {"as_cuda_array", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_as_cuda_array)),
     METH_VARARGS | METH_KEYWORDS, "as_cuda_array(obj, sync=True): a zero-copy DeviceNDArray view of obj."},
    {"_roundtrip_for_test", py_roundtrip_for_test, METH_VARARGS,
     "The launcher's copy-in/copy-back of a host array, with fn(device_copy) in between."},
    {"_force_staging_for_test", py_force_staging_for_test, METH_O,
     "Run the GPU copy paths (staging through host buffers) on the CPU backend too."},
    {"_array_view_for_test", py_array_view_for_test, METH_O, "The launcher's view of an argument, as a dict."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_array_functions(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

int add_memory(PyObject* module) {
  if (add_device_arrays(module) < 0 || add_array_functions(module) < 0 || add_streams(module) < 0 ||
      add_events(module) < 0 || add_devices(module) < 0 || add_host_buffers(module) < 0 ||
      add_memory_manager_api(module) < 0 || add_raw_copies(module) < 0 || add_transfer_overrides(module) < 0)
    return -1;
  return 0;
}

}  // namespace cuhost::python
