// Compile warnings as Python warnings (see compile_warnings.h).
#include "python/compile_warnings.h"

#include <Python.h>

#include "python/python_hooks.h"
#include "support/compile_warnings.h"

namespace cuhost::python {

namespace {

// The class pylib registered for the category (UserWarning before `import cuda`).
PyObject* category_class(WarningCategory category) {
  Hook slot = category == WarningCategory::Performance ? Hook::PerformanceWarning
              : category == WarningCategory::DebugInfo ? Hook::DebugInfoWarning
                                                       : Hook::NumbaWarning;
  PyObject* cls = hook(slot);
  if (!cls) {
    PyErr_Clear();
    return PyExc_UserWarning;
  }
  return cls;
}

}  // namespace

bool issue_compile_warnings() {
  auto warnings = take_compile_warnings();
  for (const auto& [category, message] : warnings) {
    if (PyErr_WarnEx(category_class(category), message.c_str(), 1) < 0) return false;
  }
  return true;
}

}  // namespace cuhost::python
