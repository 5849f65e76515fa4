// The launch configuration a compilation sees (numba.cuda.launchconfig): a
// launch that must compile a new specialization calls the dispatcher's
// `_compile_for_args(*args)` with the launcher set as this thread's current
// launch configuration and the arguments as its current launch arguments,
// so Python code wrapping `_compile_for_args` (or marking the compilation
// launch-configuration sensitive) sees the grid, block and arguments of the
// launch that triggered it. Launches that find their specialization compiled
// pay nothing.
#pragma once

#include <Python.h>

#include "python/dispatcher.h"

namespace cuhost::python {

// Compiles, through `dispatcher._compile_for_args(*args)`, the
// specialization a launch of `launcher` with `args` needs. False with a
// Python error set when it failed.
bool compile_for_launch(PyObject* launcher, DispatcherObject* d, PyObject* const* args, Py_ssize_t n);

// Calls each of `callbacks` (a list; may be null or empty) with
// (dispatcher, launcher) right before the kernel runs. False with a Python
// error set when one raised.
bool run_pre_launch_callbacks(PyObject* callbacks, DispatcherObject* d, PyObject* launcher);

// The launch arguments of this thread's launch-triggered compilation (a
// new reference: a tuple, or None outside one).
PyObject* current_launch_args();

// Adds _current_launch_config() and _current_launch_args().
int add_launch_config(PyObject* module);

}  // namespace cuhost::python
