// The registry of hooks through which C++ calls pylib (python_hooks.h): one
// slot per name, filled by `_cuhost.install_hooks(**hooks)` when `cuda` is
// imported.
#include "python/python_hooks.h"

#include <array>
#include <cstring>

namespace cuhost::python {
namespace {

constexpr std::array<const char*, static_cast<int>(Hook::Count)> kNames = {
    "launch_preparation",
    "arg_hint_class",
    "compile_for_args",
    "device_dispatcher",
    "fold_arguments",
    "debug_dumps",
    "signatures_from_handles",
    "record_from_view",
    "array_gpu_data",
    "array_device_ctypes_pointer",
    "array_get_ipc_handle",
    "array_split",
    "typeof_fallback",
    "transpose",
    "numba_device_function",
    "object_code_namespace",
    "config",
    "performance_warning",
    "debug_info_warning",
    "numba_warning",
    "lowering_error",
    "extension_bridge",
    "host_array_view",
    "function_cache",
    "live_reload",
};

// Kept for the process. A replaced object is not released: an interpreter
// started again after Py_Finalize installs fresh objects over ones that no
// longer exist.
std::array<PyObject*, static_cast<int>(Hook::Count)> g_slots{};

int slot_of(const char* name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (std::strcmp(kNames[i], name) == 0) return static_cast<int>(i);
  return -1;
}

bool install(PyObject* name, PyObject* value) {
  const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
  int slot = text ? slot_of(text) : -1;
  if (slot < 0) {
    PyErr_Format(PyExc_ValueError, "unknown cuhost hook %R", name);
    return false;
  }
  g_slots[slot] = Py_NewRef(value);
  return true;
}

PyObject* py_install_hooks(PyObject*, PyObject* args, PyObject* kwargs) {
  if (PyTuple_GET_SIZE(args) != 0) {
    PyErr_SetString(PyExc_TypeError, "install_hooks() takes the hooks as keyword arguments only");
    return nullptr;
  }
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (kwargs && PyDict_Next(kwargs, &pos, &key, &value))
    if (!install(key, value)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* py_register_hook(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "register_hook(name, obj) takes 2 arguments");
    return nullptr;
  }
  if (!install(args[0], args[1])) return nullptr;
  Py_RETURN_NONE;
}

PyObject* py_hook_names(PyObject*, PyObject*) {
  PyRef names(PyTuple_New(static_cast<Py_ssize_t>(kNames.size())));
  if (!names) return nullptr;
  for (size_t i = 0; i < kNames.size(); ++i) {
    PyObject* s = PyUnicode_FromString(kNames[i]);
    if (!s) return nullptr;
    PyTuple_SET_ITEM(names.get(), static_cast<Py_ssize_t>(i), s);
  }
  return names.release();
}

PyMethodDef g_methods[] = {
    {"install_hooks", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_install_hooks)),
     METH_VARARGS | METH_KEYWORDS, "install_hooks(**hooks): fills the named slots through which cuhost calls Python"},
    {"register_hook", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_register_hook)), METH_FASTCALL,
     "register_hook(name, obj): fills one named slot through which cuhost calls Python"},
    {"hook_names", py_hook_names, METH_NOARGS, "The names of the slots install_hooks() fills"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

const char* hook_name(Hook hook) { return kNames[static_cast<int>(hook)]; }

PyObject* hook(Hook hook) {
  PyObject* obj = g_slots[static_cast<int>(hook)];
  if (!obj)
    PyErr_Format(PyExc_RuntimeError, "cuhost's Python hook '%s' is not installed (import cuda first)", hook_name(hook));
  return obj;
}

PyRef call_hook(Hook h, PyRef args) {
  if (!args) return PyRef();
  PyRef fn = borrowed(hook(h));
  if (!fn) return PyRef();
  return PyRef(PyObject_Call(fn.get(), args.get(), nullptr));
}

PyRef hook_attr(Hook h, const char* name) {
  PyObject* obj = hook(h);
  return PyRef(obj ? PyObject_GetAttrString(obj, name) : nullptr);
}

int add_hooks(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
