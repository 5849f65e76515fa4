// The `_cuhost.Dispatcher` type behind @cuda.jit: options, eager signatures,
// lazy capture, one compiled specialization per argument-type tuple, launch
// plans keyed by the argument fingerprint, and the inspect_* methods.
#include "python/dispatcher.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <mutex>

#include "codegen/kernel_abi.h"
#include "cpu/cancellation.h"
#include "cuda/module.h"
#include "frontend/capture.h"
#include "model/fastmath_flags.h"
#include "python/argument_conversions.h"
#include "python/compile_warnings.h"
#include "python/config_flags.h"
#include "python/dispatcher_cache.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/stream_view.h"
#include "python/type_handle.h"
#include "python/type_object.h"
#include "python/typeof.h"
#include "runtime/devices.h"
#include "runtime/session.h"
#include "sema/conversions.h"
#include "sema/typed_function.h"
#include "support/blocking_wait.h"
#include "support/log.h"

namespace cuhost::python {
namespace {

// A specialized dispatcher (one signature given as such) launches its kernel
// with whatever arguments it gets, as numba-cuda's does (it chooses nothing):
// values the relation converts, integers as pointers, and an array whose
// elements have the signature's size and ndim read as the signature's dtype
// (a uint32 array given to an int32[:, :] kernel). Other mismatches would
// misplace the kernel's parameters, so they are still refused.
bool launchable_as(const std::vector<const ir::Type*>& actual, const std::vector<const ir::Type*>& params) {
  if (actual.size() != params.size()) return false;
  for (size_t i = 0; i < actual.size(); ++i) {
    const ir::Type* a = actual[i];
    const ir::Type* p = params[i];
    if (sema::conversion_kind(a, p)) continue;
    if (p->kind == ir::TypeKind::CPointer && (a->is_integer() || (a->is_array() && a->dtype == p->pointee))) continue;
    if (!a->is_array() || !p->is_array() || a->ndim != p->ndim) return false;
    if (a->dtype->byte_size() != p->dtype->byte_size() || (a->readonly && !p->readonly)) return false;
    if (p->layout != ir::Layout::A && p->layout != a->layout) return false;
  }
  return true;
}

[[noreturn]] void no_matching_definition(DispatcherState* st, const std::vector<const ir::Type*>& actual) {
  std::string msg = concat("No matching definition for argument type(s) ", type_list(actual), " in kernel '",
                           st->fn->name, "'; its signatures are:");
  for (const auto& params : st->eager) msg += "\n  " + types_str(params);
  throw UserError(ErrorKind::TypeError, msg);
}

// The eager signature a launch with `actual` uses: numba-cuda's choice
// (argument_conversions.h). No candidate, or a tie, is numba-cuda's
// TypeError. `by_conversion` is set when another call could choose
// differently once the kernels' type manager learns more conversions.
const std::vector<const ir::Type*>& choose_eager(DispatcherObject* d, const std::vector<const ir::Type*>& actual,
                                                 bool* by_conversion = nullptr) {
  DispatcherState* st = d->state;
  if (by_conversion) *by_conversion = false;
  if (st->specialized && st->eager.size() == 1) {
    if (!launchable_as(actual, st->eager[0])) no_matching_definition(st, actual);
    return st->eager[0];
  }
  SignatureChoice choice = choose_signature(TypeManager::Kernels, actual, st->eager);
  using O = SignatureChoice::Outcome;
  if (choice.outcome == O::Chosen) {
    if (by_conversion) *by_conversion = !choice.exact;
    return st->eager[choice.index];
  }
  if (choice.outcome == O::NoMatch) no_matching_definition(st, actual);
  if (choice.outcome == O::Unexplained)
    throw UserError(ErrorKind::RuntimeError, "_explain_ambiguous must raise an exception");
  PyRef r(PyObject_Repr(d->py_func));
  std::string func = r && PyUnicode_Check(r.get()) ? PyUnicode_AsUTF8(r.get()) : st->fn->name;
  PyErr_Clear();
  std::string msg = concat("Ambiguous overloading for ", func, " ", numba_reprs(actual), ":");
  for (size_t s : choice.tied) msg += "\n" + numba_reprs(st->eager[s]) + " -> none";
  throw UserError(ErrorKind::TypeError, msg);
}

// What a dispatcher compiles a specialization for: a launch (the kernels
// it holds, with their cache=True files and per-layer counts), or the
// NVPTX code inspection reads (of a kernel, or of a device function
// compiled on its own), which the compile lookup's memory keeps.
enum class Use { Launch, InspectKernel, InspectDeviceFunction };

// The specialization `types` for `target`: a launch's from the kernels this
// dispatcher holds, else from the one compile lookup (runtime/
// compile_lookup.h), which the dispatcher then holds.
std::shared_ptr<const runtime::CompiledKernel> compile_with(DispatcherObject* d,
                                                            const std::vector<const ir::Type*>& types,
                                                            const runtime::TargetOptions& target, Use use) {
  DispatcherState* st = d->state;
  if (use == Use::Launch) {
    auto held = st->compiled.find(types);
    if (held != st->compiled.end()) return held->second;
  }
  const auto& fn = ensure_captured(d);
  std::unique_ptr<runtime::EntryView> files = use == Use::Launch ? cache_files_view(d, types, target) : nullptr;
  runtime::LookupResult result;
  std::exception_ptr error;
  try {
    result = without_gil([&] {
      std::lock_guard<std::mutex> lock(st->compile_mutex);
      if (use == Use::InspectDeviceFunction) return runtime::lookup_device_function(fn, types, target);
      return runtime::lookup_kernel(fn, types, target, files.get());
    });
  } catch (...) {
    error = std::current_exception();  // raised once the compile warnings are issued
  }
  if (error && PyErr_Occurred()) std::rethrow_exception(error);  // the cache files failed in Python
  // A warning turned into an error keeps its Python exception (errors.cpp).
  if (!issue_compile_warnings() && !error) throw UserError(ErrorKind::RuntimeError, "compile warning raised");
  if (error) std::rethrow_exception(error);
  CUHOST_CHECK(result.kernel) << "the compile lookup returned nothing for " << fn->name;
  if (use != Use::Launch) return result.kernel;
  st->compiled[types] = result.kernel;
  if (std::find(st->order.begin(), st->order.end(), types) == st->order.end()) st->order.push_back(types);
  ++st->lookups[types][std::size_t(result.layer)];
  // numba's compile dumps (config.DUMP_BYTECODE, DUMP_LLVM, DUMP_OPTIMIZED, DUMP_ASSEMBLY) print from Python.
  if (config_flag("DUMP_BYTECODE") || config_flag("DUMP_LLVM") || config_flag("DUMP_OPTIMIZED") ||
      config_flag("DUMP_ASSEMBLY")) {
    PyRef sig(new_type_handle_tuple(types));
    PyRef r =
        sig ? call_hook(Hook::DebugDumps, PyRef(PyTuple_Pack(2, reinterpret_cast<PyObject*>(d), sig.get()))) : PyRef();
    if (!r) throw UserError(ErrorKind::RuntimeError, "debug dump failed");
  }
  return result.kernel;
}

std::shared_ptr<const runtime::CompiledKernel> compile_for(DispatcherObject* d,
                                                           const std::vector<const ir::Type*>& types) {
  return compile_with(d, types, session_target(d->state->fn->options), Use::Launch);
}

// An eagerly compiled kernel is also linked and loaded on a GPU at
// decoration, so its module's setup callbacks run then and the first launch
// finds the module ready (launches reuse it: the load cache is per kernel).
void load_eager(const std::shared_ptr<const runtime::CompiledKernel>& kernel) {
  runtime::Session& s = runtime::session();
  if (s.backend != Backend::Cuda || !kernel || kernel->target != runtime::Target::NVPTX) return;
  ensure_context();
  cuda::kernel_function(kernel, runtime::current_device());
}

// --- Python type ----------------------------------------------------------------

PyObject* dispatcher_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* py_func = nullptr;
  PyObject* sigs = Py_None;
  PyObject* options = Py_None;
  static const char* kwlist[] = {"py_func", "signatures", "options", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO", const_cast<char**>(kwlist), &py_func, &sigs, &options))
    return nullptr;
  if (!PyCallable_Check(py_func)) {
    PyErr_Format(PyExc_TypeError, "cuda.jit needs a Python function, got %s", Py_TYPE(py_func)->tp_name);
    return nullptr;
  }
  PyRef owner(type->tp_alloc(type, 0));  // released (deallocated) on every failure below
  if (!owner) return nullptr;
  auto* self = reinterpret_cast<DispatcherObject*>(owner.get());
  Py_INCREF(py_func);
  self->py_func = py_func;
  Py_XINCREF(options == Py_None ? nullptr : options);
  self->options = options == Py_None ? nullptr : options;
  self->state = new DispatcherState();
  // numba-cuda's argument-preparation extensions: a list the launcher
  // consults (prepare_args) when it is not empty; scripts may append to it.
  PyObject* ext = options != Py_None && PyDict_Check(options) ? PyDict_GetItemString(options, "extensions") : nullptr;
  // (Not a sequence: parse_jit_options below reports it.)
  self->extensions = ext && ext != Py_None && PySequence_Check(ext) ? PySequence_List(ext) : PyList_New(0);
  if (!self->extensions) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    auto fn = std::make_shared<model::JitFunction>();
    PyRef name(PyObject_GetAttrString(py_func, "__name__"));
    if (name && PyUnicode_Check(name.get())) fn->name = PyUnicode_AsUTF8(name.get());
    if (!name) PyErr_Clear();
    fn->options = parse_jit_options(options);
    self->state->fn = fn;
    if (sigs != Py_None) {
      const ir::Type* single_return = nullptr;
      PyRef seq(PyList_Check(sigs) ? Py_NewRef(sigs) : PyList_New(0));
      if (!seq) return nullptr;
      if (!PyList_Check(sigs) && PyList_Append(seq.get(), sigs) < 0) return nullptr;
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seq.get()); ++i) {
        ir::Signature sig;
        if (!signature_from_object(PyList_GET_ITEM(seq.get(), i), &sig)) return nullptr;
        if (!fn->options.device && sig.return_type && sig.return_type->kind != ir::TypeKind::Void &&
            sig.return_type->kind != ir::TypeKind::NoneType) {
          throw UserError(ErrorKind::TypeError, concat("CUDA kernel must have void return type. (kernel '", fn->name,
                                                       "' has signature '", sig.str(), "')"));
        }
        self->state->eager.push_back(sig.args);
        if (fn->options.device) fn->options.device_signatures.push_back(sig);
        single_return = sig.return_type;
      }
      self->state->specialized = !PyList_Check(sigs);
      if (fn->options.device && self->state->eager.size() == 1 && !fn->options.return_type)
        fn->options.return_type = single_return;
      if (!fn->options.device)
        for (const auto& types : self->state->eager) load_eager(compile_for(self, types));
    }
    return owner.release();
  });
}

// The dispatcher takes part in the cycle collector: its Python function's
// globals usually hold the dispatcher itself, and its last launcher holds it
// back, so a kernel made in a function, an exec'd namespace or a closure
// would otherwise live until the process ends (with its compiled code).
int dispatcher_traverse(PyObject* obj, visitproc visit, void* arg) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  Py_VISIT(self->py_func);
  Py_VISIT(self->options);
  Py_VISIT(self->dict);
  Py_VISIT(self->last_launcher);
  Py_VISIT(self->extensions);
  return 0;
}

// Breaks the cycles by what the dispatcher can do without: the methods rely
// on py_func, options and extensions until the dealloc.
int dispatcher_clear(PyObject* obj) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  Py_CLEAR(self->last_launcher);
  Py_CLEAR(self->dict);
  return 0;
}

void dispatcher_dealloc(PyObject* obj) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  PyObject_GC_UnTrack(obj);
  Py_XDECREF(self->py_func);
  Py_XDECREF(self->options);
  Py_XDECREF(self->last_launcher);
  Py_XDECREF(self->extensions);
  if (self->dict) Py_CLEAR(self->dict);
  delete self->state;
  Py_TYPE(obj)->tp_free(obj);
}

PyObject* dispatcher_call(PyObject* obj, PyObject*, PyObject*) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  const std::string& name = self->state->fn->name;
  if (self->state->fn->options.device) {
    PyErr_Format(PyExc_TypeError, "'%s' is a device function and is not callable from the host", name.c_str());
    return nullptr;
  }
  PyErr_Format(PyExc_ValueError,
               "kernel '%s': launch configuration was not specified. Use the syntax "
               "%s[blockspergrid, threadsperblock](arg0, arg1, ..., argn)",
               name.c_str(), name.c_str());
  return nullptr;
}

PyObject* dispatcher_getitem(PyObject* obj, PyObject* config) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  if (self->state->fn->options.device) {
    PyErr_Format(PyExc_RuntimeError,
                 "Cannot compile a device function as a kernel: '%s' is a device function; call it from a kernel",
                 self->state->fn->name.c_str());
    return nullptr;
  }
  return make_launcher(self, config);
}

PyObject* dispatcher_forall(PyObject* obj, PyObject* args, PyObject* kwargs) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  PyObject *ntasks = nullptr, *tpb = nullptr, *stream = nullptr, *shared = nullptr;
  static const char* kwlist[] = {"ntasks", "tpb", "stream", "sharedmem", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOO", const_cast<char**>(kwlist), &ntasks, &tpb, &stream, &shared))
    return nullptr;
  if (self->state->fn->options.device) {
    PyErr_Format(PyExc_TypeError, "'%s' is a device function and cannot be launched", self->state->fn->name.c_str());
    return nullptr;
  }
  return make_forall_launcher(self, ntasks, tpb, stream, shared);
}

PyObject* get_name(PyObject* obj, void*) {
  return PyUnicode_FromString(reinterpret_cast<DispatcherObject*>(obj)->state->fn->name.c_str());
}

PyObject* get_py_func(PyObject* obj, void*) {
  PyObject* f = reinterpret_cast<DispatcherObject*>(obj)->py_func;
  Py_INCREF(f);
  return f;
}

PyObject* forward_attr(PyObject* obj, void* name) {
  return PyObject_GetAttrString(reinterpret_cast<DispatcherObject*>(obj)->py_func, static_cast<const char*>(name));
}

// The argument types of every explicit signature and compiled specialization.
std::vector<std::vector<const ir::Type*>> known_signatures(DispatcherObject* self) {
  std::vector<std::vector<const ir::Type*>> all = self->state->eager;
  for (const auto& types : compiled_signatures(self))
    if (std::find(all.begin(), all.end(), types) == all.end()) all.push_back(types);
  // A kernel other kernels called: numba compiled it as a device function
  // for those calls, and lists them too (their overloads are device compiles).
  for (const auto& types : self->state->fn->calls())
    if (std::find(all.begin(), all.end(), types) == all.end()) all.push_back(types);
  return all;
}

// A list of tuples, one item per type made by `item` (a new reference).
template <class Item>
PyObject* signature_list(DispatcherObject* self, Item item) {
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& types : known_signatures(self)) {
    PyRef tuple(PyTuple_New(static_cast<Py_ssize_t>(types.size())));
    if (!tuple) return nullptr;
    for (size_t i = 0; i < types.size(); ++i) {
      PyObject* x = item(types[i]);
      if (!x) return nullptr;
      PyTuple_SET_ITEM(tuple.get(), static_cast<Py_ssize_t>(i), x);
    }
    if (PyList_Append(list.get(), tuple.get()) < 0) return nullptr;
  }
  return list.release();
}

// The signatures as tuples of cuda.types objects: type handles, made into
// objects by the signatures_from_handles hook.
PyObject* get_signatures(PyObject* obj, void*) {
  PyRef handles(signature_list(reinterpret_cast<DispatcherObject*>(obj), new_type_handle));
  if (!handles) return nullptr;
  return call_hook(Hook::SignaturesFromHandles, PyRef(PyTuple_Pack(1, handles.get()))).release();
}

PyObject* get_is_device(PyObject* obj, void*) {
  return PyBool_FromLong(reinterpret_cast<DispatcherObject*>(obj)->state->fn->options.device);
}

PyObject* get_options(PyObject* obj, void*) {
  PyObject* o = reinterpret_cast<DispatcherObject*>(obj)->options;
  if (!o) return PyDict_New();
  return PyDict_Copy(o);
}

PyObject* dispatcher_repr(PyObject* obj) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return PyUnicode_FromFormat("<cuda.jit %s '%s'>", self->state->fn->options.device ? "device function" : "kernel",
                              self->state->fn->name.c_str());
}

// _compile_args(args): compiles the specialization a launch with `args`
// uses (their types as the launcher sees them), the work behind numba's
// _compile_for_args.
PyObject* dispatcher_compile_args(PyObject* obj, PyObject* args) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  if (!PyTuple_Check(args)) {
    PyErr_SetString(PyExc_TypeError, "_compile_args expects a tuple of arguments");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_of_args(args);
    if (runtime::session().backend == Backend::Cuda) {
      // A host array reaches a GPU kernel as a contiguous device copy (launch.cpp).
      for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); ++i) {
        ArgInfo info;
        const ir::Type*& t = types[static_cast<size_t>(i)];
        if (typeof_arg(PyTuple_GET_ITEM(args, i), &info) && info.kind == ArgKind::HostArray &&
            t->layout == ir::Layout::A)
          t = ir::array(t->dtype, t->ndim, ir::Layout::C, t->readonly);
      }
    }
    std::vector<const ir::Type*> params = self->state->eager.empty() ? types : choose_eager(self, types);
    compile_for(self, params);
    Py_RETURN_NONE;
  });
}

PyMethodDef g_own_methods[] = {
    {"_compile_args", dispatcher_compile_args, METH_O,
     "Compiles the specialization a launch with these arguments uses (numba's _compile_for_args)."},
    {"forall", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispatcher_forall)),
     METH_VARARGS | METH_KEYWORDS, "A launcher covering ntasks threads with a chosen block size."},
    {nullptr, nullptr, 0, nullptr}};

// This file's methods followed by dispatcher_inspect.cpp's.
PyMethodDef* all_methods() {
  static std::vector<PyMethodDef> all = [] {
    std::vector<PyMethodDef> v;
    for (PyMethodDef* m = g_own_methods; m->ml_name; ++m) v.push_back(*m);
    for (PyMethodDef* m = dispatcher_inspect_methods(); m->ml_name; ++m) v.push_back(*m);
    for (PyMethodDef* m = dispatcher_cache_methods(); m->ml_name; ++m) v.push_back(*m);
    v.push_back({nullptr, nullptr, 0, nullptr});
    return v;
  }();
  return all.data();
}

PyObject* get_extensions(PyObject* obj, void*) {
  return Py_NewRef(reinterpret_cast<DispatcherObject*>(obj)->extensions);
}

PyGetSetDef g_getset[] = {
    {"__name__", get_name, nullptr, "The function's name.", nullptr},
    {"extensions", get_extensions, nullptr,
     "Argument-preparation extensions (objects with prepare_args), consulted at each launch.", nullptr},
    {"py_func", get_py_func, nullptr, "The Python function.", nullptr},
    {"__doc__", forward_attr, nullptr, nullptr, const_cast<char*>("__doc__")},
    {"__qualname__", forward_attr, nullptr, nullptr, const_cast<char*>("__qualname__")},
    {"__module__", forward_attr, nullptr, nullptr, const_cast<char*>("__module__")},
    {"__wrapped__", get_py_func, nullptr, nullptr, nullptr},
    {"signatures", get_signatures, nullptr, "Argument types of each signature.", nullptr},
    {"_is_device", get_is_device, nullptr, nullptr, nullptr},
    {"targetoptions", get_options, nullptr, "The options given to cuda.jit.", nullptr},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMappingMethods g_mapping = {nullptr, dispatcher_getitem, nullptr};

PyObject* py_capture_for_test(PyObject*, PyObject* obj) {
  if (!is_dispatcher(obj)) {
    PyErr_SetString(PyExc_TypeError, "expected a cuda.jit object");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    ensure_captured(reinterpret_cast<DispatcherObject*>(obj));
    Py_RETURN_NONE;
  });
}

PyMethodDef g_module_methods[] = {
    {"_capture", py_capture_for_test, METH_O, "Captures a cuda.jit function now (tests)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject DispatcherType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.Dispatcher";
  t.tp_basicsize = sizeof(DispatcherObject);
  t.tp_dealloc = dispatcher_dealloc;
  t.tp_repr = dispatcher_repr;
  t.tp_call = dispatcher_call;
  t.tp_as_mapping = &g_mapping;
  // cuda.dispatcher.CUDADispatcher subclasses it with the Python-level API.
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  t.tp_traverse = dispatcher_traverse;
  t.tp_clear = dispatcher_clear;
  t.tp_doc = "A @cuda.jit kernel or device function.";
  t.tp_methods = all_methods();
  t.tp_getset = g_getset;
  t.tp_dictoffset = offsetof(DispatcherObject, dict);
  t.tp_new = dispatcher_new;
  return t;
}();

const std::shared_ptr<model::JitFunction>& ensure_captured(DispatcherObject* d) {
  DispatcherState* st = d->state;
  if (st->fn->captured) return st->fn;
  // Captures run one tree at a time: capturing a function captures the jitted
  // functions it calls, and a function captured inside another's tree is only
  // usable once the whole tree is (mutual recursion). Capture runs Python code,
  // which may give up the GIL; another thread that needs a capture waits for
  // the tree without the GIL (support/blocking_wait.h).
  static std::recursive_mutex capture_mutex;
  auto lock = support::lock_blocking(capture_mutex);
  if (st->fn->captured || st->capturing) return st->fn;  // a recursive reference finds it being captured
  st->capturing = true;
  try {
    log::StageTimer timer(st->fn->name, "capture");
    st->fn->captured = frontend::capture(d->py_func);
  } catch (...) {
    st->capturing = false;
    throw;
  }
  st->capturing = false;
  return st->fn;
}

runtime::TargetOptions session_target(const model::JitOptions& options) {
  runtime::TargetOptions t;
  runtime::Session& s = runtime::session();
  if (s.backend == Backend::Cuda) {
    static int major = -1, minor = 0;
    if (major < 0) runtime::lowest_compute_capability(&major, &minor);
    t.target = runtime::Target::NVPTX;
    // LLVM 19 emits PTX up to sm_90; nvJitLink makes SASS for newer chips from it.
    if (major > 9) {
      t.cc_major = 9;
      t.cc_minor = 0;
    } else {
      t.cc_major = major;
      t.cc_minor = minor;
    }
  } else {
    t.target = runtime::Target::CPU;
    t.bounds_check = s.bounds_check || options.debug;
  }
  // The variant the launches of this thread run now (cpu/cancellation.h).
  t.cancellation_points = cpu::current_deadline().seconds > 0;
  // numba.cuda.config is read where the GIL is held (a live reload compiles
  // without it, and keeps each kernel's own setting: live_reload.cpp).
  t.nrt = PyGILState_Check() && config_flag("CUDA_ENABLE_NRT");
  return t;
}

std::shared_ptr<const runtime::CompiledKernel> compile_specialization(DispatcherObject* d,
                                                                      const std::vector<const ir::Type*>& types) {
  return compile_for(d, types);
}

LaunchPlan* find_plan(DispatcherObject* d, const ir::Type* const* types, int n) {
  for (const auto& p : d->state->plans)
    if (p->nargs == n && std::memcmp(p->key, types, sizeof(const ir::Type*) * static_cast<size_t>(n)) == 0)
      return p.get();
  return nullptr;
}

LaunchPlan* plan_for(DispatcherObject* d, const ir::Type* const* types, int n) {
  DispatcherState* st = d->state;
  LaunchPlan* stale = find_plan(d, types, n);
  if (stale && !choice_outdated(TypeManager::Kernels, stale->by_conversion, stale->learned)) return stale;
  if (n > kMaxLaunchArgs)
    throw UserError(ErrorKind::ValueError, concat("kernel '", st->fn->name, "' is launched with ", n,
                                                  " arguments; at most ", kMaxLaunchArgs, " are supported"));
  std::vector<const ir::Type*> actual(types, types + n);
  bool by_conversion = false;
  std::vector<const ir::Type*> params = st->eager.empty() ? actual : choose_eager(d, actual, &by_conversion);
  const std::uint64_t learned = learned_conversions(TypeManager::Kernels);  // including what this choice learned
  if (stale && stale->params == params) {                                   // numba-cuda would choose the same again
    stale->learned = learned;
    return stale;
  }
  auto plan = std::make_unique<LaunchPlan>();
  plan->by_conversion = by_conversion;
  plan->learned = learned;
  plan->nargs = n;
  std::copy(types, types + n, plan->key);
  plan->kernel = compile_for(d, params);
  plan->params = plan->kernel->arg_types.empty() ? params : plan->kernel->arg_types;
  for (const ir::Type* t : plan->params) {
    int slots = static_cast<int>(codegen::param_slot_sizes(t).size());
    plan->param_slots.push_back(slots);
    plan->total_slots += slots;
  }
  if (stale) {  // the choice changed: this fingerprint's plan is replaced
    *stale = std::move(*plan);
    return stale;
  }
  st->plans.push_back(std::move(plan));
  return st->plans.back().get();
}

std::shared_ptr<const runtime::CompiledKernel> nvptx_specialization(DispatcherObject* d,
                                                                    const std::vector<const ir::Type*>& types) {
  DispatcherState* st = d->state;
  const auto& fn = ensure_captured(d);
  // A kernel called from another kernel (numba compiles it as a device
  // function for that call): a signature only calls gave is inspected as one.
  const bool called_only = !fn->options.device &&
                           std::find(st->order.begin(), st->order.end(), types) == st->order.end() &&
                           std::find(st->eager.begin(), st->eager.end(), types) == st->eager.end() && [&] {
                             auto calls = fn->calls();
                             return std::find(calls.begin(), calls.end(), types) != calls.end();
                           }();
  runtime::TargetOptions nvptx = session_target(fn->options);
  if (nvptx.target != runtime::Target::NVPTX) {
    const bool cancellation_points = nvptx.cancellation_points, nrt = nvptx.nrt;
    nvptx = runtime::TargetOptions();
    nvptx.target = runtime::Target::NVPTX;
    nvptx.cancellation_points = cancellation_points;
    nvptx.nrt = nrt;
  }
  if (fn->options.device || called_only) {
    auto k = compile_with(d, types, nvptx, Use::InspectDeviceFunction);
    if (!called_only && std::find(st->order.begin(), st->order.end(), types) == st->order.end())
      st->order.push_back(types);
    return k;
  }
  auto k = compile_for(d, types);
  if (k->target != runtime::Target::NVPTX) return compile_with(d, types, nvptx, Use::InspectKernel);
  if (k->cancellation_points == nvptx.cancellation_points) return k;
  // Inspection shows the variant a launch from this thread would run now (a deadline set or not).
  return deadline_variant(d, *k, nvptx.cancellation_points);
}

std::shared_ptr<const runtime::CompiledKernel> deadline_variant(DispatcherObject* d,
                                                                const runtime::CompiledKernel& kernel,
                                                                bool cancellation_points) {
  DispatcherState* st = d->state;
  return without_gil([&] {
    std::lock_guard<std::mutex> lock(st->compile_mutex);
    return runtime::kernel_variant(kernel, cancellation_points);
  });
}

std::vector<std::vector<const ir::Type*>> compiled_signatures(DispatcherObject* d) {
  DispatcherState* st = d->state;
  if (!st->fn->options.device) return st->order;
  // A device function's signatures: its explicit ones, those compiled on
  // their own, and those calls from kernels typed it for.
  std::vector<std::vector<const ir::Type*>> out = st->eager;
  auto add = [&](const std::vector<const ir::Type*>& types) {
    if (std::find(out.begin(), out.end(), types) == out.end()) out.push_back(types);
  };
  for (const auto& types : st->order) add(types);
  for (const auto& types : st->fn->calls()) add(types);
  return out;
}

std::vector<const ir::Type*> signature_types(PyObject* signature) {
  ir::Signature sig;
  if (!signature_from_object(signature, &sig)) throw UserError(ErrorKind::TypeError, "invalid signature");
  return sig.args;
}

std::vector<const ir::Type*> types_of_args(PyObject* args) {
  std::vector<const ir::Type*> types;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); ++i) {
    PyObject* a = PyTuple_GET_ITEM(args, i);
    const ir::Type* t = typeof_arg(a, nullptr);
    if (!t) {
      if (PyErr_Occurred()) throw UserError(ErrorKind::TypeError, "malformed array interface");
      throw UserError(ErrorKind::TypingError,
                      concat("cannot determine the kernel type of argument ", i, " (a ", python_type_name(a), ")"));
    }
    types.push_back(t);
  }
  return types;
}

int add_dispatcher_type(PyObject* module) {
  if (PyType_Ready(&DispatcherType) < 0) return -1;
  Py_INCREF(&DispatcherType);
  if (PyModule_AddObject(module, "Dispatcher", reinterpret_cast<PyObject*>(&DispatcherType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_module_methods);
}

}  // namespace cuhost::python
