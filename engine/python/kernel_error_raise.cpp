// Kernel reports to Python exceptions (see kernel_error_raise.h). The class
// comes from the report's form and class key, the text from
// kernel_error_message(): numba-cuda raises the kernel's own class for a
// raise, a cuda.KernelError that is also the built-in class for a failed
// check, and a plain cuda.KernelError for any other fault.
#include "python/kernel_error_raise.h"

#include <algorithm>
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

// A raised argument as the Python value numba raises with.
PyObject* arg_value(const KernelErrorArg& a) {
  using K = KernelErrorArg::Kind;
  switch (a.kind) {
    case K::None: Py_RETURN_NONE;
    case K::Bool: return PyBool_FromLong(a.i != 0);
    case K::Int: return PyLong_FromLongLong(a.i);
    case K::UInt: return PyLong_FromUnsignedLongLong(a.u);
    case K::Float: return PyFloat_FromDouble(a.real);
    case K::Complex: return PyComplex_FromDoubles(a.real, a.imag);
    case K::String: return PyUnicode_DecodeUTF8(a.text.data(), static_cast<Py_ssize_t>(a.text.size()), "replace");
    case K::Bytes: return PyBytes_FromStringAndSize(a.text.data(), static_cast<Py_ssize_t>(a.text.size()));
    case K::Tuple: {
      PyRef t(PyTuple_New(static_cast<Py_ssize_t>(a.items.size())));
      for (size_t k = 0; t && k < a.items.size(); ++k) {
        PyObject* item = arg_value(a.items[k]);
        if (!item) return nullptr;
        PyTuple_SET_ITEM(t.get(), static_cast<Py_ssize_t>(k), item);  // steals
      }
      return t.release();
    }
  }
  Py_RETURN_NONE;
}

// A raise's arguments as numba-cuda gives them: in a launch the first is the
// message with the raise's and the thread's place, the others as raised; in
// a call from the host all as raised. Null with a Python error set on failure.
PyObject* raise_arguments(const KernelErrorReport& report) {
  const std::vector<KernelErrorArg>& args = report.site.args;
  const bool prefixed = report.in_launch;
  PyRef t(PyTuple_New(static_cast<Py_ssize_t>(prefixed && args.empty() ? 1 : args.size())));
  if (!t) return nullptr;
  for (size_t k = 0; k < std::max<size_t>(args.size(), prefixed ? 1 : 0); ++k) {
    PyObject* item = nullptr;
    if (k == 0 && prefixed) {
      const std::string text = kernel_error_message(report);
      item = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    } else {
      item = arg_value(args[k]);
    }
    if (!item) return nullptr;
    PyTuple_SET_ITEM(t.get(), static_cast<Py_ssize_t>(k), item);  // steals
  }
  return t.release();
}

}  // namespace

PyObject* raise_kernel_error(const KernelErrorReport& report) {
  PyObject* cls = class_for(report);  // borrowed
  if (report.site.form == KernelErrorForm::Raise && (report.in_launch || !report.site.args.empty())) {
    PyRef args(raise_arguments(report));
    if (args) PyErr_SetObject(cls, args.get());
    return nullptr;
  }
  const std::string text = kernel_error_message(report);
  // A bare `raise ValueError` in a function called from the host: no argument, as Python.
  if (text.empty())
    PyErr_SetNone(cls);
  else
    PyErr_SetString(cls, text.c_str());
  return nullptr;
}

}  // namespace cuhost::python
