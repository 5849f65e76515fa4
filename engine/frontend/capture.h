// Stage 1-2 of the pipeline: capture a Python function (inspect.getsource,
// dedent, ast.parse), convert its AST to the C++ AST and freeze the globals
// and closure cells it reads. Needs the GIL; the only frontend entry point
// that touches PyObject*.
#pragma once

#include <Python.h>

#include <memory>

#include "frontend/captured.h"

namespace cuhost::frontend {

// Captures `pyfunc` (a plain Python function). Throws UserError with the
// source location for constructs the kernel language rejects (classes, try,
// with, generators, f-strings, lambdas, ...), and a clear error when the
// source cannot be found (functions typed at the interactive prompt, exec).
std::shared_ptr<const CapturedFunction> capture(PyObject* pyfunc);

// Maps a Python object used as a global to its frozen value (used by capture
// and by signature/decorator code that needs the same classification).
GlobalValue freeze_global(PyObject* value);

// The kernel type of a member of a Python Enum class (EnumMember, or an
// IntEnum's), keyed by the class object (kept alive); nullptr when `value`
// is not an enum member or its value has no kernel type. No Python error.
const ir::Type* enum_member_type(PyObject* value);
// The Enum class whose member type `t` is (borrowed, kept alive), or nullptr.
PyObject* enum_class_of(const ir::Type* t);

// Hook for the python/ layer: returns the JitFunction behind a dispatcher
// object (capturing it if needed; a numba.njit function's device
// function), or nullptr if `obj` is not a dispatcher. Implemented in
// python/ (hooks.cpp).
std::shared_ptr<model::JitFunction> jit_function_of(PyObject* obj);

// Hook for the python/ layer: why a jitted object cannot be called from a
// kernel (a numba.njit function whose compilation is disabled), or "".
std::string jit_function_refusal(PyObject* obj);

// Hook for the python/ layer: returns the ForeignFunction behind a
// cuda.declare_device result, or nullptr. Implemented in python/.
std::shared_ptr<const ir::ForeignFunction> foreign_function_of(PyObject* obj);

// Hook for the python/ layer: the ExtensionObject of an object the extension
// API types when called (cuda.extending: @overload'ed functions, @intrinsic,
// classes given type_callable, ...), or nullptr. Implemented in python/.
std::shared_ptr<const ir::ExtensionObject> extension_object_of(PyObject* obj);

// Hook for the python/ layer: the record type of a structured NumPy dtype
// object, or nullptr (no Python error). Implemented in python/ (hooks.cpp).
const ir::Type* record_type_of(PyObject* dtype);

// Hook for the python/ layer: the source text a code object was compiled
// from when exec() or compile() was given it as a string (no file holds it),
// or an empty string. Implemented in python/exec_sources.cpp.
std::string exec_source_of(PyObject* code);

}  // namespace cuhost::frontend
