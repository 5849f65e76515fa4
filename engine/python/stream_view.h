// What a launch needs from a stream argument, and the default stream rule:
// launches that name no stream go to the host's default stream (the first
// stream the host registered, or the one named "default"), else to a stream
// cuhost created for the process — never silently to the legacy null stream.
// Implemented by python/streams.cpp.
#pragma once

#include <Python.h>

#include <cstdint>

namespace cuhost::python {

// The CUstream (as an integer) of a Stream object, or of an int / an object
// with a `handle` attribute. False with a Python TypeError for anything else.
bool stream_handle(PyObject* obj, std::uintptr_t* handle);

// The device a stream argument belongs to (-1 when unknown: a raw handle),
// and whether it is a device's default stream, which a launch on another
// device replaces by that device's own.
int stream_device(PyObject* obj, bool* is_default);

// The stream launches use when none is given (see above). On the CPU backend
// streams are in-order and synchronous: the value is 0.
std::uintptr_t default_launch_stream();

// Makes the primary context of the calling thread's device current on this
// thread (CUDA backend; no-op on the CPU). Throws UserError on driver failures.
void ensure_context();

}  // namespace cuhost::python
