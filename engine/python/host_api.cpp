// Host-side queries of the `_cuhost` module: versions, the backend in use,
// the driver's status and the devices. Used by cuda.detect(),
// cuda.is_available() and `cuhost info`.
#include <llvm/Config/llvm-config.h>

#include "cuda/driver.h"
#include "cuda/toolkit_info.h"
#include "python/module.h"
#include "python/py_api.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

PyObject* py_version(PyObject*, PyObject*) { return PyUnicode_FromString(CUHOST_VERSION); }

PyObject* py_backend(PyObject*, PyObject*) { return PyUnicode_FromString(backend_name(runtime::session().backend)); }

PyObject* py_versions(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    return Py_BuildValue("{s:s,s:s,s:s,s:s}", "cuhost", CUHOST_VERSION, "llvm", LLVM_VERSION_STRING, "nvrtc",
                         cuda::nvrtc_version().c_str(), "nvjitlink", cuda::nvjitlink_version().c_str());
  });
}

PyObject* py_nvrtc_supported_archs(PyObject*, PyObject*) {
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (int arch : cuda::nvrtc_supported_archs())
    if (!list_append_new(list.get(), PyLong_FromLong(arch))) return nullptr;
  return list.release();
}

PyObject* py_driver_status(PyObject*, PyObject*) {
  const cuda::DriverStatus& s = cuda::driver_status();
  return Py_BuildValue("(Osii)", s.available ? Py_True : Py_False, s.reason.c_str(), s.version, s.device_count);
}

PyObject* py_devices(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    PyRef list(PyList_New(0));
    if (!list) return nullptr;
    for (const auto& d : cuda::list_devices()) {
      PyObject* item = Py_BuildValue("{s:i,s:s,s:(ii),s:n,s:i}", "id", d.ordinal, "name", d.name.c_str(),
                                     "compute_capability", d.cc_major, d.cc_minor, "total_memory",
                                     static_cast<Py_ssize_t>(d.total_memory), "multiprocessors", d.multiprocessors);
      if (!list_append_new(list.get(), item)) return nullptr;
    }
    return list.release();
  });
}

PyMethodDef g_methods[] = {
    {"version", py_version, METH_NOARGS, "cuhost's version string."},
    {"backend", py_backend, METH_NOARGS, "The backend in use: 'cpu' or 'cuda'."},
    {"versions", py_versions, METH_NOARGS, "Versions of cuhost, LLVM, NVRTC and nvJitLink."},
    {"driver_status", py_driver_status, METH_NOARGS, "(available, reason, driver_version, device_count)."},
    {"_nvrtc_supported_archs", py_nvrtc_supported_archs, METH_NOARGS,
     "The compute capabilities NVRTC compiles for (10 * major + minor)."},
    {"devices", py_devices, METH_NOARGS, "A dict per visible CUDA device."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_host_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
