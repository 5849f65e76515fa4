// Parsing of a launch configuration's parts (`kernel[grid, block, stream,
// shared]`, forall's tpb) with numba-cuda's exception classes and messages.
// Each returns false with a Python error set when the value is malformed.
#pragma once

#include <Python.h>

#include <cstdint>

namespace cuhost::python {

constexpr unsigned kMaxThreadsPerBlock = 1024;

// griddim/blockdim (`what` names it): an int or a sequence of 1..3 positive
// ints; missing dimensions are 1.
bool parse_dims(PyObject* v, unsigned out[3], const char* what);
// A stream argument: None or 0 (the default stream) or a stream object.
bool parse_stream(PyObject* v, PyObject** obj, std::uintptr_t* handle);
// The dynamic shared memory size in bytes (None is 0).
bool parse_shared(PyObject* v, unsigned* out);
// A block of at most kMaxThreadsPerBlock threads.
bool check_block(const unsigned block[3]);

}  // namespace cuhost::python
