// Turning the Python-side arguments of @cuda.jit and declare_device into
// engine values: signatures (strings, cuda.types objects, tuples of types),
// and link items (paths and LinkableCode objects). Errors follow FFI.md.
#include <set>

#include "cpu/driver_model.h"
#include "cuda/module.h"
#include "cuda/nvrtc.h"
#include "ir/type_parser.h"
#include "python/dispatcher.h"

#include "frontend/type_protocol.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/type_handle.h"
#include "runtime/cpu_module_callbacks.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::python {
namespace {

std::string str_of(PyObject* obj) {
  PyRef s(PyObject_Str(obj));
  if (!s) {
    PyErr_Clear();
    return "<unprintable>";
  }
  const char* c = PyUnicode_AsUTF8(s.get());
  if (!c) PyErr_Clear();
  return c ? c : "";
}

// The type a signature's element names: a TypeHandle, an object with the
// `__cuhost_type__` protocol (cuda.types), or a spelling (a str, or another
// library's type object whose str() is numba's spelling, e.g. numba's own
// types); nullptr when it names none.
const ir::Type* signature_element(PyObject* obj) {
  if (const ir::Type* t = frontend::type_of_typed_object(obj)) return t;
  if (!PyUnicode_Check(obj)) return nullptr;
  return ir::parse_type(py_str(obj));
}

// A signature object's (return handle or None, (argument handles...)) from
// the `__cuhost_signature__` protocol (cuda.types.Signature); false when
// `obj` has none.
bool protocol_signature(PyObject* obj, ir::Signature* out) {
  PyRef sig = py_attr(obj, "__cuhost_signature__");
  if (!sig || !PyTuple_Check(sig.get()) || PyTuple_GET_SIZE(sig.get()) != 2) return false;
  PyObject* ret = PyTuple_GET_ITEM(sig.get(), 0);
  PyObject* args = PyTuple_GET_ITEM(sig.get(), 1);
  if (!PyTuple_Check(args)) return false;
  ir::Signature result;
  result.return_type = ret == Py_None ? nullptr : type_of_handle(ret);
  if (ret != Py_None && !result.return_type) return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); ++i) {
    const ir::Type* t = type_of_handle(PyTuple_GET_ITEM(args, i));
    if (!t) return false;
    result.args.push_back(t);
  }
  *out = std::move(result);
  return true;
}

// Python-owned callback kept alive by a LinkItem; released under the GIL.
std::shared_ptr<void> hold_callback(PyObject* cb) {
  if (!cb || cb == Py_None) return nullptr;
  if (!PyCallable_Check(cb))
    throw UserError(ErrorKind::TypeError,
                    concat("setup and teardown callbacks must be callable, got ", Py_TYPE(cb)->tp_name));
  Py_INCREF(cb);
  return std::shared_ptr<void>(cb, [](void* p) {
    if (!Py_IsInitialized()) return;
    GilHold gil;
    PyRef dropped(static_cast<PyObject*>(p));
  });
}

// module.get_global(name) -> (device pointer, size) for setup callbacks; `self` is the handle.
PyObject* module_get_global(PyObject* self, PyObject* name) {
  if (!PyUnicode_Check(name)) {
    PyErr_SetString(PyExc_TypeError, "get_global() needs the variable's name as a str");
    return nullptr;
  }
  try {
    std::uintptr_t address = 0;
    std::size_t size = 0;
    std::uintptr_t handle = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLong(self));
    if (runtime::session().backend == Backend::Cuda) {
      cuda::library_global(handle, PyUnicode_AsUTF8(name), &address, &size);
    } else if (!cpu::module_global(handle, PyUnicode_AsUTF8(name), &address, &size)) {
      throw UserError(ErrorKind::CudaAPIError, concat("cuLibraryGetGlobal failed: CUDA_ERROR_NOT_FOUND for __device__ "
                                                      "variable '",
                                                      PyUnicode_AsUTF8(name), "'"));
    }
    return Py_BuildValue("(Kn)", static_cast<unsigned long long>(address), static_cast<Py_ssize_t>(size));
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}

PyMethodDef g_get_global = {"get_global", module_get_global, METH_O,
                            "(device pointer, size) of a __device__ variable of this module."};

// Runs a LinkableCode setup or teardown callback with the loaded module: a
// cuda.core ObjectCode whose `handle` is the module's library handle, plus
// get_global(name) -> (device pointer, size).
bool run_module_callback(const std::shared_ptr<void>& cb, std::uintptr_t handle, std::string* error) {
  // A module loaded after the engine's last atexit handler ran the teardowns
  // (by a finalizer that launched a kernel) is unloaded at C exit, when the
  // interpreter has ended: its Python teardowns cannot run.
  if (!Py_IsInitialized()) return true;
  GilHold gil;
  bool ok = [&] {
    PyRef ns = call_hook(Hook::ObjectCodeNamespace, PyRef(PyTuple_New(0)));
    PyRef h(PyLong_FromUnsignedLongLong(handle));
    if (!ns || !h) return false;
    PyRef getter(PyCFunction_New(&g_get_global, h.get()));
    if (!getter || PyObject_SetAttrString(ns.get(), "get_global", getter.get()) < 0 ||
        PyObject_SetAttrString(ns.get(), "_handle", h.get()) < 0)
      return false;
    return bool(PyRef(PyObject_CallOneArg(static_cast<PyObject*>(cb.get()), ns.get())));
  }();
  if (!ok) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyRef owned_type(type), owned_value(value), owned_tb(tb);
    if (error) *error = value ? str_of(value) : "unknown error";
  }
  return ok;
}

ir::LinkKind kind_from_class_name(const std::string& cls) {
  if (cls == "PTXSource") return ir::LinkKind::PTXSource;
  if (cls == "CUSource") return ir::LinkKind::CUSource;
  if (cls == "Fatbin") return ir::LinkKind::Fatbin;
  if (cls == "Cubin") return ir::LinkKind::Cubin;
  if (cls == "Archive") return ir::LinkKind::Archive;
  if (cls == "Object") return ir::LinkKind::Object;
  if (cls == "LTOIR") return ir::LinkKind::LTOIR;
  throw UserError(ErrorKind::TypeError, "Expected path to file or a LinkableCode object");
}

ir::LinkItem item_from_object(PyObject* obj) {
  ir::LinkItem item;
  if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
    item.path = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : PyBytes_AsString(obj);
    std::size_t slash = item.path.find_last_of('/');
    item.name = slash == std::string::npos ? item.path : item.path.substr(slash + 1);
    try {
      item.kind = cuda::link_kind_from_path(item.path);
    } catch (const UserError&) {
      item.kind = ir::LinkKind::PTXSource;  // the extension error is raised when the kernel links
    }
    return item;
  }
  PyRef kind(PyObject_GetAttrString(obj, "__cuhost_link_kind__"));
  if (!kind) {
    PyErr_Clear();
    throw UserError(ErrorKind::TypeError, "Expected path to file or a LinkableCode object");
  }
  std::string kind_name = PyUnicode_Check(kind.get()) ? PyUnicode_AsUTF8(kind.get()) : "";
  item.kind = kind_from_class_name(kind_name);
  PyRef owned_data(PyObject_GetAttrString(obj, "data"));
  if (!owned_data) {
    PyErr_Clear();
    throw UserError(ErrorKind::TypeError, "LinkableCode object has no data");
  }
  // StringIO/BytesIO: read their whole contents.
  if (PyObject_HasAttrString(owned_data.get(), "getvalue")) {
    owned_data = PyRef(PyObject_CallMethod(owned_data.get(), "getvalue", nullptr));
    if (!owned_data) {
      PyErr_Clear();
      throw UserError(ErrorKind::TypeError, "could not read the LinkableCode's data");
    }
  }
  PyObject* data = owned_data.get();
  if (PyUnicode_Check(data)) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(data, &n);
    item.data.assign(s, static_cast<size_t>(n));
  } else if (PyBytes_Check(data)) {
    item.data.assign(PyBytes_AS_STRING(data), static_cast<size_t>(PyBytes_GET_SIZE(data)));
  } else if (PyByteArray_Check(data)) {
    item.data.assign(PyByteArray_AS_STRING(data), static_cast<size_t>(PyByteArray_GET_SIZE(data)));
  } else {
    throw UserError(ErrorKind::TypeError, "LinkableCode data must be bytes, str, StringIO or BytesIO");
  }
  PyRef nrt(PyObject_GetAttrString(obj, "nrt"));
  if (!nrt) PyErr_Clear();
  item.nrt = nrt && PyObject_IsTrue(nrt.get()) == 1;
  PyRef name(PyObject_GetAttrString(obj, "name"));
  if (name && PyUnicode_Check(name.get())) item.name = PyUnicode_AsUTF8(name.get());
  if (!name) PyErr_Clear();
  if (item.name.empty()) item.name = "<unnamed-" + kind_name + ">";
  // Include folders for CUDA C: the source's own folder (from_path), then any a plugin adds.
  for (const char* attr : {"_cuhost_source_dir", "_cuhost_include_dirs"}) {
    PyRef owned(PyObject_GetAttrString(obj, attr));
    PyObject* v = owned.get();
    if (!v) {
      PyErr_Clear();
      continue;
    }
    if (PyUnicode_Check(v)) {
      item.include_dirs.push_back(PyUnicode_AsUTF8(v));
    } else if (PyList_Check(v) || PyTuple_Check(v)) {
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(v); ++i) {
        PyObject* d = PySequence_Fast_GET_ITEM(v, i);
        if (PyUnicode_Check(d)) item.include_dirs.push_back(PyUnicode_AsUTF8(d));
      }
    }
  }
  // A plugin with a host library tags its items (plugin/host_library.h).
  if (PyRef dir{PyObject_GetAttrString(obj, "__cuhost_plugin_dir__")}) {
    if (PyUnicode_Check(dir.get())) item.plugin_dir = PyUnicode_AsUTF8(dir.get());
  } else {
    PyErr_Clear();
  }
  for (const char* attr : {"setup_callback", "teardown_callback"}) {
    PyRef cb(PyObject_GetAttrString(obj, attr));
    if (!cb) {
      PyErr_Clear();
      continue;
    }
    (attr[0] == 's' ? item.setup_callback : item.teardown_callback) = hold_callback(cb.get());
  }
  return item;
}

// A non-empty NVRTC log without failure becomes one UserWarning
// "NVRTC log messages: ..." (compilation runs with the GIL released).
void warn_nvrtc_log(const std::string& message) {
  GilHold gil;
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) < 0) PyErr_WriteUnraisable(nullptr);
}

}  // namespace

bool signature_from_object(PyObject* obj, ir::Signature* out) {
  cuda::set_module_callback_runner(&run_module_callback);
  runtime::set_cpu_module_callback_runner(&run_module_callback);
  if (PyUnicode_Check(obj)) {  // "void(float32[::1], int32)": the engine's parser reads it
    *out = ir::parse_signature(py_str(obj));
    return true;
  }
  if (protocol_signature(obj, out)) return true;
  // A tuple of argument types, or one type alone: the arguments, no return type.
  std::vector<const ir::Type*> args;
  if (PyTuple_Check(obj)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(obj); ++i) {
      const ir::Type* t = signature_element(PyTuple_GET_ITEM(obj, i));
      if (!t) {
        PyErr_Format(PyExc_TypeError, "invalid signature %s", str_of(obj).c_str());
        return false;
      }
      args.push_back(t);
    }
  } else if (const ir::Type* t = frontend::type_of_typed_object(obj)) {
    args.push_back(t);
  } else {
    PyErr_Format(PyExc_TypeError,
                 "invalid signature %s (expected a string such as \"void(float32[::1], int32)\" "
                 "or a signature built from cuda.types)",
                 str_of(obj).c_str());
    return false;
  }
  out->return_type = nullptr;
  out->args = std::move(args);
  return true;
}

std::vector<ir::LinkItem> link_items_from_object(PyObject* obj) {
  cuda::set_module_callback_runner(&run_module_callback);
  runtime::set_cpu_module_callback_runner(&run_module_callback);
  cuda::set_nvrtc_warning_sink(&warn_nvrtc_log);
  std::vector<ir::LinkItem> items;
  if (!obj || obj == Py_None) return items;
  if (PyList_Check(obj) || PyTuple_Check(obj) || PyAnySet_Check(obj)) {
    PyRef it(PyObject_GetIter(obj));
    if (!it) throw UserError(ErrorKind::TypeError, "link= must be a path, a LinkableCode or a list of them");
    while (PyRef x{PyIter_Next(it.get())}) items.push_back(item_from_object(x.get()));
    if (PyErr_Occurred()) PyErr_Clear();
    return items;
  }
  items.push_back(item_from_object(obj));
  return items;
}

std::string types_str(const std::vector<const ir::Type*>& types) {
  std::string s = "(";
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i]->str();
  return s + ")";
}

}  // namespace cuhost::python
