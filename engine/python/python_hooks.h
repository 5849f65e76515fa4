// The one way C++ calls into the Python half of cuhost (pylib): a registry of
// named hooks. pylib fills each slot once, at `import cuda`, through the
// public `_cuhost.install_hooks(**hooks)` / `_cuhost.register_hook(name, obj)`
// (cuda/_hooks.py); C++ reads the slots and never imports a pylib module or
// calls a private Python method itself. The seam is described in
// docs/DESIGN.md ("The Python seam"); the slot list is python_hooks.cpp's.
#pragma once

#include <Python.h>

#include "python/py_api.h"

namespace cuhost::python {

enum class Hook : int {
  LaunchPreparation,         // fn(launcher, args, extensions): cuda.In/Out hints and extensions' prepare_args
  ArgHintClass,              // class: cuda.args.ArgHint
  CompileForArgs,            // fn(dispatcher, args): dispatcher._compile_for_args(*args), wrappable by users
  DeviceDispatcher,          // fn(host_dispatcher): the @cuda.jit device function kernels call
  FoldArguments,             // fn(host_dispatcher, args, kwargs): numba's fold_arguments, as a tuple
  DebugDumps,                // fn(dispatcher, spellings): the debug=True dumps of one compiled signature
  SignaturesFromHandles,     // fn(list of TypeHandle tuples): tuples of cuda.types objects
  RecordFromView,            // fn(view): a numpy record over a one-element device view
  ArrayGpuData,              // fn(array): DeviceNDArray.gpu_data (numba-cuda's MemoryPointer)
  ArrayDeviceCtypesPointer,  // fn(array): DeviceNDArray.device_ctypes_pointer
  ArrayGetIpcHandle,         // fn(array): DeviceNDArray.get_ipc_handle()
  ArraySplit,                // fn(array, section, stream=0): DeviceNDArray.split()
  TypeofFallback,            // fn(obj): cuda.typing.typeof for values the C++ typeof does not know
  Transpose,                 // fn(array): cuda.kernels.transpose.transpose
  NumbaDeviceFunction,       // fn(numba CPUDispatcher): its @cuda.jit device twin
  ObjectCodeNamespace,       // fn(): a new cuda.core ObjectCode namespace
  Config,                    // module: numba.cuda.config (public CUDA_* settings)
  PerformanceWarning,        // class: NumbaPerformanceWarning
  DebugInfoWarning,          // class: NumbaDebugInfoWarning
  NumbaWarning,              // class: NumbaWarning
  LoweringError,             // class: numba's LoweringError
  ExtensionBridge,           // module: cuda._ext.bridge (resolve_call, resolve_attribute, ...)
  HostArrayView,             // fn(base, address, shape, strides, readonly): a NumPy view (njit results)
  FunctionCache,             // fn(dispatcher): its cache=True file store (cuda.core.caching.function_cache)
  LiveReload,                // module: cuda._live (diff, user_files, all_dispatchers) for live kernels
  Count
};

// The name pylib registers a hook under ("launch_preparation", ...).
const char* hook_name(Hook hook);

// The installed object (borrowed), or nullptr with RuntimeError set naming
// the slot when pylib has not installed it.
PyObject* hook(Hook hook);

// Calls the hook with `args` (a tuple, stolen): the result, or nullptr with
// the Python error set.
PyRef call_hook(Hook hook, PyRef args);

// An attribute of a hook that is a module or class (a public name of it):
// a new reference, or nullptr with the Python error set.
PyRef hook_attr(Hook hook, const char* name);

// Adds _cuhost.install_hooks and _cuhost.register_hook.
int add_hooks(PyObject* module);

}  // namespace cuhost::python
