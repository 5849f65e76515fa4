// Exception classes of the `cuda` module and the translation of C++ errors
// (see errors.h). Classes carry numba's names so `except TypingError` code
// written for numba-cuda keeps working.
#include "python/errors.h"

#include <new>

#include "python/kernel_error_raise.h"
#include "python/module.h"
#include "python/python_hooks.h"

namespace cuhost::python {

namespace {

struct ClassSpec {
  ErrorKind kind;
  const char* name;
  PyObject** base;  // builtin base
};

PyObject* g_classes[32] = {};

PyObject* builtin_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::NameError: return PyExc_NameError;
    case ErrorKind::TypeError: return PyExc_TypeError;
    case ErrorKind::ValueError: return PyExc_ValueError;
    case ErrorKind::IndexError: return PyExc_IndexError;
    case ErrorKind::SyntaxError: return PyExc_SyntaxError;
    case ErrorKind::NotImplementedError: return PyExc_NotImplementedError;
    case ErrorKind::FileNotFoundError: return PyExc_FileNotFoundError;
    case ErrorKind::RuntimeError: return PyExc_RuntimeError;
    case ErrorKind::PicklingError: {
      static PyObject* cls = [] {
        PyObject* pickle = PyImport_ImportModule("pickle");
        PyObject* c = pickle ? PyObject_GetAttrString(pickle, "PicklingError") : nullptr;
        Py_XDECREF(pickle);
        if (!c) PyErr_Clear();
        return c;  // kept for the process
      }();
      return cls ? cls : PyExc_RuntimeError;
    }
    case ErrorKind::LoweringError: {
      // numba's class, defined in Python (cuda/core/errors.py) on top of
      // CudaError: the lowering_error hook; CompileError before `import cuda`.
      PyObject* cls = hook(Hook::LoweringError);
      if (!cls) PyErr_Clear();
      return cls ? cls : g_classes[static_cast<int>(ErrorKind::CompileError)];
    }
    default: return nullptr;
  }
}

}  // namespace

PyObject* exception_class(ErrorKind kind) {
  if (PyObject* b = builtin_for(kind)) return b;
  PyObject* c = g_classes[static_cast<int>(kind)];
  return c ? c : PyExc_RuntimeError;
}

int add_errors(PyObject* module) {
  // CudaError is the root of cuhost's own classes; TypingError and
  // UnsupportedError mirror numba.core.errors.
  PyObject* root =
      PyErr_NewExceptionWithDoc("_cuhost.CudaError", "Base class of cuhost's errors.", PyExc_Exception, nullptr);
  if (!root || PyModule_AddObjectRef(module, "CudaError", root) < 0) return -1;
  const ErrorKind own[] = {ErrorKind::TypingError,      ErrorKind::UnsupportedError,  ErrorKind::CompileError,
                           ErrorKind::NvrtcError,       ErrorKind::LinkerError,       ErrorKind::CudaAPIError,
                           ErrorKind::CudaSupportError, ErrorKind::KernelError,       ErrorKind::PluginError,
                           ErrorKind::NcclError,        ErrorKind::GraphCaptureError, ErrorKind::LinkFileNotFound};
  for (ErrorKind kind : own) {
    std::string qualified = std::string("_cuhost.") + error_kind_name(kind);
    // CudaSupportError is an ImportError too, as numba-cuda's (`except
    // ImportError` and its `.msg` keep working).
    // LinkerError is a RuntimeError, as numba-cuda's. A link file that does
    // not exist is both numba-cuda's LinkerError and Python's
    // FileNotFoundError (FFI.md names both).
    PyObject* linker = g_classes[static_cast<int>(ErrorKind::LinkerError)];
    PyObject* bases = kind == ErrorKind::CudaSupportError   ? PyTuple_Pack(2, root, PyExc_ImportError)
                      : kind == ErrorKind::LinkerError      ? PyTuple_Pack(2, root, PyExc_RuntimeError)
                      : kind == ErrorKind::LinkFileNotFound ? PyTuple_Pack(2, linker, PyExc_FileNotFoundError)
                                                            : Py_NewRef(root);
    if (!bases) return -1;
    PyObject* cls = PyErr_NewException(qualified.c_str(), bases, nullptr);
    Py_DECREF(bases);
    if (!cls || PyModule_AddObjectRef(module, error_kind_name(kind), cls) < 0) return -1;
    g_classes[static_cast<int>(kind)] = cls;  // kept alive by the module for the process
  }
  return 0;
}

void set_python_error_from_current_exception() {
  if (PyErr_Occurred()) return;  // a Python error is already set: keep it
  try {
    throw;
  } catch (const KernelErrorRaised& e) {
    raise_kernel_error(e.report());  // a kernel's failure: raised from its report
  } catch (const UserError& e) {
    PyErr_SetString(exception_class(e.kind()), e.what());
  } catch (const InternalError& e) {
    PyErr_SetString(PyExc_SystemError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "cuhost: %s", e.what());
  } catch (...) {
    PyErr_SetString(PyExc_SystemError, "cuhost: unknown C++ exception");
  }
}

}  // namespace cuhost::python
