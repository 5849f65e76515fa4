// The C++ side of cache=True (see dispatcher_cache.h): the lookup in numba's
// cache files and the store after a compile, as steps of the compile path.
#include "python/dispatcher_cache.h"

#include <llvm/Config/llvm-config.h>

#include <algorithm>

#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/type_handle.h"
#include "runtime/compile_cache.h"
#include "runtime/kernel_serialize.h"
#include "support/log.h"

namespace cuhost::python {

namespace {

// A failed call into the cache files: their Python error stays set.
[[noreturn]] void cache_failed(const char* what) { throw UserError(ErrorKind::RuntimeError, what); }

// The argument types as the cache files receive them: TypeHandles.
PyRef type_handles(const std::vector<const ir::Type*>& types) {
  PyRef t(new_type_handle_tuple(types));
  if (!t) cache_failed("cache lookup failed");
  return t;
}

// What a cached kernel must have been compiled for to run here (backend and
// architecture, bounds checks, the compiler build): part of every key.
std::string target_identity(const DispatcherState& st) {
  runtime::TargetOptions t = session_target(st.fn->options);
  return concat(t.target == runtime::Target::NVPTX ? "nvptx" : "cpu", "|", t.cc_major, ".", t.cc_minor, t.arch_suffix,
                "|", t.bounds_check, "|", CUHOST_VERSION, "|", LLVM_VERSION_STRING, "|",
                runtime::engine_build_identity());
}

PyRef cache_target(const DispatcherState& st) {
  PyRef r(PyUnicode_FromString(target_identity(st).c_str()));
  if (!r) cache_failed("cache lookup failed");
  return r;
}

// The key a data file's entry is written for (compile_cache.h's framing):
// a file copied over another specialization's is refused.
std::string entry_key(const DispatcherState& st, const std::vector<const ir::Type*>& types) {
  std::string key = concat("cache=True ", st.fn->name, "(");
  for (size_t i = 0; i < types.size(); ++i) key += concat(i ? ", " : "", types[i]->str());
  return concat(key, ") for ", target_identity(st));
}

// The function's cache files (the function_cache hook:
// cuda.core.caching.function_cache), made at their first use.
PyRef cache_files(DispatcherObject* d) {
  PyRef files = call_hook(Hook::FunctionCache, PyRef(PyTuple_Pack(1, reinterpret_cast<PyObject*>(d))));
  if (!files) cache_failed("cache lookup failed");
  return files;
}

// Makes the kernel of the cache entry `entry` the compiled kernel of
// `types`; false when the entry is damaged, written for another
// specialization, or cannot run here (then it is compiled and saved anew).
bool install(DispatcherObject* d, const std::vector<const ir::Type*>& types, std::string entry) {
  DispatcherState* st = d->state;
  std::string why;
  std::shared_ptr<runtime::CompiledKernel> k = without_gil(
      [&] { return runtime::kernel_of_entry(std::move(entry), entry_key(*st, types), st->fn->name, types, why); });
  runtime::TargetOptions target = session_target(st->fn->options);
  if (k && k->target != target.target) why = "compiled for another backend";
  if (!why.empty()) {
    log::info(concat("[", st->fn->name, "] cache=True entry rejected (", why, "); recompiling"));
    return false;
  }
  k->launch_bound_threads = st->fn->options.launch_bounds[0];
  k->shared_memory_carveout = st->fn->options.shared_memory_carveout;
  st->compiled[types] = k;
  if (std::find(st->order.begin(), st->order.end(), types) == st->order.end()) st->order.push_back(types);
  return true;
}

// _forget_compiled(): drops every compiled kernel and the captured source,
// so the next compile captures the function (and its globals) anew.
PyObject* forget_compiled(PyObject* obj, PyObject*) {
  return guarded<PyObject*>(nullptr, [&] {
    DispatcherState* st = reinterpret_cast<DispatcherObject*>(obj)->state;
    auto fresh = std::make_shared<model::JitFunction>();
    fresh->name = st->fn->name;
    fresh->options = st->fn->options;
    st->fn = fresh;
    st->compiled.clear();
    st->ptx_for_inspect.clear();
    st->order.clear();
    st->plans.clear();
    Py_RETURN_NONE;
  });
}

PyMethodDef g_methods[] = {
    {"_forget_compiled", forget_compiled, METH_NOARGS, "Drops the compiled kernels and the captured source."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyMethodDef* dispatcher_cache_methods() { return g_methods; }

bool load_from_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types) {
  PyRef files = cache_files(d);
  PyRef sig = type_handles(types);
  PyRef target = cache_target(*d->state);
  PyRef data(PyObject_CallMethod(files.get(), "load_overload", "(OO)", sig.get(), target.get()));
  if (!data) cache_failed("cache lookup failed");
  if (data.get() == Py_None) return false;
  char* bytes = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(data.get(), &bytes, &size) != 0) cache_failed("cache lookup failed");
  if (!install(d, types, std::string(bytes, static_cast<size_t>(size)))) return false;
  PyRef counted(PyObject_CallMethod(files.get(), "note_hit", "(O)", sig.get()));
  if (!counted) cache_failed("cache lookup failed");
  return true;
}

void save_to_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types) {
  DispatcherState* st = d->state;
  auto it = st->compiled.find(types);
  PyRef data = borrowed(Py_None);
  if (it != st->compiled.end() && runtime::serializable(*it->second)) {
    std::string bytes = runtime::cache_entry(entry_key(*st, types), *it->second);
    data = PyRef(PyBytes_FromStringAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size())));
    if (!data) cache_failed("cache store failed");
  }
  PyRef files = cache_files(d);
  PyRef sig = type_handles(types);
  PyRef target = cache_target(*st);
  PyRef r(PyObject_CallMethod(files.get(), "save_overload", "(OOO)", sig.get(), target.get(), data.get()));
  if (!r) cache_failed("cache store failed");
}

}  // namespace cuhost::python
