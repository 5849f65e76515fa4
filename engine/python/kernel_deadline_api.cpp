// Per-launch kernel deadlines from Python: the C++ half of the
// `cuhost.kernel_deadline(seconds)` context manager (pylib/cuhost/deadline.py),
// a cuhost extension beyond numba-cuda. It sets the calling thread's
// per-launch deadline (cpu/cancellation.h) for the launches made inside the
// `with` block; those launches run the kernels' variants with cancellation
// points and are stopped at the deadline with a KernelError.
#include <cmath>

#include "cpu/cancellation.h"
#include "python/module.h"
#include "python/py_api.h"
#include "support/diagnostics.h"

namespace cuhost::python {

namespace {

// _push_kernel_deadline(seconds) -> the deadline it replaced (a float, 0: none)
PyObject* py_push_kernel_deadline(PyObject*, PyObject* arg) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (PyBool_Check(arg) || !(PyFloat_Check(arg) || PyLong_Check(arg)))
      throw UserError(ErrorKind::TypeError,
                      concat("kernel_deadline() takes a number of seconds, not ", Py_TYPE(arg)->tp_name));
    const double seconds = PyFloat_AsDouble(arg);
    if (seconds == -1.0 && PyErr_Occurred()) return nullptr;
    if (!(seconds > 0) || !std::isfinite(seconds))
      throw UserError(ErrorKind::ValueError,
                      concat("kernel_deadline() takes a finite number of seconds > 0, got ", seconds));
    return PyFloat_FromDouble(cpu::push_launch_deadline(seconds));
  });
}

// _restore_kernel_deadline(outer): back to what _push_kernel_deadline replaced.
PyObject* py_restore_kernel_deadline(PyObject*, PyObject* arg) {
  const double outer = PyFloat_AsDouble(arg);
  if (outer == -1.0 && PyErr_Occurred()) return nullptr;
  cpu::restore_launch_deadline(outer);
  Py_RETURN_NONE;
}

// _current_kernel_deadline() -> (seconds, scope): what a launch from this
// thread gets now; scope is "runtime", "script" or "launch"; (0.0, ...) when none.
PyObject* py_current_kernel_deadline(PyObject*, PyObject*) {
  const cpu::Deadline d = cpu::current_deadline();
  const char* scope = d.scope == cpu::DeadlineScope::Launch   ? "launch"
                      : d.scope == cpu::DeadlineScope::Script ? "script"
                                                              : "runtime";
  return Py_BuildValue("(ds)", d.seconds, scope);
}

PyMethodDef g_methods[] = {{"_push_kernel_deadline", py_push_kernel_deadline, METH_O,
                            "Tightens this thread's per-launch kernel deadline; returns the one it replaced."},
                           {"_restore_kernel_deadline", py_restore_kernel_deadline, METH_O,
                            "Restores the per-launch kernel deadline _push_kernel_deadline replaced."},
                           {"_current_kernel_deadline", py_current_kernel_deadline, METH_NOARGS,
                            "(seconds, scope) of the deadline a launch from this thread gets now."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_kernel_deadline_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
