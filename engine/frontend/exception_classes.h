// Exception classes raised in kernels (`raise ValueError("x")`, user classes,
// `assert`): capture freezes each class a kernel names as the intrinsic key
// "exception.<id>", keeping the class alive here, so that when a kernel
// compiled with debug=True reports the raise (its report carries the key,
// support/kernel_error.h), the host raises an instance of that very class
// (python/kernel_error_raise.cpp) with numba-cuda's message.
#pragma once

#include <Python.h>

#include <string>

namespace cuhost::frontend {

// The key of an exception class (registered on first use; GIL held).
std::string exception_key(PyObject* cls);
// The class of a key (borrowed; null when unknown): a registered one, or a
// built-in exception named "builtins.<Name>" by the compiler. GIL held.
PyObject* exception_class_of(const std::string& key);
// The class's __name__ for messages ("ValueError"), or "" when unknown.
std::string exception_name_of(const std::string& key);

}  // namespace cuhost::frontend
