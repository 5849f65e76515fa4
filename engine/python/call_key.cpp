// `_cuhost._call_key(args, out)`: the launch fingerprint of a call's
// arguments as one bytes object, for Python-side callers that cache a
// resolved plan per kind of call (the CUDA ufuncs of cuda/np/ufunc). Each
// argument contributes its kind (scalar, device array, host array, tuple),
// its interned kernel type and, for arrays, its shape and strides; `out`
// (None or an array) contributes the same. Two calls with equal keys launch
// the same specialization over the same extents. None when an argument has
// no kernel type. Computed from the same views the launcher builds, so it
// costs about what typing the launch's arguments costs.
#include <cstring>
#include <vector>

#include "python/call_key.h"
#include "python/py_api.h"
#include "python/typeof.h"

namespace cuhost::python {

namespace {

void append(std::vector<char>& out, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  out.insert(out.end(), c, c + n);
}

// Appends one value's part of the key; false when it has no kernel type.
bool add_value(std::vector<char>& key, PyObject* value) {
  ArgInfo info;
  const ir::Type* t = typeof_arg(value, &info);
  if (!t) return false;
  char kind = static_cast<char>(info.kind);
  append(key, &kind, 1);
  append(key, &t, sizeof t);
  if (info.kind == ArgKind::DeviceArray || info.kind == ArgKind::HostArray) {
    append(key, info.view.shape, sizeof(std::int64_t) * static_cast<std::size_t>(info.view.ndim));
    append(key, info.view.strides, sizeof(std::int64_t) * static_cast<std::size_t>(info.view.ndim));
  }
  return true;
}

PyObject* py_call_key(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (nargs != 2 || !PyTuple_Check(args[0])) {
      PyErr_SetString(PyExc_TypeError, "_call_key(args: tuple, out)");
      return nullptr;
    }
    PyObject* tuple = args[0];
    return call_key(&PyTuple_GET_ITEM(tuple, 0), PyTuple_GET_SIZE(tuple), args[1]);
  });
}

PyMethodDef g_methods[] = {
    {"_call_key", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_call_key)), METH_FASTCALL,
     "_call_key(args, out): the launch fingerprint of these arguments (bytes), or None."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyObject* call_key(PyObject* const* values, Py_ssize_t n, PyObject* out) {
  thread_local std::vector<char> key;
  key.clear();
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!add_value(key, values[i])) {
      if (PyErr_Occurred()) PyErr_Clear();
      Py_RETURN_NONE;
    }
  }
  char sep = 'o';
  append(key, &sep, 1);
  if (out != Py_None && !add_value(key, out)) {
    if (PyErr_Occurred()) PyErr_Clear();
    Py_RETURN_NONE;
  }
  return PyBytes_FromStringAndSize(key.data(), static_cast<Py_ssize_t>(key.size()));
}

int add_call_key(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
