// Kernel reports to Python exceptions (see kernel_error_raise.h). The class
// comes from the report's form and class key, the text from
// kernel_error_message(): numba-cuda raises the kernel's own class for a
// raise, a cuda.KernelError that is also the built-in class for a failed
// check, and a plain cuda.KernelError for any other fault.
#include "python/kernel_error_raise.h"

#include <map>
#include <string>

#include "frontend/exception_classes.h"
#include "python/errors.h"
#include "python/py_api.h"

namespace cuhost::python {
namespace {

// A class deriving from both cuda.KernelError and the built-in `builtin`
// ("_cuhost.KernelValueError"), so numba-cuda code catching ValueError works
// and cuda.KernelError still catches it. Made once per class, kept for the
// process; null (Python error cleared) when it cannot be made.
PyObject* kernel_builtin_class(const std::string& name, PyObject* builtin) {
  static std::map<std::string, PyObject*> classes;  // guarded by the GIL
  auto it = classes.find(name);
  if (it != classes.end()) return it->second;
  PyRef bases(PyTuple_Pack(2, exception_class(ErrorKind::KernelError), builtin));
  PyObject* cls = bases ? PyErr_NewException(("_cuhost.Kernel" + name).c_str(), bases.get(), nullptr) : nullptr;
  if (!cls) {
    PyErr_Clear();
    return nullptr;
  }
  classes.emplace(name, cls);
  return cls;
}

PyObject* class_for(const KernelErrorReport& r) {
  const KernelErrorSite& s = r.site;
  PyObject* named = s.class_key.empty() ? nullptr : frontend::exception_class_of(s.class_key);
  PyObject* fallback = r.in_launch ? exception_class(ErrorKind::KernelError) : PyExc_RuntimeError;
  switch (s.form) {
    case KernelErrorForm::Index: return PyExc_IndexError;
    case KernelErrorForm::Raise: return named ? named : fallback;
    case KernelErrorForm::Check: {
      if (!named) return fallback;
      if (!r.in_launch) return named;
      PyObject* both = kernel_builtin_class(builtin_class_name(s.class_key), named);
      return both ? both : fallback;
    }
    case KernelErrorForm::Fault: return !r.in_launch && named ? named : fallback;
  }
  return fallback;
}

}  // namespace

PyObject* raise_kernel_error(const KernelErrorReport& report) {
  PyObject* cls = class_for(report);  // borrowed
  const std::string text = kernel_error_message(report);
  // A bare `raise ValueError` in a function called from the host: no argument, as Python.
  if (text.empty())
    PyErr_SetNone(cls);
  else
    PyErr_SetString(cls, text.c_str());
  return nullptr;
}

}  // namespace cuhost::python
