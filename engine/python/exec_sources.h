// The end of the source texts exec() and compile() were given
// (exec_sources.cpp): the interpreter's end releases them.
#pragma once

namespace cuhost::python {

// Forgets every remembered source text and stops remembering (GIL held):
// called once the engine's Python work has ended, so what the interpreter's
// finalization leaves behind does not include cuhost's table. Kernels
// captured afterwards (in a finalizer) compile from their file, as without
// exec.
void release_exec_sources();

}  // namespace cuhost::python
