// The Stream type of `_cuhost` (numba's Stream). Internal to python/; the
// launcher reads streams through stream_view.h.
#pragma once

#include <Python.h>

#include <cstdint>

namespace cuhost::cuda {
class Stream;
}

namespace cuhost::python {

struct StreamObject {
  PyObject_HEAD std::uintptr_t handle;
  cuda::Stream* owned;  // streams cuhost created for the script; null otherwise
  const char* kind;     // "stream", "default", "legacy default", "per-thread default", "external", "host"
  PyObject* name;       // host streams: the name the host registered; else null
  int device;           // the device the stream belongs to; -1 when unknown
  char* cpu_token;      // CPU backend: the byte whose address is a created stream's handle
};

extern PyTypeObject StreamType;

// A new Stream object for `handle` (not owned).
PyObject* new_stream_object(std::uintptr_t handle, const char* kind, PyObject* name);

// Waits for `handle` through a Stream object's Python-level synchronize()
// method (what numba-cuda calls at its implicit synchronization points, so a
// patched or overridden method sees them). False with a Python error set.
bool synchronize_through_stream_object(std::uintptr_t handle, const char* kind);

}  // namespace cuhost::python
