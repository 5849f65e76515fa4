// Looks a kernel up in the interpreter and compiles it for the C++ launch
// API (see script_kernels.h). Python errors met on the way become UserErrors
// with the Python message, since the caller is C++.
#include "python/script_kernels.h"

#include <Python.h>

#include "python/dispatcher.h"
#include "python/py_api.h"
#include "support/diagnostics.h"

namespace cuhost::python {
namespace {

// The message of the pending Python exception (cleared).
std::string take_python_error() {
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyRef type_ref(type), value_ref(value), tb_ref(tb);
  std::string text = "unknown Python error";
  if (value) {
    if (PyRef s{PyObject_Str(value)}) {
      if (const char* c = PyUnicode_AsUTF8(s.get())) text = c;
    }
  }
  if (type) {
    const char* tn = reinterpret_cast<PyTypeObject*>(type)->tp_name;
    text = concat(tn ? tn : "Error", ": ", text);
  }
  PyErr_Clear();
  return text;
}

// A new reference to the object `name` names.
PyObject* resolve(const std::string& name) {
  const auto colon = name.find(':');
  if (colon == std::string::npos) {
    PyObject* main = PyImport_AddModule("__main__");  // borrowed
    PyObject* obj = main ? PyDict_GetItemString(PyModule_GetDict(main), name.c_str()) : nullptr;
    if (!obj)
      throw UserError(ErrorKind::NameError,
                      concat("no kernel named '", name, "' in the script's global namespace (__main__)"));
    Py_INCREF(obj);
    return obj;
  }
  const std::string module = name.substr(0, colon), attr = name.substr(colon + 1);
  PyRef mod(PyImport_ImportModule(module.c_str()));
  if (!mod) throw UserError(ErrorKind::NameError, concat("cannot import '", module, "': ", take_python_error()));
  PyObject* obj = PyObject_GetAttrString(mod.get(), attr.c_str());
  if (!obj) {
    PyErr_Clear();
    throw UserError(ErrorKind::NameError, concat("module '", module, "' has no kernel named '", attr, "'"));
  }
  return obj;
}

}  // namespace

std::shared_ptr<const runtime::CompiledKernel> compile_script_kernel(const std::string& name,
                                                                     const std::vector<const ir::Type*>& arg_types) {
  GilHold gil;
  PyRef obj(resolve(name));
  if (!is_dispatcher(obj.get())) {
    std::string type = Py_TYPE(obj.get())->tp_name;
    throw UserError(ErrorKind::TypeError, concat("'", name, "' is not a @cuda.jit kernel (its type is ", type, ")"));
  }
  auto* d = reinterpret_cast<DispatcherObject*>(obj.get());
  try {
    if (ensure_captured(d)->options.device)
      throw UserError(ErrorKind::TypeError, concat("'", name, "' is a device function; only kernels can be launched"));
    return compile_specialization(d, arg_types);
  } catch (...) {
    obj = PyRef();
    if (PyErr_Occurred()) throw UserError(ErrorKind::RuntimeError, take_python_error());
    throw;
  }
}

}  // namespace cuhost::python
