// The C++ side of cache=True (see dispatcher_cache.h): numba's cache files
// as the compile lookup's EntryView, and the dispatcher's per-layer lookup
// counts behind `stats`.
#define PY_SSIZE_T_CLEAN  // "s#" and "y#" formats take Py_ssize_t lengths
#include "python/dispatcher_cache.h"

#include "python/errors.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/type_handle.h"
#include "runtime/compile_cache.h"

namespace cuhost::python {

namespace {

// A failed call into the cache files: their Python error stays set.
[[noreturn]] void cache_failed(const char* what) { throw UserError(ErrorKind::RuntimeError, what); }

// The files of one dispatcher's specialization, through the public file
// store of cuda/core/caching.py: the specialization crosses as a tuple of
// TypeHandles and the target as its identity string (the index's key), an
// entry as its key and bytes.
class CacheFilesView final : public runtime::EntryView {
 public:
  CacheFilesView(DispatcherObject* d, std::vector<const ir::Type*> types, std::string identity)
      : dispatcher_(d), types_(std::move(types)), target_(std::move(identity)) {}

  std::optional<Entry> load() override {
    GilHold gil;
    Call call = prepare("cache lookup failed");
    PyRef found(PyObject_CallMethod(call.files.get(), "load_overload", "(OO)", call.sig.get(), call.target.get()));
    if (!found) cache_failed("cache lookup failed");
    if (found.get() == Py_None) return std::nullopt;
    const char* key = nullptr;
    const char* bytes = nullptr;
    Py_ssize_t key_size = 0, size = 0;
    if (!PyArg_ParseTuple(found.get(), "s#y#", &key, &key_size, &bytes, &size)) cache_failed("cache lookup failed");
    return Entry{std::string(key, static_cast<size_t>(key_size)), std::string(bytes, static_cast<size_t>(size))};
  }

  void save(const Entry& entry) override {
    GilHold gil;
    Call call = prepare("cache store failed");
    PyRef key(PyUnicode_FromStringAndSize(entry.key.data(), static_cast<Py_ssize_t>(entry.key.size())));
    PyRef data(PyBytes_FromStringAndSize(entry.bytes.data(), static_cast<Py_ssize_t>(entry.bytes.size())));
    if (!key || !data) cache_failed("cache store failed");
    PyRef r(PyObject_CallMethod(call.files.get(), "save_overload", "(OOOO)", call.sig.get(), call.target.get(),
                                key.get(), data.get()));
    if (!r) cache_failed("cache store failed");
  }

 private:
  struct Call {
    PyRef files, sig, target;
  };

  // The function's cache files (the function_cache hook:
  // cuda.core.caching.function_cache, made at their first use) and the
  // arguments every call passes them.
  Call prepare(const char* what) {
    Call c;
    c.files = call_hook(Hook::FunctionCache, PyRef(PyTuple_Pack(1, reinterpret_cast<PyObject*>(dispatcher_))));
    c.sig = PyRef(new_type_handle_tuple(types_));
    c.target = PyRef(PyUnicode_FromString(target_.c_str()));
    if (!c.files || !c.sig || !c.target) cache_failed(what);
    return c;
  }

  DispatcherObject* dispatcher_;  // alive for the compile that holds this view
  std::vector<const ir::Type*> types_;
  std::string target_;
};

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
    st->order.clear();
    st->plans.clear();
    Py_RETURN_NONE;
  });
}

}  // namespace

PyObject* new_lookup_counts(const std::map<std::vector<const ir::Type*>, runtime::LayerCounts>& lookups) {
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& [types, counts] : lookups) {
    PyRef sig(new_type_handle_tuple(types));
    PyRef by_layer(PyDict_New());
    if (!sig || !by_layer) return nullptr;
    for (std::size_t i = 0; i < runtime::kCacheLayers; ++i) {
      PyRef n(PyLong_FromLong(counts[i]));
      if (!n || PyDict_SetItemString(by_layer.get(), runtime::cache_layer_name(runtime::CacheLayer(i)), n.get()) < 0)
        return nullptr;
    }
    if (!list_append_new(list.get(), PyTuple_Pack(2, sig.get(), by_layer.get()))) return nullptr;
  }
  return list.release();
}

namespace {

// _lookup_counts() -> [(argument TypeHandles, {layer name: count}), ...]:
// which cache layer served each specialization this dispatcher compiled
// for its launches (cuda/dispatcher.py builds `stats` from them).
PyObject* lookup_counts(PyObject* obj, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    return new_lookup_counts(reinterpret_cast<DispatcherObject*>(obj)->state->lookups);
  });
}

PyMethodDef g_methods[] = {
    {"_forget_compiled", forget_compiled, METH_NOARGS, "Drops the compiled kernels and the captured source."},
    {"_lookup_counts", lookup_counts, METH_NOARGS, "The cache layer that served each compiled specialization."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyMethodDef* dispatcher_cache_methods() { return g_methods; }

std::unique_ptr<runtime::EntryView> cache_files_view(DispatcherObject* d, const std::vector<const ir::Type*>& types,
                                                     const runtime::TargetOptions& target) {
  if (!d->state->fn->options.cache_requested) return nullptr;
  return std::make_unique<CacheFilesView>(d, types, runtime::target_identity(target));
}

std::unique_ptr<runtime::EntryView> cache_files_view(DispatcherObject* d, const std::vector<const ir::Type*>& types,
                                                     const std::string& identity) {
  if (!d->state->fn->options.cache_requested) return nullptr;
  return std::make_unique<CacheFilesView>(d, types, identity);
}

}  // namespace cuhost::python
