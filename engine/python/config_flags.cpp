// Reading numba.cuda.config from C++ (see config_flags.h).
#include "python/config_flags.h"

#include <Python.h>

namespace cuhost::python {

bool config_flag(const char* name) {
  static PyObject* config = nullptr;  // the module lives for the process
  if (!config) {
    config = PyImport_ImportModule("cuda.config");
    if (!config) {
      PyErr_Clear();
      return false;
    }
  }
  PyObject* value = PyObject_GetAttrString(config, name);
  if (!value) {
    PyErr_Clear();
    return false;
  }
  int truth = PyObject_IsTrue(value);
  Py_DECREF(value);
  if (truth < 0) PyErr_Clear();
  return truth > 0;
}

}  // namespace cuhost::python
