// The frontend's hooks into the python/ layer (declared in
// frontend/capture.h): capture asks them what a global that is a @cuda.jit
// object, a numba.njit function or a cuda.declare_device result stands for.
#include "frontend/capture.h"
#include "python/conversion_api.h"
#include "python/device_array.h"
#include "python/dispatcher.h"
#include "python/extension_api.h"
#include "python/host_dispatcher.h"
#include "python/launch_config.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/record_dtype.h"
#include "python/type_handle.h"

#include <cstring>

namespace cuhost::frontend {

namespace {

// numba's own @njit function, where numba is installed beside cuhost: its
// Python function becomes a device function, as numba-cuda compiles it
// (the numba_device_function hook, installed by cuda/_hooks.py, keeps one per numba
// dispatcher).
PyObject* device_function_of_numba_njit(PyObject* obj) {
  if (std::strcmp(Py_TYPE(obj)->tp_name, "CPUDispatcher") != 0 || !PyObject_HasAttrString(obj, "py_func"))
    return nullptr;
  python::PyRef device = python::call_hook(python::Hook::NumbaDeviceFunction, python::PyRef(PyTuple_Pack(1, obj)));
  if (!device || !python::is_dispatcher(device.get())) {
    PyErr_Clear();
    return nullptr;
  }
  return device.release();
}

}  // namespace

std::shared_ptr<model::JitFunction> jit_function_of(PyObject* obj) {
  if (obj && python::is_host_dispatcher(obj)) return python::host_dispatcher_function(obj);
  if (obj && !python::is_dispatcher(obj)) {
    PyObject* device = device_function_of_numba_njit(obj);
    if (!device) return nullptr;
    python::PyRef owned(device);
    return python::ensure_captured(reinterpret_cast<python::DispatcherObject*>(owned.get()));
  }
  if (!obj) return nullptr;
  return python::ensure_captured(reinterpret_cast<python::DispatcherObject*>(obj));
}

std::string jit_function_refusal(PyObject* obj) { return python::host_dispatcher_refusal(obj); }

std::shared_ptr<const ir::ForeignFunction> foreign_function_of(PyObject* obj) {
  if (!obj) return nullptr;
  return python::declared_foreign_function(obj);
}

std::shared_ptr<const ir::ExtensionObject> extension_object_of(PyObject* obj) {
  if (!obj) return nullptr;
  return python::extension_object(obj);
}

const ir::Type* record_type_of(PyObject* dtype) {
  const ir::Type* t = python::record_type_of_dtype(dtype);
  if (!t) PyErr_Clear();
  return t;
}

}  // namespace cuhost::frontend

namespace cuhost::python {

// Defined here, beside the hooks, so that linking the module registration
// always pulls this object (and with it the strong hook definitions) out of
// the engine archive.
int add_dispatcher(PyObject* module) {
  if (add_dispatcher_type(module) < 0 || add_typeof(module) < 0 || add_call_key(module) < 0 ||
      add_ufunc_call(module) < 0 || add_nrt_api(module) < 0 || add_launch(module) < 0 || add_compile_api(module) < 0 ||
      add_declare_device(module) < 0 || add_exec_sources(module) < 0 || add_record_dtype(module) < 0 ||
      add_device_record(module) < 0 || add_extension_api(module) < 0 || add_launch_config(module) < 0 ||
      add_host_dispatcher(module) < 0 || add_conversion_api(module) < 0 || add_hooks(module) < 0 ||
      add_type_handle(module) < 0 || add_jit_options(module) < 0)
    return -1;
  return 0;
}

}  // namespace cuhost::python
