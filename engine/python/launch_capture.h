// What the script launch path and cuhost.graph share: writing the text CPU
// kernels printed to sys.stdout, and the parts of a script launch that meet
// a graph capture (host NumPy arguments are refused; a captured launch keeps
// its dispatcher and argument objects alive with the graph).
#pragma once

#include <Python.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "python/dispatcher.h"
#include "python/typeof.h"
#include "runtime/captured_graph.h"

namespace cuhost::python {

// What print() in CPU kernels produced, written to sys.stdout (as print() in
// a Python function would), so it stays in order with the script's output.
void write_kernel_output();

// Parses a grid or block dimension (an int or 1 to 3 ints; a block also
// checked against the threads-per-block limit) and a dynamic shared memory
// size as a launch configuration does (launch.cpp). False with a Python error.
bool parse_launch_dims(PyObject* v, unsigned out[3], const char* what, bool block);
bool parse_shared_bytes(PyObject* v, unsigned* out);

// Throws GraphCaptureError when `stream` is being captured and one of the
// `n` arguments is a host NumPy array or record (its copy in and back would
// be synchronous copies of pageable memory).
void refuse_host_arguments_in_capture(const char* kernel, const ArgInfo* infos, Py_ssize_t n, std::uintptr_t stream);

// The owner a captured script launch keeps: a tuple (dispatcher, arguments),
// released with the GIL taken whenever the graph lets go of it.
std::shared_ptr<void> script_launch_owner(DispatcherObject* d, PyObject* const* args, Py_ssize_t n);

// The bytes of the device arrays among a captured launch's `n` arguments
// (infos as typeof_arg filled them), which the graph's launches order
// against other streams' work (runtime::GraphTouch).
std::vector<runtime::GraphTouch> graph_touches(const ArgInfo* infos, Py_ssize_t n);

// The (dispatcher, arguments) tuple behind such an owner (borrowed).
inline PyObject* script_launch_tuple(const std::shared_ptr<void>& owner) { return static_cast<PyObject*>(owner.get()); }

}  // namespace cuhost::python
