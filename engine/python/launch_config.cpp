// The current launch configuration of launch-triggered compilations (see
// launch_config.h). Both pointers are borrowed for the duration of the
// compilation: the launcher and the argument tuple outlive the call.
#include "python/launch_config.h"

#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"

namespace cuhost::python {

namespace {

thread_local PyObject* t_config = nullptr;  // the launcher whose launch is compiling
thread_local PyObject* t_args = nullptr;    // its arguments (a tuple)

PyObject* py_current_launch_config(PyObject*, PyObject*) { return Py_NewRef(t_config ? t_config : Py_None); }

PyObject* py_current_launch_args(PyObject*, PyObject*) { return current_launch_args(); }

PyMethodDef g_methods[] = {{"_current_launch_config", py_current_launch_config, METH_NOARGS,
                            "The launcher whose launch is compiling on this thread, or None."},
                           {"_current_launch_args", py_current_launch_args, METH_NOARGS,
                            "The arguments of the launch compiling on this thread, or None."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyObject* current_launch_args() { return Py_NewRef(t_args ? t_args : Py_None); }

bool compile_for_launch(PyObject* launcher, DispatcherObject* d, PyObject* const* args, Py_ssize_t n) {
  PyRef tuple(PyTuple_New(n));
  if (!tuple) return false;
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(tuple.get(), i, Py_NewRef(args[i]));
  PyObject* saved_config = t_config;
  PyObject* saved_args = t_args;
  t_config = launcher;
  t_args = tuple.get();
  // The compile_for_args hook calls the dispatcher's _compile_for_args, which
  // user code may wrap (cuda/launchconfig.py).
  PyRef r = call_hook(Hook::CompileForArgs, PyRef(PyTuple_Pack(2, reinterpret_cast<PyObject*>(d), tuple.get())));
  t_config = saved_config;
  t_args = saved_args;
  return bool(r);
}

bool run_pre_launch_callbacks(PyObject* callbacks, DispatcherObject* d, PyObject* launcher) {
  if (!callbacks || PyList_GET_SIZE(callbacks) == 0) return true;
  // A copy: a callback may change the list.
  PyRef list(PyList_GetSlice(callbacks, 0, PyList_GET_SIZE(callbacks)));
  if (!list) return false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list.get()); ++i) {
    PyRef r(PyObject_CallFunctionObjArgs(PyList_GET_ITEM(list.get(), i), reinterpret_cast<PyObject*>(d), launcher,
                                         nullptr));
    if (!r) return false;
  }
  return true;
}

int add_launch_config(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
