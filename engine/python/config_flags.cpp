// Reading numba.cuda.config from C++ (see config_flags.h).
#include "python/config_flags.h"

#include <Python.h>

#include "python/python_hooks.h"

namespace cuhost::python {

bool config_flag(const char* name) {
  PyRef value = hook_attr(Hook::Config, name);
  if (!value) {
    PyErr_Clear();
    return false;
  }
  int truth = PyObject_IsTrue(value.get());
  if (truth < 0) PyErr_Clear();
  return truth > 0;
}

}  // namespace cuhost::python
