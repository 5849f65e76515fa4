// The one translation point from C++ exceptions to Python exceptions. Every
// entry from Python into the engine wraps its body in guarded() so a
// UserError becomes the right Python class (cuda.TypingError, LinkerError,
// builtins.IndexError, ...) and nothing C++ escapes into the interpreter.
#pragma once

#include <Python.h>
#include <cxxabi.h>

#include "support/diagnostics.h"

namespace cuhost::python {

// The Python exception class for an error kind (borrowed reference).
PyObject* exception_class(ErrorKind kind);

// Sets the Python error for the exception in flight; call inside catch(...).
void set_python_error_from_current_exception();

// Runs `body` and converts any C++ exception into the Python error,
// returning `failure_value` then: return guarded(nullptr, [&] { ... });
template <typename T, typename Body>
T guarded(T failure_value, Body&& body) {
  try {
    return body();
  } catch (abi::__forced_unwind&) {
    throw;  // a thread that an ending interpreter ends (pthread_exit) unwinds on
  } catch (...) {
    set_python_error_from_current_exception();
    return failure_value;
  }
}

}  // namespace cuhost::python
