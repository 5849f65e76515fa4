// The built-in `_cuhost` extension module: the C++ half of the `cuda`
// package (dispatchers, arrays, streams, launches). The pure-Python half
// lives in pylib/cuda and re-exports it.
#pragma once

#include <Python.h>

namespace cuhost::python {

// Registers `_cuhost` with PyImport_AppendInittab; call before Py_Initialize.
void register_builtin_module();

// Each part of the module adds its types and functions here (module.cpp
// calls them in order). Return 0 on success, -1 with a Python error set.
int add_errors(PyObject* module);
int add_host_api(PyObject* module);
int add_dispatcher(PyObject* module);           // cuda.jit, launches, compile API, declare_device (python/hooks.cpp)
int add_memory(PyObject* module);               // arrays, streams, events, devices (device_array_module.cpp)
int add_plugins_api(PyObject* module);          // the plugin registry (plugins_api.cpp)
int add_collectives(PyObject* module);          // communicators lent by the host (collectives.cpp)
int add_driver_calls(PyObject* module);         // the driver entry points of cuda.bindings.driver (driver_calls.cpp)
int add_toolkit_api(PyObject* module);          // NVRTC and nvJitLink for the driver layer (toolkit_api.cpp)
int add_graphs(PyObject* module);               // graphs by stream capture, for cuhost.graph (graphs.cpp)
int add_array_layout(PyObject* module);         // strided layout arithmetic for dummyarray (array_layout_api.cpp)
int add_llvm_layout(PyObject* module);          // LLVM types and sizes for extension codegen (llvm_layout_api.cpp)
int add_kernel_deadline_api(PyObject* module);  // cuhost.kernel_deadline (kernel_deadline_api.cpp)

}  // namespace cuhost::python
