// The plugin registry as seen from Python: `_cuhost._plugins()` scans the
// search path and returns one dict per plugin (loaded or refused, with the
// reason), which cuhost.plugins turns into importable namespaces of device
// functions. Also lets scripts and embedders add search folders and
// in-memory plugins.
#include "plugin/host_library.h"
#include "plugin/registry.h"
#include "python/module.h"
#include "python/py_api.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

PyObject* string_list(const std::vector<std::string>& items) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(items.size()));
  for (size_t i = 0; i < items.size(); ++i)
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), PyUnicode_FromString(items[i].c_str()));
  return list;
}

PyObject* function_dict(const plugin::FunctionDecl& f) {
  return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s}", "name", f.python_name.c_str(), "symbol", f.symbol.c_str(), "signature",
                       f.signature.c_str(), "abi", f.abi == ir::Abi::C ? "c" : "numba", "doc", f.doc.c_str());
}

PyObject* record_dict(const plugin::PluginRecord& r) {
  const plugin::Manifest& m = r.manifest;
  PyRef functions(PyList_New(0));
  if (!functions) return nullptr;
  for (const auto& f : m.functions)
    if (!list_append_new(functions.get(), function_dict(f))) return nullptr;
  return Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:O,s:s,s:N,s:N,s:N,s:N,s:s,s:s,s:s}", "name", r.name.c_str(), "directory",
                       r.directory.c_str(), "version", m.version.c_str(), "description", m.description.c_str(),
                       "manifest", m.manifest_path.c_str(), "loaded", r.loaded ? Py_True : Py_False, "reason",
                       r.reason.c_str(), "functions", functions.release(), "link", string_list(m.link), "include_dirs",
                       string_list(m.include_dirs), "cpu_sources", string_list(m.cpu_sources), "host_library",
                       m.host_library.c_str(), "host_setup", m.host_setup.c_str(), "host_teardown",
                       m.host_teardown.c_str());
}

// _plugin_host_check(folder) -> (problem, has_teardown): problem is "" when
// the plugin's host library loads and defines its entry points (or it has
// none), else why not. Loads the library.
PyObject* py_plugin_host_check(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "_plugin_host_check() expects a plugin folder (str)");
    return nullptr;
  }
  std::string dir = PyUnicode_AsUTF8(arg);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    bool has_teardown = false;
    std::string why = plugin::check_host_library(plugin::load_manifest(dir), &has_teardown);
    return Py_BuildValue("(sO)", why.c_str(), has_teardown ? Py_True : Py_False);
  });
}

PyObject* py_plugins(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<plugin::PluginRecord> records = plugin::scan();
    PyRef list(PyList_New(0));
    if (!list) return nullptr;
    for (const auto& r : records)
      if (!list_append_new(list.get(), record_dict(r))) return nullptr;
    return list.release();
  });
}

PyObject* py_plugin_search_path(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return string_list(plugin::search_path()); });
}

PyObject* py_add_plugin_path(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "add_plugin_path() expects a folder path (str)");
    return nullptr;
  }
  plugin::add_configured_folder(PyUnicode_AsUTF8(arg));
  Py_RETURN_NONE;
}

PyObject* py_register_plugin(PyObject*, PyObject* args) {
  const char* manifest = nullptr;
  PyObject* files = nullptr;
  const char* origin = "<in-memory plugin>";
  if (!PyArg_ParseTuple(args, "sO!|s", &manifest, &PyDict_Type, &files, &origin)) return nullptr;
  std::map<std::string, std::string> contents;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(files, &pos, &key, &value)) {
    if (!PyUnicode_Check(key) || !(PyUnicode_Check(value) || PyBytes_Check(value))) {
      PyErr_SetString(PyExc_TypeError, "register_plugin(): files must map names (str) to contents (str or bytes)");
      return nullptr;
    }
    if (PyBytes_Check(value)) {
      contents[PyUnicode_AsUTF8(key)] = std::string(PyBytes_AS_STRING(value), PyBytes_GET_SIZE(value));
    } else {
      Py_ssize_t n = 0;
      const char* text = PyUnicode_AsUTF8AndSize(value, &n);
      contents[PyUnicode_AsUTF8(key)] = std::string(text, static_cast<size_t>(n));
    }
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    plugin::register_in_memory(manifest, contents, origin);
    Py_RETURN_NONE;
  });
}

PyMethodDef g_methods[] = {
    {"_plugins", py_plugins, METH_NOARGS, "Scan the plugin search path: one dict per plugin."},
    {"_plugin_search_path", py_plugin_search_path, METH_NOARGS, "The plugin folders searched, in order."},
    {"_plugin_host_check", py_plugin_host_check, METH_O,
     "Load a plugin's host library and check its entry points: '' or the reason it is refused."},
    {"add_plugin_path", py_add_plugin_path, METH_O, "Add a folder to the plugin search path."},
    {"register_plugin", py_register_plugin, METH_VARARGS,
     "register_plugin(manifest_toml, files, origin=...): add an in-memory plugin."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_plugins_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
