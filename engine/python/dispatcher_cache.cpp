#define PY_SSIZE_T_CLEAN  // "y#" takes a Py_ssize_t length
// The C++ side of cache=True (see dispatcher_cache.h).
#include "python/dispatcher_cache.h"

#include <llvm/Config/llvm-config.h>

#include <algorithm>

#include "python/errors.h"
#include "runtime/compile_cache.h"
#include "runtime/kernel_serialize.h"

namespace cuhost::python {

namespace {

PyObject* spellings(const std::vector<const ir::Type*>& types) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(types.size()));
  for (size_t i = 0; t && i < types.size(); ++i)
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyUnicode_FromString(types[i]->str().c_str()));
  return t;
}

DispatcherObject* as_dispatcher(PyObject* obj) { return reinterpret_cast<DispatcherObject*>(obj); }

// _cache_export(argtypes) -> bytes, or None when the kernel cannot be kept.
PyObject* cache_export(PyObject* obj, PyObject* signature){
    CUHOST_PY_GUARD_V(nullptr,
                      {
                        DispatcherState* st = as_dispatcher(obj)->state;
                        auto it = st->compiled.find(signature_types(signature));
                        if (it == st->compiled.end() || !runtime::serializable(*it->second)) Py_RETURN_NONE;
                        std::string data = runtime::serialize_kernel(*it->second);
                        return PyBytes_FromStringAndSize(data.data(), static_cast<Py_ssize_t>(data.size()));
                      })}

// _cache_import(argtypes, data) -> bool: makes the kernel in `data` the
// compiled kernel of those argument types.
PyObject* cache_import(PyObject* obj, PyObject* args) {
  PyObject* signature;
  const char* data;
  Py_ssize_t size;
  if (!PyArg_ParseTuple(args, "Oy#", &signature, &data, &size)) return nullptr;
  CUHOST_PY_GUARD_V(nullptr, {
    DispatcherObject* d = as_dispatcher(obj);
    DispatcherState* st = d->state;
    std::vector<const ir::Type*> types = signature_types(signature);
    std::string bytes(data, static_cast<size_t>(size));
    std::shared_ptr<runtime::CompiledKernel> k;
    std::exception_ptr error;
    Py_BEGIN_ALLOW_THREADS try { k = runtime::deserialize_kernel(bytes, st->fn->name, types); } catch (...) {
      error = std::current_exception();
    }
    Py_END_ALLOW_THREADS if (error) std::rethrow_exception(error);
    runtime::TargetOptions target = session_target(st->fn->options);
    if (!k || k->target != target.target) Py_RETURN_FALSE;
    k->launch_bound_threads = st->fn->options.launch_bounds[0];
    k->shared_memory_carveout = st->fn->options.shared_memory_carveout;
    st->compiled[types] = k;
    if (std::find(st->order.begin(), st->order.end(), types) == st->order.end()) st->order.push_back(types);
    Py_RETURN_TRUE;
  })
}

// _cache_target() -> str: what a cached kernel must have been compiled for
// to run here (backend and architecture, bounds checks, the compiler build).
PyObject* cache_target(PyObject* obj, PyObject*){
    CUHOST_PY_GUARD_V(nullptr,
                      {
                        runtime::TargetOptions t = session_target(as_dispatcher(obj)->state->fn->options);
                        std::string s = concat(t.target == runtime::Target::NVPTX ? "nvptx" : "cpu", "|", t.cc_major,
                                               ".", t.cc_minor, t.arch_suffix, "|", t.bounds_check, "|", CUHOST_VERSION,
                                               "|", LLVM_VERSION_STRING, "|", runtime::engine_build_identity());
                        return PyUnicode_FromString(s.c_str());
                      })}

// _forget_compiled(): drops every compiled kernel and the captured source,
// so the next compile captures the function (and its globals) anew.
PyObject* forget_compiled(PyObject* obj, PyObject*){CUHOST_PY_GUARD_V(nullptr,
                                                                      {
                                                                        DispatcherState* st = as_dispatcher(obj)->state;
                                                                        auto fresh =
                                                                            std::make_shared<model::JitFunction>();
                                                                        fresh->name = st->fn->name;
                                                                        fresh->options = st->fn->options;
                                                                        st->fn = fresh;
                                                                        st->compiled.clear();
                                                                        st->ptx_for_inspect.clear();
                                                                        st->order.clear();
                                                                        st->plans.clear();
                                                                        Py_RETURN_NONE;
                                                                      })}

PyMethodDef g_methods[] = {
    {"_cache_export", cache_export, METH_O, "The compiled kernel of these argument types as bytes, or None."},
    {"_cache_import", cache_import, METH_VARARGS,
     "Installs a kernel read from the cache; False when it cannot run here."},
    {"_cache_target", cache_target, METH_NOARGS, "What cached kernels must have been compiled for to run here."},
    {"_forget_compiled", forget_compiled, METH_NOARGS, "Drops the compiled kernels and the captured source."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyMethodDef* dispatcher_cache_methods() { return g_methods; }

bool load_from_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types) {
  PyObject* sig = spellings(types);
  if (!sig) throw UserError(ErrorKind::RuntimeError, "cache lookup failed");
  PyObject* r = PyObject_CallMethod(reinterpret_cast<PyObject*>(d), "_cache_load", "(O)", sig);
  Py_DECREF(sig);
  if (!r) throw UserError(ErrorKind::RuntimeError, "cache lookup failed");
  bool loaded = PyObject_IsTrue(r) == 1;
  Py_DECREF(r);
  return loaded && d->state->compiled.count(types) != 0;
}

void save_to_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types) {
  PyObject* sig = spellings(types);
  if (!sig) throw UserError(ErrorKind::RuntimeError, "cache store failed");
  PyObject* r = PyObject_CallMethod(reinterpret_cast<PyObject*>(d), "_cache_save", "(O)", sig);
  Py_DECREF(sig);
  if (!r) throw UserError(ErrorKind::RuntimeError, "cache store failed");
  Py_DECREF(r);
}

}  // namespace cuhost::python
