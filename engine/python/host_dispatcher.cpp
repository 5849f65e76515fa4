// The `_cuhost.HostDispatcher` type behind numba.njit (host_dispatcher.h).
// A call types its arguments (numba's typeof for the CPU target), finds the
// plan of that fingerprint (compiled once: lazily for the argument types,
// or, with explicit signatures, the signature the arguments convert to most
// cheaply), packs the arguments into slots on the stack, calls the compiled
// entry and boxes the result; a repeated call allocates nothing but its
// result. numba/core/dispatcher.py adds the Python-level API.
#include "python/host_dispatcher.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "cpu/host_call_errors.h"
#include "cpu/print_output.h"
#include "ir/type_parser.h"
#include "python/argument_conversions.h"
#include "python/dispatcher.h"
#include "python/dispatcher_cache.h"
#include "python/errors.h"
#include "python/host_values.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/type_handle.h"
#include "python/type_object.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_lookup.h"
#include "runtime/host_function.h"
#include "sema/typed_function.h"

namespace cuhost::python {
namespace {

constexpr int kMaxHostArgs = 32;
constexpr int kStackSlots = 256;

struct HostPlan {
  int nargs = 0;
  const ir::Type* key[kMaxHostArgs] = {};
  std::shared_ptr<const runtime::CompiledHostFunction> fn;
  // Chosen among explicit signatures by conversion, when numba's type
  // manager had learned `learned` conversions (argument_conversions.h).
  bool by_conversion = false;
  std::uint64_t learned = 0;
};

struct HostState {
  std::shared_ptr<model::JitFunction> fn;  // the device dispatcher's (captured), once needed
  PyRef device;                            // that device dispatcher: its cache=True files are the function's
  runtime::HostCallOptions options;
  bool nogil = false;
  bool can_compile = true;
  std::vector<ir::Signature> eager;  // explicit signatures, in order
  std::vector<std::unique_ptr<HostPlan>> plans;
  std::vector<std::shared_ptr<const runtime::CompiledHostFunction>> compiled;  // in compilation order
  // Which cache layer served each specialization (numba's stats: _lookup_counts()).
  std::map<std::vector<const ir::Type*>, runtime::LayerCounts> lookups;
};

struct HostDispatcherObject {
  PyObject_HEAD PyObject* py_func;
  PyObject* dict;
  HostState* state;
  Py_ssize_t nparams;  // positional parameters; calls with others fold their arguments in Python
  std::string* name;
  vectorcallfunc vectorcall;
};

HostDispatcherObject* as_host(PyObject* obj) { return reinterpret_cast<HostDispatcherObject*>(obj); }

const std::shared_ptr<model::JitFunction>& function_of(HostDispatcherObject* self) {
  HostState* st = self->state;
  if (st->fn) return st->fn;
  // The Python class makes the device dispatcher kernels call (one per
  // function, so the capture is shared): the device_dispatcher hook.
  PyRef device = call_hook(Hook::DeviceDispatcher, PyRef(PyTuple_Pack(1, reinterpret_cast<PyObject*>(self))));
  if (!device) throw UserError(ErrorKind::TypeError, "");  // the Python error stays set
  if (!is_dispatcher(device.get()))
    throw UserError(ErrorKind::TypeError, "the device_dispatcher hook must return a cuda.jit device function");
  st->fn = ensure_captured(reinterpret_cast<DispatcherObject*>(device.get()));
  st->device = std::move(device);
  return st->fn;
}

// The explicit signature calls with `actual` use: numba's choice
// (argument_conversions.h) and its messages. `by_conversion` is set when a
// later call could choose differently once the type manager learns more.
const ir::Signature& choose_explicit(HostDispatcherObject* self, const std::vector<const ir::Type*>& actual,
                                     bool* by_conversion) {
  HostState* st = self->state;
  std::vector<std::vector<const ir::Type*>> params;
  for (const ir::Signature& sig : st->eager) params.push_back(sig.args);
  SignatureChoice choice = choose_signature(TypeManager::HostCalls, actual, params);
  using O = SignatureChoice::Outcome;
  *by_conversion = choice.outcome == O::Chosen && !choice.exact;
  if (choice.outcome == O::Chosen) return st->eager[choice.index];
  if (choice.outcome == O::NoMatch)
    throw UserError(ErrorKind::TypeError, concat("No matching definition for argument type(s) ", type_list(actual)));
  if (choice.outcome == O::Unexplained)
    throw UserError(ErrorKind::RuntimeError, "_explain_ambiguous must raise an exception");
  PyRef r(PyObject_Repr(self->py_func));
  std::string func = r && PyUnicode_Check(r.get()) ? PyUnicode_AsUTF8(r.get()) : *self->name;
  PyErr_Clear();
  std::string msg = concat("Ambiguous overloading for ", func, " ", numba_reprs(actual), ":");
  for (size_t s : choice.tied) {
    const ir::Signature& sig = st->eager[s];
    msg += "\n" + numba_reprs(sig.args) + " -> " + (sig.return_type ? sig.return_type->str() : "none");
  }
  throw UserError(ErrorKind::TypeError, msg);
}

// --- compilation -------------------------------------------------------------------

std::shared_ptr<const runtime::CompiledHostFunction> compile(HostDispatcherObject* self,
                                                             const std::vector<const ir::Type*>& types,
                                                             const ir::Type* declared_return) {
  HostState* st = self->state;
  const auto& fn = function_of(self);
  // Typing may call back into Python (extension API hooks take the GIL).
  // The one cache path (runtime/compile_lookup.h): memory, the cache=True files, then the pipeline.
  std::unique_ptr<runtime::EntryView> files = cache_files_view(
      reinterpret_cast<DispatcherObject*>(st->device.get()), types,
      runtime::host_identity(declared_return, st->options.python_error_model, st->options.bounds_check));
  runtime::HostLookup found =
      without_gil([&] { return runtime::lookup_host_function(fn, types, declared_return, st->options, files.get()); });
  if (std::find(st->compiled.begin(), st->compiled.end(), found.function) == st->compiled.end()) {
    st->compiled.push_back(found.function);
    ++st->lookups[types][std::size_t(found.layer)];
  }
  return found.function;
}

HostPlan* plan_for(HostDispatcherObject* self, const ir::Type* const* types, int n) {
  HostState* st = self->state;
  HostPlan* stale = nullptr;
  for (const auto& p : st->plans)
    if (p->nargs == n && std::memcmp(p->key, types, sizeof(const ir::Type*) * static_cast<size_t>(n)) == 0) {
      if (!choice_outdated(TypeManager::HostCalls, p->by_conversion, p->learned)) return p.get();
      stale = p.get();
    }
  std::vector<const ir::Type*> actual(types, types + n);
  auto plan = std::make_unique<HostPlan>();
  plan->nargs = n;
  std::copy(types, types + n, plan->key);
  const ir::Signature* exact = nullptr;
  for (const ir::Signature& sig : st->eager)
    if (sig.args == actual) exact = &sig;
  if (exact) {
    plan->fn = compile(self, exact->args, exact->return_type);
  } else if (st->can_compile) {
    plan->fn = compile(self, actual, nullptr);
  } else if (!st->eager.empty()) {
    const ir::Signature& sig = choose_explicit(self, actual, &plan->by_conversion);
    plan->learned = learned_conversions(TypeManager::HostCalls);  // including what this choice learned
    plan->fn = compile(self, sig.args, sig.return_type);
  } else {
    throw UserError(ErrorKind::TypeError, concat("No matching definition for argument type(s) ", type_list(actual)));
  }
  if (stale) {  // chosen again (compiles are cached: the same signature costs nothing)
    *stale = std::move(*plan);
    return stale;
  }
  st->plans.push_back(std::move(plan));
  return st->plans.back().get();
}

// --- calling -------------------------------------------------------------------------

void write_printed_output() {
  std::string text = cpu::take_printed_output();
  if (text.empty()) return;
  PyObject* out = PySys_GetObject("stdout");  // borrowed
  if (out && out != Py_None && PyFile_WriteString(text.c_str(), out) == 0) return;
  PyErr_Clear();
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

PyObject* call_with(HostDispatcherObject* self, PyObject* const* args, Py_ssize_t n) {
  const char* name = self->name->c_str();
  if (n > kMaxHostArgs) {
    PyErr_Format(PyExc_TypeError, "'%s' is called with %zd arguments; host calls take at most %d", name, n,
                 kMaxHostArgs);
    return nullptr;
  }
  const ir::Type* types[kMaxHostArgs];
  ArgInfo infos[kMaxHostArgs];
  for (Py_ssize_t i = 0; i < n; ++i) {
    types[i] = host_typeof(args[i], &infos[i], i, name);
    if (!types[i]) return nullptr;
  }
  HostPlan* plan = guarded<HostPlan*>(nullptr, [&] { return plan_for(self, types, static_cast<int>(n)); });
  if (!plan) return nullptr;
  const runtime::CompiledHostFunction& fn = *plan->fn;
  std::uint64_t stack_args[kStackSlots], stack_result[kStackSlots];
  std::vector<std::uint64_t> heap_args, heap_result;
  std::uint64_t* arg_slots = stack_args;
  std::uint64_t* result_slots = stack_result;
  if (fn.arg_slots > kStackSlots) {
    heap_args.resize(static_cast<size_t>(fn.arg_slots));
    arg_slots = heap_args.data();
  }
  if (fn.result_slots > kStackSlots) {
    heap_result.resize(static_cast<size_t>(fn.result_slots));
    result_slots = heap_result.data();
  }
  std::uint64_t* slot = arg_slots;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!pack_host_value(args[i], fn.arg_types[static_cast<size_t>(i)], &infos[i], slot, name)) return nullptr;
  cpu::HostCallError error;
  std::int32_t status;
  {
    cpu::HostCallScope scope(&error);
    if (self->state->nogil)
      status = without_gil([&] { return fn.entry(arg_slots, result_slots); });
    else
      status = fn.entry(arg_slots, result_slots);
  }
  write_printed_output();  // a function loaded from the disk cache has no typed body to tell
  if (status != 0 || error.reported) return raise_host_call_error(error, status, name);
  const std::uint64_t* out = result_slots;
  return box_host_result(fn.return_type, out, HostCallArgs{args, infos, n}, name);
}

PyObject* host_vectorcall(PyObject* obj, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* self = as_host(obj);
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (!kwnames && n == self->nparams) return call_with(self, args, n);
  // Keyword arguments or defaults: the Python class binds them to the
  // function's parameters (numba's fold_arguments).
  PyRef positional(PyTuple_New(n));
  if (!positional) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(positional.get(), i, Py_NewRef(args[i]));
  PyRef keywords(PyDict_New());
  if (!keywords) return nullptr;
  for (Py_ssize_t i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); ++i)
    if (PyDict_SetItem(keywords.get(), PyTuple_GET_ITEM(kwnames, i), args[n + i]) < 0) return nullptr;
  PyRef folded = call_hook(Hook::FoldArguments, PyRef(PyTuple_Pack(3, obj, positional.get(), keywords.get())));
  if (!folded) return nullptr;
  if (!PyTuple_Check(folded.get())) {
    PyErr_SetString(PyExc_TypeError, "the fold_arguments hook must return a tuple");
    return nullptr;
  }
  return call_with(self, &PyTuple_GET_ITEM(folded.get(), 0), PyTuple_GET_SIZE(folded.get()));
}

// --- the Python type -------------------------------------------------------------------

bool option_true(PyObject* options, const char* key) {
  PyObject* v = options ? PyDict_GetItemString(options, key) : nullptr;
  return v && v != Py_None && PyObject_IsTrue(v) == 1;
}

PyObject* host_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* py_func = nullptr;
  PyObject* options = nullptr;
  static const char* kwlist[] = {"py_func", "options", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O!", const_cast<char**>(kwlist), &py_func, &PyDict_Type, &options))
    return nullptr;
  if (!PyFunction_Check(py_func)) {
    PyErr_Format(PyExc_TypeError, "numba.jit needs a Python function, got %s", Py_TYPE(py_func)->tp_name);
    return nullptr;
  }
  PyObject* error_model = options ? PyDict_GetItemString(options, "error_model") : nullptr;
  if (error_model && error_model != Py_None &&
      (!PyUnicode_Check(error_model) || (PyUnicode_CompareWithASCIIString(error_model, "python") != 0 &&
                                         PyUnicode_CompareWithASCIIString(error_model, "numpy") != 0))) {
    PyErr_Format(PyExc_ValueError, "error_model must be 'python' or 'numpy', got %R", error_model);
    return nullptr;
  }
  auto* self = reinterpret_cast<HostDispatcherObject*>(type->tp_alloc(type, 0));
  if (!self) return nullptr;
  self->py_func = Py_NewRef(py_func);
  self->state = new HostState();
  // A subclass that defines __call__ (the refused constructs of
  // numba/core/dispatcher.py) is called through it.
  self->vectorcall = type->tp_call == PyVectorcall_Call ? host_vectorcall : nullptr;
  auto* code = reinterpret_cast<PyCodeObject*>(PyFunction_GetCode(py_func));
  // *args/**kwargs and keyword-only parameters always go through _fold_arguments.
  bool plain = !(code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) && code->co_kwonlyargcount == 0;
  self->nparams = plain ? code->co_argcount : -1;
  PyRef name(PyObject_GetAttrString(py_func, "__name__"));
  self->name = new std::string(name && PyUnicode_Check(name.get()) ? PyUnicode_AsUTF8(name.get()) : "<function>");
  PyErr_Clear();
  self->state->options.bounds_check = option_true(options, "boundscheck");
  self->state->options.python_error_model =
      !error_model || error_model == Py_None || PyUnicode_CompareWithASCIIString(error_model, "python") == 0;
  self->state->nogil = option_true(options, "nogil");
  return reinterpret_cast<PyObject*>(self);
}

int host_traverse(PyObject* obj, visitproc visit, void* arg) {
  auto* self = as_host(obj);
  Py_VISIT(self->py_func);
  Py_VISIT(self->dict);
  return 0;
}

int host_clear(PyObject* obj) {
  auto* self = as_host(obj);
  Py_CLEAR(self->dict);
  return 0;
}

void host_dealloc(PyObject* obj) {
  auto* self = as_host(obj);
  PyObject_GC_UnTrack(obj);
  Py_CLEAR(self->py_func);
  Py_CLEAR(self->dict);
  delete self->state;
  delete self->name;
  Py_TYPE(obj)->tp_free(obj);  // a subclass's dealloc releases its heap type
}

// Argument types of a tuple of type objects, TypeHandles or spellings.
std::vector<const ir::Type*> types_of(PyObject* spec) {
  ir::Signature sig;
  if (!signature_from_object(spec, &sig)) throw UserError(ErrorKind::TypeError, "");
  return sig.args;
}

// (argument TypeHandles, return TypeHandle) of one compiled overload.
PyObject* overload_tuple(const runtime::CompiledHostFunction& f) {
  PyRef args(new_type_handle_tuple(f.arg_types));
  PyRef ret(args ? new_type_handle(f.return_type) : nullptr);
  if (!ret) return nullptr;
  return PyTuple_Pack(2, args.get(), ret.get());
}

// _add_signature(sig): an explicit signature, compiled now; returns (args, return).
PyObject* host_add_signature(PyObject* obj, PyObject* sig_obj) {
  auto* self = as_host(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    ir::Signature sig;
    if (!signature_from_object(sig_obj, &sig)) return nullptr;
    if (sig.return_type && sig.return_type->kind == ir::TypeKind::Void) sig.return_type = nullptr;
    auto compiled = compile(self, sig.args, sig.return_type);
    self->state->eager.push_back(sig);
    return overload_tuple(*compiled);
  });
}

// _compile_for(argtypes): compiles for these argument types; returns (args, return).
PyObject* host_compile_for(PyObject* obj, PyObject* spec) {
  auto* self = as_host(obj);
  return guarded<PyObject*>(nullptr, [&] {
    std::vector<const ir::Type*> types = types_of(spec);
    if (types.size() > static_cast<size_t>(kMaxHostArgs))
      throw UserError(ErrorKind::TypeError, "too many arguments for a host call");
    HostPlan* plan = plan_for(self, types.data(), static_cast<int>(types.size()));
    return overload_tuple(*plan->fn);
  });
}

const runtime::CompiledHostFunction& compiled_for(HostDispatcherObject* self, PyObject* spec) {
  std::vector<const ir::Type*> types = types_of(spec);
  for (const auto& f : self->state->compiled)
    if (f->arg_types == types) return *f;
  throw UserError(ErrorKind::ValueError,
                  concat("no specialization of '", *self->name, "' for (", type_list(types), ")"));
}

PyObject* host_overloads(PyObject* obj, PyObject*) {
  auto* self = as_host(obj);
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& f : self->state->compiled) {
    PyRef item(overload_tuple(*f));
    if (!item || PyList_Append(list.get(), item.get()) < 0) return nullptr;
  }
  return list.release();
}

// _lookup_counts() -> [(argument TypeHandles, {layer name: count}), ...]:
// which cache layer served each specialization (numba.core.dispatcher
// builds `stats` from them).
PyObject* host_lookup_counts(PyObject* obj, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return new_lookup_counts(as_host(obj)->state->lookups); });
}

PyObject* host_llvm(PyObject* obj, PyObject* spec) {
  return guarded<PyObject*>(nullptr, [&] {
    const auto& f = compiled_for(as_host(obj), spec);
    return PyUnicode_FromStringAndSize(f.llvm_ir.data(), static_cast<Py_ssize_t>(f.llvm_ir.size()));
  });
}

PyObject* host_asm(PyObject* obj, PyObject* spec) {
  return guarded<PyObject*>(nullptr, [&] {
    std::string text = runtime::host_assembly(compiled_for(as_host(obj), spec));
    return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
  });
}

PyObject* host_annotation(PyObject* obj, PyObject* spec) {
  return guarded<PyObject*>(nullptr, [&] {
    const auto& f = compiled_for(as_host(obj), spec);
    std::string text = describe_typed(f.name, f.typed.get(), f.arg_types);
    return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
  });
}

PyObject* host_typemap(PyObject* obj, PyObject* spec) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const auto& f = compiled_for(as_host(obj), spec);
    PyRef out(PyDict_New());
    if (!out || !f.typed) return out.release();
    for (const auto& [local, type] : f.typed->locals) {
      if (!type) continue;
      PyRef h(new_type_handle(type));
      if (!h || PyDict_SetItemString(out.get(), local.c_str(), h.get()) < 0) return nullptr;
    }
    return out.release();
  });
}

PyObject* get_py_func(PyObject* obj, void*) { return Py_NewRef(as_host(obj)->py_func); }
PyObject* get_name(PyObject* obj, void*) { return PyUnicode_FromString(as_host(obj)->name->c_str()); }
PyObject* forward_attr(PyObject* obj, void* attr) {
  return PyObject_GetAttrString(as_host(obj)->py_func, static_cast<const char*>(attr));
}
PyObject* get_can_compile(PyObject* obj, void*) { return PyBool_FromLong(as_host(obj)->state->can_compile); }
int set_can_compile(PyObject* obj, PyObject* value, void*) {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "_can_compile cannot be deleted");
    return -1;
  }
  int b = PyObject_IsTrue(value);
  if (b < 0) return -1;
  as_host(obj)->state->can_compile = b != 0;
  return 0;
}
PyObject* get_eager_count(PyObject* obj, void*) { return PyLong_FromSize_t(as_host(obj)->state->eager.size()); }

PyMethodDef g_methods[] = {
    {"_add_signature", host_add_signature, METH_O, "Compiles an explicit signature now; returns (args, return)."},
    {"_compile_for", host_compile_for, METH_O, "Compiles for argument types; returns (args, return)."},
    {"_overloads", host_overloads, METH_NOARGS, "(argument TypeHandles, return TypeHandle) of each specialization."},
    {"_lookup_counts", host_lookup_counts, METH_NOARGS, "The cache layer that served each specialization."},
    {"_llvm", host_llvm, METH_O, "The optimized LLVM IR of a specialization."},
    {"_asm", host_asm, METH_O, "The host assembly of a specialization."},
    {"_annotation", host_annotation, METH_O, "inspect_types() text of a specialization."},
    {"_typemap", host_typemap, METH_O, "{local: type spelling} of a specialization."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef g_getset[] = {
    {"py_func", get_py_func, nullptr, "The Python function.", nullptr},
    {"__wrapped__", get_py_func, nullptr, nullptr, nullptr},
    {"__name__", get_name, nullptr, "The function's name.", nullptr},
    {"__qualname__", forward_attr, nullptr, nullptr, const_cast<char*>("__qualname__")},
    {"__module__", forward_attr, nullptr, nullptr, const_cast<char*>("__module__")},
    {"__doc__", forward_attr, nullptr, nullptr, const_cast<char*>("__doc__")},
    {"_can_compile", get_can_compile, set_can_compile, "Whether calls may compile new specializations.", nullptr},
    {"_explicit_signature_count", get_eager_count, nullptr, nullptr, nullptr},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject make_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.HostDispatcher";
  t.tp_basicsize = sizeof(HostDispatcherObject);
  t.tp_dealloc = host_dealloc;
  t.tp_vectorcall_offset = offsetof(HostDispatcherObject, vectorcall);
  t.tp_call = PyVectorcall_Call;
  // numba.core.dispatcher.Dispatcher subclasses it with the Python-level API.
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC;
  t.tp_doc = "A numba.njit function: called on the host, it runs compiled for the CPU.";
  t.tp_traverse = host_traverse;
  t.tp_clear = host_clear;
  t.tp_methods = g_methods;
  t.tp_getset = g_getset;
  t.tp_dictoffset = offsetof(HostDispatcherObject, dict);
  t.tp_new = host_new;
  return t;
}

}  // namespace

PyTypeObject HostDispatcherType = make_type();

bool is_host_dispatcher(PyObject* obj) { return obj && PyObject_TypeCheck(obj, &HostDispatcherType); }

std::shared_ptr<model::JitFunction> host_dispatcher_function(PyObject* obj) { return function_of(as_host(obj)); }

std::string host_dispatcher_refusal(PyObject* obj) {
  if (!is_host_dispatcher(obj) || as_host(obj)->state->can_compile) return "";
  return "using cpu function on device but its compilation is disabled";
}

int add_host_dispatcher(PyObject* module) {
  if (PyType_Ready(&HostDispatcherType) < 0) return -1;
  return PyModule_AddObjectRef(module, "HostDispatcher", reinterpret_cast<PyObject*>(&HostDispatcherType));
}

}  // namespace cuhost::python
