// Compile warnings as Python warnings (see compile_warnings.h).
#include "python/compile_warnings.h"

#include <Python.h>

#include "support/compile_warnings.h"

namespace cuhost::python {

namespace {

PyObject* category_class(WarningCategory category) {
  const char* name = category == WarningCategory::Performance ? "NumbaPerformanceWarning"
                     : category == WarningCategory::DebugInfo ? "NumbaDebugInfoWarning"
                                                              : "NumbaWarning";
  PyObject* errors = PyImport_ImportModule("cuda.core.errors");
  PyObject* cls = errors ? PyObject_GetAttrString(errors, name) : nullptr;
  Py_XDECREF(errors);
  if (!cls) {
    PyErr_Clear();
    return Py_NewRef(PyExc_UserWarning);
  }
  return cls;
}

}  // namespace

bool issue_compile_warnings() {
  auto warnings = take_compile_warnings();
  for (const auto& [category, message] : warnings) {
    PyObject* cls = category_class(category);
    int rc = PyErr_WarnEx(cls, message.c_str(), 1);
    Py_DECREF(cls);
    if (rc < 0) return false;
  }
  return true;
}

}  // namespace cuhost::python
