// `_cuhost._driver_call(name, *args)`: the driver entry points behind
// numba-cuda's driver layer and cuhost's `cuda.bindings.driver`
// (pylib/cuda/bindings/driver.py), with cuda-python's calling convention:
// the result is a tuple (CUresult as an int, outputs...). Arguments are
// ints, None (0), objects with __int__ (handle types), bytes-like objects
// (passed by address, e.g. a module image or an IPC handle) and str
// (passed as a NUL-terminated UTF-8 string). On the CUDA backend the calls
// go to the driver (cuda/binding_calls.h); on the CPU backend to the CPU
// device's model (cpu/driver_model.h).
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/driver_model.h"
#include "cuda/binding_calls.h"
#include "python/module.h"
#include "python/py_api.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

bool cpu() { return runtime::session().backend != Backend::Cuda; }

const cuda::BindingCall* lookup(const std::string& name) {
  return cpu() ? cpu::find_cpu_binding_call(name) : cuda::find_binding_call(name);
}

// Converts one argument; `keep` holds buffers and strings for the call's duration.
bool argument(PyObject* obj, std::uint64_t* out, std::vector<Py_buffer>* buffers, std::vector<PyRef>* keep) {
  if (obj == Py_None) {
    *out = 0;
    return true;
  }
  if (PyLong_Check(obj)) {
    *out = PyLong_AsUnsignedLongLongMask(obj);
    return !PyErr_Occurred();
  }
  if (PyUnicode_Check(obj)) {
    PyRef encoded(PyUnicode_AsUTF8String(obj));
    if (!encoded) return false;
    *out = reinterpret_cast<std::uintptr_t>(PyBytes_AS_STRING(encoded.get()));
    keep->push_back(std::move(encoded));
    return true;
  }
  if (PyObject_CheckBuffer(obj)) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return false;
    buffers->push_back(view);
    *out = reinterpret_cast<std::uintptr_t>(view.buf);
    return true;
  }
  PyRef number(PyNumber_Long(obj));  // handle types define __int__
  if (!number) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "a driver argument must be an int, a handle, bytes or str, not %s",
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  *out = PyLong_AsUnsignedLongLongMask(number.get());
  return !PyErr_Occurred();
}

PyObject* py_driver_call(PyObject*, PyObject* args) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
    PyErr_SetString(PyExc_TypeError, "_driver_call(name, *args): name must be a str");
    return nullptr;
  }
  std::string name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0));
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const cuda::BindingCall* call = lookup(name);
    if (!call) {
      PyErr_Format(PyExc_AttributeError, "the driver binding has no function '%s'", name.c_str());
      return nullptr;
    }
    if (n - 1 != call->inputs) {
      PyErr_Format(PyExc_TypeError, "%s() takes %d argument(s) (%zd given)", call->name, call->inputs, n - 1);
      return nullptr;
    }
    std::uint64_t in[16] = {};
    std::uint64_t out[16] = {};
    std::vector<Py_buffer> buffers;
    std::vector<PyRef> keep;
    bool ok = true;
    for (Py_ssize_t i = 1; i < n && ok; ++i) ok = argument(PyTuple_GET_ITEM(args, i), &in[i - 1], &buffers, &keep);
    CUresult result = CUDA_SUCCESS;
    // The call's error becomes the Python error here, so the buffers are released either way.
    ok = ok && guarded(false, [&] {
           result = call->call(in, out);
           return true;
         });
    for (Py_buffer& b : buffers) PyBuffer_Release(&b);
    keep.clear();
    if (!ok) return nullptr;
    if (call->out_bytes > 0) {
      PyObject* blob = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(out), call->out_bytes);
      return blob ? Py_BuildValue("(iN)", static_cast<int>(result), blob) : nullptr;
    }
    PyObject* tuple = PyTuple_New(1 + call->outputs);
    if (!tuple) return nullptr;
    PyTuple_SET_ITEM(tuple, 0, PyLong_FromLong(static_cast<long>(result)));
    for (int i = 0; i < call->outputs; ++i) PyTuple_SET_ITEM(tuple, 1 + i, PyLong_FromUnsignedLongLong(out[i]));
    return tuple;
  });
}

PyObject* py_driver_functions(PyObject*, PyObject*) {
  std::vector<std::string> names = cpu() ? cpu::cpu_binding_call_names() : cuda::binding_call_names();
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const std::string& s : names)
    if (!list_append_new(list.get(), PyUnicode_FromString(s.c_str()))) return nullptr;
  return list.release();
}

PyMethodDef g_functions[] = {
    {"_driver_call", py_driver_call, METH_VARARGS,
     "_driver_call(name, *args) -> (CUresult, outputs...): a driver entry point (the CPU device's on the CPU "
     "backend)."},
    {"_driver_functions", py_driver_functions, METH_NOARGS, "The names _driver_call provides."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_driver_calls(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
