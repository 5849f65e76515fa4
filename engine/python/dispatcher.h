// The C++ state behind a `@cuda.jit` object (the `_cuhost.Dispatcher` type)
// and the entry points the other dispatch files share: resolving argument
// types to a compiled specialization, launch plans, and the registration of
// the launch, compile-API and declare_device parts of the module.
#pragma once

#include <Python.h>

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ir/foreign.h"
#include "ir/types.h"
#include "model/jit_function.h"
#include "runtime/compile_lookup.h"
#include "runtime/compiler.h"
#include "runtime/kernel_launch.h"

namespace cuhost::sema {
struct TypedFunction;
}

namespace cuhost::python {

constexpr int kMaxLaunchArgs = 32;

// What one launch of a given argument-type fingerprint needs: the compiled
// kernel, the parameter types values are converted to, and the slot count.
struct LaunchPlan {
  int nargs = 0;
  const ir::Type* key[kMaxLaunchArgs] = {};
  std::shared_ptr<const runtime::CompiledKernel> kernel;
  // `kernel` with the other choice of cancellation points, for launches
  // under a deadline when `kernel` has none, or the other way round.
  runtime::OtherVariant other;
  std::vector<const ir::Type*> params;
  std::vector<int> param_slots;  // slots of each parameter
  int total_slots = 0;
  // Chosen among eager signatures by conversion, when the kernels' type
  // manager had learned `learned` conversions (argument_conversions.h).
  bool by_conversion = false;
  std::uint64_t learned = 0;
  runtime::LoadedKernel loaded;  // CUDA: the function, loaded at the first launch
  unsigned forall_block = 0;     // CUDA: forall's occupancy block size without dynamic shared memory (0: not yet)
};

struct DispatcherState {
  std::shared_ptr<model::JitFunction> fn;
  bool capturing = false;
  std::vector<std::vector<const ir::Type*>> eager;  // explicit signatures (argument types)
  // cuda.jit(sig) with one signature (not a list): numba-cuda's "specialized"
  // dispatcher, which launches its kernel without checking argument types.
  bool specialized = false;
  std::mutex compile_mutex;  // taken with the GIL released
  // The kernels this dispatcher holds (numba's overloads): the launch path's
  // index, filled from the one compile lookup (runtime/compile_lookup.h).
  std::map<std::vector<const ir::Type*>, std::shared_ptr<const runtime::CompiledKernel>> compiled;
  // Which cache layer served each specialization of `compiled` (`stats`).
  std::map<std::vector<const ir::Type*>, runtime::LayerCounts> lookups;
  std::vector<std::vector<const ir::Type*>> order;  // compiled specializations (launches, eager, inspection)
  std::vector<std::unique_ptr<LaunchPlan>> plans;   // touched only with the GIL held
};

struct DispatcherObject {
  PyObject_HEAD PyObject* py_func;
  PyObject* options;  // the options dict given to cuda.jit (or null)
  PyObject* dict;
  PyObject* last_launcher;  // the configured launcher of the previous k[...] (reused when the config repeats)
  PyObject* extensions;     // list of argument-preparation extensions (cuda.jit(extensions=...)); never null
  DispatcherState* state;
};

extern PyTypeObject DispatcherType;

inline bool is_dispatcher(PyObject* obj) { return PyObject_TypeCheck(obj, &DispatcherType); }

// Captures the function on first need (GIL held). Throws UserError.
const std::shared_ptr<model::JitFunction>& ensure_captured(DispatcherObject* d);

// The target kernels of this session compile for (backend, compute capability,
// bounds checks).
runtime::TargetOptions session_target(const model::JitOptions& options);

// Compiles (or finds) the kernel specialization for `types` (GIL held). For
// the C++ launch API.
std::shared_ptr<const runtime::CompiledKernel> compile_specialization(DispatcherObject* d,
                                                                      const std::vector<const ir::Type*>& types);

// The launch plan already made for argument types `types`, or null.
LaunchPlan* find_plan(DispatcherObject* d, const ir::Type* const* types, int n);

// Returns the launch plan for argument types `types` (GIL held), compiling
// when needed. Throws UserError (TypingError listing the signatures when
// eager signatures admit none of the types).
LaunchPlan* plan_for(DispatcherObject* d, const ir::Type* const* types, int n);

// Parses the options dict given to cuda.jit (dispatcher_jit_options.cpp).
// Throws UserError with numba-cuda's exception classes.
model::JitOptions parse_jit_options(PyObject* options);
// Adds _cuhost.jit_option_names (dispatcher_jit_options.cpp).
int add_jit_options(PyObject* module);

// The NVPTX compilation of a specialization, for inspection and resource
// queries: the launched one on a GPU, a PTX-only compile on the CPU backend,
// and for device functions the function compiled on its own (GIL held).
std::shared_ptr<const runtime::CompiledKernel> nvptx_specialization(DispatcherObject* d,
                                                                    const std::vector<const ir::Type*>& types);

// `kernel` (one of d's) with or without cancellation points
// (runtime/compile_lookup.h's kernel_variant), compiled under d's compile
// lock with the GIL released (GIL held on entry).
std::shared_ptr<const runtime::CompiledKernel> deadline_variant(DispatcherObject* d,
                                                                const runtime::CompiledKernel& kernel,
                                                                bool cancellation_points);

// The compiled specializations (argument types) in compilation order.
std::vector<std::vector<const ir::Type*>> compiled_signatures(DispatcherObject* d);

// Argument types of a signature object or of the values/type objects in
// `args` (specialize). Throws UserError.
std::vector<const ir::Type*> signature_types(PyObject* signature);
std::vector<const ir::Type*> types_of_args(PyObject* args);

// The methods of dispatcher_inspect.cpp (null-terminated).
PyMethodDef* dispatcher_inspect_methods();

// The text form of argument types: "(float32, int64)".
std::string types_str(const std::vector<const ir::Type*>& types);

// inspect_types()' text for one typed specialization (its signature when
// `typed` is null): the annotated source, the locals and the return type.
std::string describe_typed(const std::string& name, const sema::TypedFunction* typed,
                           const std::vector<const ir::Type*>& arg_types);

// One signature given as a string (read by the engine's parser), a
// signature object (the `__cuhost_signature__` protocol), or a tuple of
// argument types (TypeHandles, `__cuhost_type__` objects or spellings).
// Throws UserError;
// returns false with a Python error for objects that are no signature.
bool signature_from_object(PyObject* obj, ir::Signature* out);

// Converts a `link=` value (None, a path, a LinkableCode, or a list/tuple/set
// of those) into link items. Throws UserError(TypeError) for wrong items.
std::vector<ir::LinkItem> link_items_from_object(PyObject* obj);

// The parts of the dispatch area registered by add_dispatcher.
int add_launch(PyObject* module);
int add_compile_api(PyObject* module);
int add_exec_sources(PyObject* module);  // exec_sources.cpp
int add_declare_device(PyObject* module);
int add_typeof(PyObject* module);
int add_call_key(PyObject* module);    // _cuhost._call_key (call_key.cpp)
int add_ufunc_call(PyObject* module);  // _cuhost._ufunc_call (ufunc_call.cpp)
int add_nrt_api(PyObject* module);     // _cuhost._nrt_counts, _nrt_set_counting (nrt_api.cpp)
int add_dispatcher_type(PyObject* module);

// Launcher objects (launch.cpp).
PyObject* make_launcher(DispatcherObject* d, PyObject* config);
PyObject* make_forall_launcher(DispatcherObject* d, PyObject* ntasks, PyObject* tpb, PyObject* stream,
                               PyObject* sharedmem);

// The ForeignFunction behind a cuda.declare_device object, or null.
std::shared_ptr<const ir::ForeignFunction> declared_foreign_function(PyObject* obj);

}  // namespace cuhost::python
