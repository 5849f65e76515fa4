// The user's replacements of the driver's copy entry points (see
// transfer_overrides.h), one per direction, held for the process.
#include "python/transfer_overrides.h"

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "python/py_api.h"
#include "runtime/device_memory.h"

namespace cuhost::python {

namespace {

// Owned references, null when cuhost copies. Set with the GIL held; read
// first without it (a copy may run with the GIL released), then under it.
std::atomic<PyObject*> g_overrides[2] = {nullptr, nullptr};

std::atomic<PyObject*>& slot(Transfer direction) { return g_overrides[direction == Transfer::HostToDevice ? 0 : 1]; }

PyObject* py_set_transfer_override(PyObject*, PyObject* args) {
  const char* kind = nullptr;
  PyObject* fn = nullptr;
  if (!PyArg_ParseTuple(args, "sO:_set_transfer_override", &kind, &fn)) return nullptr;
  Transfer direction;
  if (!std::strcmp(kind, "htod")) {
    direction = Transfer::HostToDevice;
  } else if (!std::strcmp(kind, "dtoh")) {
    direction = Transfer::DeviceToHost;
  } else {
    PyErr_Format(PyExc_ValueError, "_set_transfer_override: unknown kind '%s'", kind);
    return nullptr;
  }
  if (fn != Py_None && !PyCallable_Check(fn)) {
    PyErr_Format(PyExc_TypeError, "_set_transfer_override: %R is not callable", fn);
    return nullptr;
  }
  PyObject* old = slot(direction).exchange(fn == Py_None ? nullptr : Py_NewRef(fn));
  Py_XDECREF(old);
  Py_RETURN_NONE;
}

PyMethodDef g_functions[] = {
    {"_set_transfer_override", py_set_transfer_override, METH_VARARGS,
     "_set_transfer_override(kind, fn): numba's driver.cuMemcpyHtoD/DtoH replaced by fn (None: cuhost's copy)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

bool run_transfer_override(Transfer direction, std::uintptr_t dst, std::uintptr_t src, std::size_t bytes) {
  if (!slot(direction).load()) return false;
  runtime::synchronize_device();
  {
    GilHold gil;
    PyRef fn = borrowed(slot(direction).load());  // the call may replace the override
    if (!fn) return false;
    PyRef result(PyObject_CallFunction(fn.get(), "KKn", static_cast<unsigned long long>(dst),
                                       static_cast<unsigned long long>(src), static_cast<Py_ssize_t>(bytes)));
    if (!result) throw std::runtime_error("the replaced driver copy function raised");  // guarded() keeps its error
  }
  if (direction == Transfer::HostToDevice) runtime::synchronize_device();
  return true;
}

int add_transfer_overrides(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
