// `python3 -m NAME` from CPython's public pieces (importlib.util.find_spec,
// the spec's loader, the real __main__ module), as runpy's private
// _run_module_as_main does it: the module runs in the real __main__, so
// that `if __name__ == "__main__"`, -i afterwards, atexit handlers and the
// pickling of classes defined in it (their __module__ is "__main__") behave
// as under python3, and a module that cannot be run is reported in python3's
// one line and exit code 1. The public runpy.run_module cannot serve: it runs
// the module in a temporary __main__ that it takes back afterwards.
#include "python/run_module.h"

#include <Python.h>

#include <string>
#include <utility>

#include "python/main_command.h"
#include "python/py_api.h"
#include "support/diagnostics.h"

namespace cuhost::python {

namespace {

// The pending Python error, taken so that its fields can be read, and put
// back unchanged where it must propagate.
class TakenError {
 public:
  TakenError() {
#if PY_VERSION_HEX >= 0x030C0000
    value_ = PyRef(PyErr_GetRaisedException());
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    type_ = PyRef(type);
    value_ = PyRef(value);
    tb_ = PyRef(tb);
#endif
  }
  PyObject* value() const { return value_.get(); }
  // type(e).__name__
  std::string type_name() const {
    PyRef name = py_attr(reinterpret_cast<PyObject*>(Py_TYPE(value_.get())), "__name__");
    return py_str(name.get());
  }
  void restore() {
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(value_.release());
#else
    PyErr_Restore(type_.release(), value_.release(), tb_.release());
#endif
  }

 private:
#if PY_VERSION_HEX < 0x030C0000
  PyRef type_, tb_;
#endif
  PyRef value_;
};

// The module to run: its spec and code object, or why python3 refuses to run
// it (a one-line message). With neither, a Python error is pending and keeps
// its traceback (an error raised while importing the parent package).
struct Found {
  PyRef spec;
  PyRef code;
  std::string refusal;
};

Found refused(std::string why) {
  Found found;
  found.refusal = std::move(why);
  return found;
}

// repr(text), as python3's messages quote module names.
std::string quoted(const std::string& text) {
  PyRef s(PyUnicode_DecodeFSDefault(text.c_str()));
  return s ? py_repr(s.get()) : "'" + text + "'";
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool error_matches_any(std::initializer_list<PyObject*> kinds) {
  for (PyObject* kind : kinds)
    if (PyErr_ExceptionMatches(kind)) return true;
  return false;
}

// Imports `package`, the parent of the module to run, first: an error raised
// inside its import is the user's and propagates; a missing package or
// ancestor is left for find_spec to report. False: a Python error is pending.
bool import_parent(const std::string& name, const std::string& package) {
  if (PyRef imported{PyImport_ImportModule(package.c_str())}) {
    // Already imported under its own name by its package: python3 warns.
    PyObject* modules = PyImport_GetModuleDict();  // borrowed
    PyObject* existing = PyDict_GetItemString(modules, name.c_str());
    if (existing && !PyObject_HasAttrString(existing, "__path__")) {
      std::string message = concat(quoted(name), " found in sys.modules after import of package ", quoted(package),
                                   ", but prior to execution of ", quoted(name),
                                   "; this may result in unpredictable "
                                   "behaviour");
      if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) < 0) return false;
    }
    return true;
  }
  if (!PyErr_ExceptionMatches(PyExc_ImportError)) return false;
  TakenError error;
  PyRef missing = py_attr(error.value(), "name");
  if (missing && missing.get() != Py_None) {
    std::string m = py_str(missing.get());
    if (m == package || package.rfind(m + ".", 0) == 0) return true;
  }
  error.restore();
  return false;
}

// What runpy's _get_module_details finds for `name`.
Found lookup(const std::string& name) {
  if (!name.empty() && name[0] == '.') return refused("Relative module names not supported");
  std::string::size_type dot = name.rfind('.');
  if (dot != std::string::npos && !import_parent(name, name.substr(0, dot))) return {};
  PyRef util(PyImport_ImportModule("importlib.util"));
  if (!util) return {};
  PyRef spec(PyObject_CallMethod(util.get(), "find_spec", "s", name.c_str()));
  if (!spec) {
    if (!error_matches_any({PyExc_ImportError, PyExc_AttributeError, PyExc_TypeError, PyExc_ValueError})) return {};
    TakenError error;
    std::string why = concat("Error while finding module specification for ", quoted(name), " (", error.type_name(),
                             ": ", py_str(error.value()), ")");
    if (ends_with(name, ".py"))
      why += concat(". Try using '", name.substr(0, name.size() - 3), "' instead of '", name, "' as the module name.");
    return refused(why);
  }
  if (spec.get() == Py_None) return refused("No module named " + name);
  PyRef locations(PyObject_GetAttrString(spec.get(), "submodule_search_locations"));
  if (!locations) return {};
  if (locations.get() != Py_None) {  // a package runs its __main__
    if (name == "__main__" || ends_with(name, ".__main__")) return refused("Cannot use package as __main__ module");
    Found main = lookup(name + ".__main__");
    if (!main.refusal.empty() && PyDict_GetItemString(PyImport_GetModuleDict(), name.c_str()))
      main.refusal += concat("; ", quoted(name), " is a package and cannot be directly executed");
    return main;
  }
  PyRef loader(PyObject_GetAttrString(spec.get(), "loader"));
  if (!loader) return {};
  if (loader.get() == Py_None) return refused(concat(quoted(name), " is a namespace package and cannot be executed"));
  PyRef code(PyObject_CallMethod(loader.get(), "get_code", "s", name.c_str()));
  if (!code) {
    if (!PyErr_ExceptionMatches(PyExc_ImportError)) return {};
    TakenError error;
    return refused(py_str(error.value()));
  }
  if (code.get() == Py_None) return refused("No code object available for " + name);
  Found found;
  found.spec = std::move(spec);
  found.code = std::move(code);
  return found;
}

// The __main__ of a runnable folder or archive (sys.path[0]), looked up with
// the running __main__ moved out of sys.modules, as runpy does.
Found lookup_container_main() {
  PyObject* modules = PyImport_GetModuleDict();  // borrowed
  PyRef running = borrowed(PyDict_GetItemString(modules, "__main__"));
  if (running && PyDict_DelItemString(modules, "__main__") < 0) return {};
  Found found = lookup("__main__");
  if (running) {
    bool failed = !found.code && found.refusal.empty();
    TakenError pending;  // (none when the lookup succeeded or refused)
    PyDict_SetItemString(modules, "__main__", running.get());
    if (failed) pending.restore();
  }
  if (!found.refusal.empty()) {
    // runpy reports a refusal that names __main__ by the container; any
    // other stays the ImportError it was.
    if (found.refusal.find("__main__") != std::string::npos) {
      PyObject* path = PySys_GetObject("path");  // borrowed
      PyObject* path0 = path && PyList_Check(path) && PyList_GET_SIZE(path) > 0 ? PyList_GET_ITEM(path, 0) : nullptr;
      found.refusal = concat("can't find '__main__' module in ", path0 ? py_repr(path0) : std::string("''"));
    } else {
      PyErr_SetString(PyExc_ImportError, found.refusal.c_str());
      found.refusal.clear();
    }
  }
  return found;
}

// The real __main__'s dict filled as runpy's _run_code fills it.
bool fill_main_dict(PyObject* globals, PyObject* spec) {
  PyRef origin(PyObject_GetAttrString(spec, "origin"));
  PyRef cached(origin ? PyObject_GetAttrString(spec, "cached") : nullptr);
  PyRef loader(cached ? PyObject_GetAttrString(spec, "loader") : nullptr);
  PyRef parent(loader ? PyObject_GetAttrString(spec, "parent") : nullptr);
  PyRef name(PyUnicode_FromString("__main__"));
  if (!parent || !name) return false;
  const std::pair<const char*, PyObject*> entries[] = {
      {"__name__", name.get()}, {"__file__", origin.get()},   {"__cached__", cached.get()},
      {"__doc__", Py_None},     {"__loader__", loader.get()}, {"__package__", parent.get()},
      {"__spec__", spec}};
  for (const auto& [key, value] : entries)
    if (PyDict_SetItemString(globals, key, value) < 0) return false;
  return true;
}

}  // namespace

namespace {

// Runs what was found in the real __main__ module.
int run_found(Found found, bool as_command_line) {
  if (!found.code) {
    if (!found.refusal.empty()) {  // python3's "<program>: <why>", exit 1 (SystemExit with a message)
      PyRef message(PyUnicode_FromString(concat("cuhost: ", found.refusal).c_str()));
      PyErr_SetObject(PyExc_SystemExit, message.get());
    }
    return finish(nullptr);
  }
  PyObject* main_module = PyImport_AddModule("__main__");  // borrowed
  PyObject* globals = main_module ? PyModule_GetDict(main_module) : nullptr;
  if (!globals) return finish(nullptr);
  if (as_command_line) {  // sys.argv[0] is the module's file
    PyRef origin(PyObject_GetAttrString(found.spec.get(), "origin"));
    PyObject* argv = PySys_GetObject("argv");  // borrowed
    if (!origin || !argv || PySequence_SetItem(argv, 0, origin.get()) < 0) return finish(nullptr);
  }
  if (!fill_main_dict(globals, found.spec.get())) return finish(nullptr);
  return finish(PyEval_EvalCode(found.code.get(), globals, globals));
}

}  // namespace

int run_module_as_main(const std::string& name) { return run_found(lookup(name), true); }

int run_container_main() { return run_found(lookup_container_main(), false); }

}  // namespace cuhost::python
