// Weak stand-ins for the python/ layer's dispatcher hooks, so the frontend
// links (and tests run) before or without the dispatcher: no object is a
// dispatcher or a declared foreign function. The python/ layer's strong
// definitions replace these at link time.
#include "frontend/capture.h"

namespace cuhost::frontend {

__attribute__((weak)) std::shared_ptr<runtime::JitFunction> jit_function_of(PyObject*) { return nullptr; }

__attribute__((weak)) std::shared_ptr<const ir::ForeignFunction> foreign_function_of(PyObject*) { return nullptr; }

}  // namespace cuhost::frontend
