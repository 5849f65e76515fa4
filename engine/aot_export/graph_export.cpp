// Writes the script's captured graphs into the manifest (see graph_export.h).
// It reads a Graph through its public Python surface (kernels, and each
// node's name, args, griddim, blockdim, sharedmem) and packs the arguments
// with the launch path's own packer, so the slots are the ones a launch passes.
#include "aot_export/graph_export.h"

#include <Python.h>

#include <cstdio>
#include <cstring>
#include <map>

#include "codegen/kernel_abi.h"
#include "python/launch_pack.h"
#include "python/py_api.h"
#include "support/diagnostics.h"

namespace cuhost::aot_export {
namespace {

using aot::Json;
using python::PyRef;

bool is_graph(PyObject* o) { return std::strcmp(Py_TYPE(o)->tp_name, "cuhost.graph.Graph") == 0; }

// A new reference to attribute `name`; UserError naming the graph when missing.
PyRef attribute(PyObject* o, const char* name, const std::string& graph) {
  PyRef r(PyObject_GetAttrString(o, name));
  if (!r) {
    PyErr_Clear();
    throw UserError(ErrorKind::RuntimeError, concat("graph '", graph, "': cannot read its '", name, "'"));
  }
  return r;
}

long long as_long(PyObject* o) {
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) PyErr_Clear();
  return v;
}

Json dims(PyObject* tuple) {
  Json out = Json::array();
  for (Py_ssize_t i = 0; i < 3; ++i) out.push(i < PyTuple_Size(tuple) ? as_long(PyTuple_GetItem(tuple, i)) : 1LL);
  return out;
}

// The first global of __main__ (not private) that is `value` itself.
std::string global_name_of(PyObject* main_dict, PyObject* value) {
  PyObject *key = nullptr, *v = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(main_dict, &pos, &key, &v)) {
    if (v != value || !PyUnicode_Check(key)) continue;
    const char* name = PyUnicode_AsUTF8(key);
    if (name && name[0] != '_') return name;
  }
  return {};
}

struct Param {
  std::string kind;
  int bytes = 8;
};

Json export_graph(const std::string& name, PyObject* graph, PyObject* main_dict,
                  const std::vector<SelectedKernel>& kernels) {
  auto fail = [&](const std::string& why) {
    return UserError(ErrorKind::ValueError, concat("graph '", name, "': ", why));
  };
  PyRef copies = attribute(graph, "copy_count", name);
  if (as_long(copies.get()) > 0)
    throw fail("it captured copies; an exported graph holds kernel launches only (copy outside the graph)");
  PyRef nodes = attribute(graph, "kernels", name);
  std::vector<std::string> order;
  std::map<std::string, Param> params;
  Json launches = Json::array();
  for (Py_ssize_t n = 0; n < PyTuple_Size(nodes.get()); ++n) {
    PyObject* node = PyTuple_GetItem(nodes.get(), n);
    PyRef kname = attribute(node, "name", name);
    const std::string kernel = PyUnicode_AsUTF8(kname.get());
    const SelectedKernel* k = nullptr;
    for (const SelectedKernel& s : kernels)
      if (s.name == kernel) k = &s;
    if (!k)
      throw fail(concat("launch ", n, " runs kernel '", kernel, "', which the export does not hold (add --kernel ",
                        kernel, ":... or --all-compiled)"));
    PyRef args = attribute(node, "args", name);
    if (!PyTuple_Check(args.get()) || PyTuple_Size(args.get()) != static_cast<Py_ssize_t>(k->arg_types.size()))
      throw fail(concat("launch ", n, " of kernel '", kernel, "' was not made by the script with its parameters"));
    Json slots = Json::array();
    for (std::size_t a = 0; a < k->arg_types.size(); ++a) {
      PyObject* value = PyTuple_GetItem(args.get(), static_cast<Py_ssize_t>(a));
      const ir::Type* t = k->arg_types[a];
      std::vector<int> sizes = codegen::param_slot_sizes(t);
      std::vector<std::uint64_t> packed(sizes.size() + 1, 0);
      std::uint64_t* cursor = packed.data();
      if (!python::pack_launch_argument(value, t, nullptr, cursor, packed.data() + packed.size(), kernel.c_str())) {
        PyErr_Clear();
        throw fail(concat("launch ", n, ": argument '", k->param_names[a], "' of kernel '", kernel,
                          "' does not fit its parameter type ", t->str()));
      }
      std::string global = global_name_of(main_dict, value);
      Param p;
      if (t->kind == ir::TypeKind::Array || t->kind == ir::TypeKind::CPointer) {
        p.kind = "pointer";
      } else if (t->kind == ir::TypeKind::Float) {
        p.kind = "float";
        p.bytes = t->bits / 8;
      } else {
        p.kind = "int";
        p.bytes = sizes.empty() ? 8 : sizes[0];
      }
      if (global.empty() && p.kind == "pointer")
        throw fail(concat("launch ", n, ": argument '", k->param_names[a], "' of kernel '", kernel,
                          "' is an array no global of the script names; pass it through a global so that it becomes "
                          "a parameter the host binds"));
      if (!global.empty()) {
        auto seen = params.find(global);
        if (seen == params.end()) {
          params[global] = p;
          order.push_back(global);
        } else if (seen->second.kind != p.kind || seen->second.bytes != p.bytes) {
          throw fail(concat("parameter '", global, "' is passed as ", seen->second.kind, seen->second.bytes * 8,
                            " and as ", p.kind, p.bytes * 8));
        }
      }
      for (std::size_t s = 0; s < sizes.size(); ++s) {
        Json slot = Json::object();
        if (!global.empty() && s == 0) {
          slot.set("param", global);
        } else {
          Json bytes = Json::array();
          for (int b = 0; b < sizes[s]; ++b) bytes.push(static_cast<int>((packed[s] >> (8 * b)) & 0xff));
          slot.set("bytes", std::move(bytes));
        }
        slots.push(std::move(slot));
      }
    }
    Json launch = Json::object();
    launch.set("kernel", kernel);
    PyRef grid = attribute(node, "griddim", name), block = attribute(node, "blockdim", name);
    PyRef shared = attribute(node, "sharedmem", name);
    launch.set("grid", dims(grid.get()));
    launch.set("block", dims(block.get()));
    launch.set("shared", as_long(shared.get()));
    launch.set("slots", std::move(slots));
    launches.push(std::move(launch));
  }
  Json g = Json::object();
  g.set("name", name);
  Json ps = Json::array();
  for (const std::string& p : order) {
    Json j = Json::object();
    j.set("name", p);
    j.set("kind", params[p].kind);
    j.set("bytes", params[p].bytes);
    ps.push(std::move(j));
  }
  g.set("params", std::move(ps));
  g.set("launches", std::move(launches));
  return g;
}

}  // namespace

Json export_graphs(const std::vector<std::string>& names, const std::vector<SelectedKernel>& kernels,
                   std::vector<std::string>* exported) {
  python::GilHold gil;
  PyObject* main = PyImport_AddModule("__main__");
  PyObject* dict = main ? PyModule_GetDict(main) : nullptr;
  Json out = Json::array();
  if (!dict) return out;
  auto add = [&](const std::string& name, PyObject* graph) {
    out.push(export_graph(name, graph, dict, kernels));
    exported->push_back(name);
  };
  if (!names.empty()) {
    for (const std::string& name : names) {
      PyObject* g = PyDict_GetItemString(dict, name.c_str());
      if (!g || !is_graph(g))
        throw UserError(ErrorKind::NameError,
                        concat("no graph named '", name, "' in the script's global namespace (__main__)"));
      add(name, g);
    }
    return out;
  }
  // Not named on the command line: a graph that cannot be exported is left
  // out, saying why, so that it does not stop the kernels' export.
  PyObject *key = nullptr, *value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(dict, &pos, &key, &value)) {
    if (!PyUnicode_Check(key) || !is_graph(value)) continue;
    try {
      add(PyUnicode_AsUTF8(key), value);
    } catch (const UserError& e) {
      std::fprintf(stderr, "cuhost export: left out %s\n", e.message().c_str());
    }
  }
  return out;
}

}  // namespace cuhost::aot_export
