// The C half of cuhost.graph: `_cuhost.Graph` (a captured graph: launch,
// update from another capture, its kernel launches), `_cuhost.GraphKernelNode`
// (one captured launch: its kernel, configuration and arguments, which
// set_args replaces), and the capture entry points the Python context
// manager calls. Captures themselves are the runtime's
// (runtime/graph_capture.h); launches inside them are recorded by the
// script launch path (launch.cpp).
#include <cstring>
#include <memory>
#include <new>

#include "python/dispatcher.h"
#include "python/launch_capture.h"
#include "python/launch_pack.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/type_object.h"
#include "python/typeof.h"
#include "runtime/captured_graph.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/session.h"

namespace cuhost::python {
namespace {

constexpr int kMaxSlots = 1024;

struct GraphObject {
  PyObject_HEAD std::shared_ptr<runtime::CapturedGraph> graph;  // empty until the capture ended
  PyObject* stream;                                             // the stream object captured (kept alive), or null
};

struct KernelNodeObject {
  PyObject_HEAD GraphObject* graph;  // strong reference
  Py_ssize_t index;
};

extern PyTypeObject GraphType;
extern PyTypeObject KernelNodeType;

GraphObject* as_graph(PyObject* o) { return reinterpret_cast<GraphObject*>(o); }
KernelNodeObject* as_node(PyObject* o) { return reinterpret_cast<KernelNodeObject*>(o); }

// The captured graph; GraphCaptureError while the capture is still going on.
runtime::CapturedGraph& captured(GraphObject* g) {
  if (!g->graph)
    throw UserError(ErrorKind::GraphCaptureError,
                    "the graph is still being captured (or its capture failed): use it after the `with` block");
  return *g->graph;
}

// A stream argument used on `device`: None -> `fallback`; 0 or a default
// stream object (which stands for the default stream of the device using it)
// -> `device`'s default launch stream; else a Stream, an int handle or an
// object with .handle. `*owner` is the stream's device when known, else -1.
bool stream_argument(PyObject* arg, std::uintptr_t fallback, int device, std::uintptr_t* handle, int* owner) {
  *owner = -1;
  if (!arg || arg == Py_None) {
    *handle = fallback;
    return true;
  }
  bool is_default = PyLong_CheckExact(arg) && PyLong_AsLongLong(arg) == 0;
  if (!is_default) *owner = stream_device(arg, &is_default);
  if (is_default) {
    *owner = -1;
    *handle = runtime::default_launch_stream(device);
    return true;
  }
  return stream_handle(arg, handle);
}

// --- Graph ----------------------------------------------------------------

PyObject* graph_new(PyTypeObject* type, PyObject*, PyObject*) {
  auto* self = reinterpret_cast<GraphObject*>(type->tp_alloc(type, 0));
  if (!self) return nullptr;
  new (&self->graph) std::shared_ptr<runtime::CapturedGraph>();
  self->stream = nullptr;
  return reinterpret_cast<PyObject*>(self);
}

void graph_dealloc(PyObject* o) {
  GraphObject* self = as_graph(o);
  self->graph.~shared_ptr();  // the argument tuples it owns are released here, with the GIL held
  Py_CLEAR(self->stream);
  Py_TYPE(o)->tp_free(o);
}

PyObject* graph_launch(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"stream", nullptr};
  PyObject* stream_arg = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:launch", const_cast<char**>(names), &stream_arg)) return nullptr;
  GraphObject* self = as_graph(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::CapturedGraph& g = captured(self);
    std::uintptr_t stream = 0;
    int owner = -1;
    if (!stream_argument(stream_arg, g.stream(), g.device(), &stream, &owner)) return nullptr;
    if (owner >= 0 && owner != g.device())
      throw UserError(ErrorKind::ValueError, concat("Graph.launch(): the graph was captured on device ", g.device(),
                                                    " and runs there, but the stream belongs to device ", owner,
                                                    "; launch it on a stream of device ", g.device()));
    runtime::NamedOperation name("Graph.launch()");
    runtime::refuse_on_captured_stream(stream, "launch a graph on the stream",
                                       "cuhost's graphs do not nest; launch the graph outside the capture");
    std::shared_ptr<runtime::CapturedGraph> keep = self->graph;
    std::exception_ptr error;
    without_gil([&] {
      try {
        keep->launch(stream);
      } catch (...) {
        error = std::current_exception();  // rethrown once the output is written
      }
    });
    write_kernel_output();  // CPU replays print like eager launches, failed ones too
    if (error) std::rethrow_exception(error);
    Py_RETURN_NONE;
  });
}

PyObject* graph_update(PyObject* o, PyObject* other) {
  if (!PyObject_TypeCheck(other, &GraphType)) {
    PyErr_Format(PyExc_TypeError, "Graph.update() takes another Graph, not %s", Py_TYPE(other)->tp_name);
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    captured(as_graph(o)).update_from(captured(as_graph(other)));
    Py_RETURN_NONE;
  });
}

PyObject* graph_kernels(PyObject* o, void*) {
  GraphObject* self = as_graph(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const std::size_t n = captured(self).kernels().size();
    PyRef tuple(PyTuple_New(static_cast<Py_ssize_t>(n)));
    if (!tuple) return nullptr;
    for (std::size_t i = 0; i < n; ++i) {
      auto* node = PyObject_New(KernelNodeObject, &KernelNodeType);
      if (!node) return nullptr;
      Py_INCREF(o);
      node->graph = self;
      node->index = static_cast<Py_ssize_t>(i);
      PyTuple_SET_ITEM(tuple.get(), static_cast<Py_ssize_t>(i), reinterpret_cast<PyObject*>(node));
    }
    return tuple.release();
  });
}

PyObject* graph_node_count(PyObject* o, void*) {
  return guarded<PyObject*>(nullptr,
                            [&]() -> PyObject* { return PyLong_FromSize_t(captured(as_graph(o)).node_count()); });
}

PyObject* graph_copy_count(PyObject* o, void*) {
  return guarded<PyObject*>(nullptr,
                            [&]() -> PyObject* { return PyLong_FromSize_t(captured(as_graph(o)).copies().size()); });
}

PyObject* graph_stream(PyObject* o, void*) {
  GraphObject* self = as_graph(o);
  return Py_NewRef(self->stream ? self->stream : Py_None);
}

PyObject* graph_captured(PyObject* o, void*) { return PyBool_FromLong(as_graph(o)->graph != nullptr); }

Py_ssize_t graph_len(PyObject* o) {
  return guarded<Py_ssize_t>(-1, [&] { return static_cast<Py_ssize_t>(captured(as_graph(o)).operation_count()); });
}

PyObject* graph_repr(PyObject* o) {
  GraphObject* self = as_graph(o);
  if (!self->graph) return PyUnicode_FromString("<cuhost.graph.Graph (not captured)>");
  const auto& g = *self->graph;
  return PyUnicode_FromFormat("<cuhost.graph.Graph: %zu kernel launches, %zu copies, stream %p>", g.kernels().size(),
                              g.copies().size(), reinterpret_cast<void*>(g.stream()));
}

PyMethodDef g_graph_methods[] = {
    {"launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(graph_launch)), METH_VARARGS | METH_KEYWORDS,
     "launch(stream=None): run the captured work on `stream` (default: the stream it was captured on)."},
    {"update", graph_update, METH_O,
     "update(other): take every argument and configuration of `other`, a graph captured from the same sequence of "
     "launches and copies."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef g_graph_getset[] = {
    {"kernels", graph_kernels, nullptr, "The captured kernel launches, in order (GraphKernelNode objects).", nullptr},
    {"node_count", graph_node_count, nullptr, "Nodes in the graph (on a GPU, also work other code queued).", nullptr},
    {"copy_count", graph_copy_count, nullptr, "The captured copies.", nullptr},
    {"stream", graph_stream, nullptr, "The stream the graph was captured on (None: the default stream).", nullptr},
    {"captured", graph_captured, nullptr, "True once the capture ended.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PySequenceMethods g_graph_sequence = [] {
  PySequenceMethods m{};
  m.sq_length = graph_len;
  return m;
}();

// --- GraphKernelNode ----------------------------------------------------------

const runtime::CapturedKernel& node_kernel(KernelNodeObject* n) {
  return captured(n->graph).kernels()[static_cast<std::size_t>(n->index)];
}

void node_dealloc(PyObject* o) {
  Py_CLEAR(as_node(o)->graph);
  PyObject_Free(o);
}

PyObject* dims_tuple(const unsigned d[3]) { return Py_BuildValue("(III)", d[0], d[1], d[2]); }

PyObject* node_name(PyObject* o, void*) {
  return guarded<PyObject*>(
      nullptr, [&]() -> PyObject* { return PyUnicode_FromString(node_kernel(as_node(o)).kernel->name.c_str()); });
}
PyObject* node_griddim(PyObject* o, void*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return dims_tuple(node_kernel(as_node(o)).grid); });
}
PyObject* node_blockdim(PyObject* o, void*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* { return dims_tuple(node_kernel(as_node(o)).block); });
}
PyObject* node_sharedmem(PyObject* o, void*) {
  return guarded<PyObject*>(nullptr,
                            [&]() -> PyObject* { return PyLong_FromUnsignedLong(node_kernel(as_node(o)).shared); });
}

// Item `i` of a script launch's (dispatcher, arguments) owner; None for C++ launches.
PyObject* owner_item(PyObject* o, Py_ssize_t i) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const runtime::CapturedKernel& k = node_kernel(as_node(o));
    if (k.origin != runtime::LaunchOrigin::Script) Py_RETURN_NONE;
    return Py_NewRef(PyTuple_GET_ITEM(script_launch_tuple(k.owner), i));
  });
}
PyObject* node_kernel_obj(PyObject* o, void*) { return owner_item(o, 0); }
PyObject* node_args(PyObject* o, void*) { return owner_item(o, 1); }

PyObject* node_index(PyObject* o, void*) { return PyLong_FromSsize_t(as_node(o)->index); }

PyObject* node_repr(PyObject* o) {
  KernelNodeObject* n = as_node(o);
  if (!n->graph->graph) return PyUnicode_FromString("<cuhost.graph.GraphKernelNode>");
  const runtime::CapturedKernel& k = n->graph->graph->kernels()[static_cast<std::size_t>(n->index)];
  return PyUnicode_FromFormat("<cuhost.graph.GraphKernelNode %zd: '%s' [(%u, %u, %u), (%u, %u, %u)]>", n->index,
                              k.kernel->name.c_str(), k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
                              k.block[2]);
}

// set_args(*args, griddim=None, blockdim=None, sharedmem=None)
PyObject* node_set_args(PyObject* o, PyObject* args, PyObject* kwargs) {
  KernelNodeObject* n = as_node(o);
  PyObject* grid_arg = nullptr;
  PyObject* block_arg = nullptr;
  PyObject* shared_arg = nullptr;
  if (kwargs) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      const char* k = PyUnicode_AsUTF8(key);
      if (!k) return nullptr;
      if (!std::strcmp(k, "griddim"))
        grid_arg = value;
      else if (!std::strcmp(k, "blockdim"))
        block_arg = value;
      else if (!std::strcmp(k, "sharedmem"))
        shared_arg = value;
      else {
        PyErr_Format(PyExc_TypeError, "set_args() got an unexpected keyword argument '%s'", k);
        return nullptr;
      }
    }
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::CapturedGraph& g = captured(n->graph);
    const runtime::CapturedKernel& k = g.kernels()[static_cast<std::size_t>(n->index)];
    const char* kname = k.kernel->name.c_str();
    if (k.origin != runtime::LaunchOrigin::Script)
      throw UserError(ErrorKind::ValueError, concat("the captured launch of kernel '", kname,
                                                    "' was made from C++; set its arguments with "
                                                    "cuhost::Graph::set_kernel_args"));
    unsigned grid[3] = {k.grid[0], k.grid[1], k.grid[2]};
    unsigned block[3] = {k.block[0], k.block[1], k.block[2]};
    unsigned shared = k.shared;
    if (grid_arg && grid_arg != Py_None && !parse_launch_dims(grid_arg, grid, "griddim", false)) return nullptr;
    if (block_arg && block_arg != Py_None && !parse_launch_dims(block_arg, block, "blockdim", true)) return nullptr;
    if (shared_arg && shared_arg != Py_None && !parse_shared_bytes(shared_arg, &shared)) return nullptr;
    auto* d = reinterpret_cast<DispatcherObject*>(PyTuple_GET_ITEM(script_launch_tuple(k.owner), 0));
    const Py_ssize_t count = PyTuple_GET_SIZE(args);
    if (count > kMaxLaunchArgs) {
      PyErr_Format(PyExc_ValueError, "set_args: at most %d arguments", kMaxLaunchArgs);
      return nullptr;
    }
    const ir::Type* types[kMaxLaunchArgs];
    ArgInfo infos[kMaxLaunchArgs];
    for (Py_ssize_t i = 0; i < count; ++i) {
      PyObject* a = PyTuple_GET_ITEM(args, i);
      types[i] = typeof_arg(a, &infos[i]);
      if (!types[i]) {
        if (!PyErr_Occurred())
          PyErr_Format(exception_class(ErrorKind::TypingError),
                       "cannot determine the kernel type of argument %zd of kernel '%s' (a %s)", i, kname,
                       Py_TYPE(a)->tp_name);
        return nullptr;
      }
      if (infos[i].kind == ArgKind::HostArray || infos[i].kind == ArgKind::HostRecord)
        throw UserError(ErrorKind::GraphCaptureError,
                        concat("set_args: argument ", i, " of kernel '", kname, "' is a host NumPy ",
                               infos[i].kind == ArgKind::HostArray ? "array" : "record",
                               "; a graph's kernels take device arrays (cuda.to_device)"));
    }
    LaunchPlan* plan = plan_for(d, types, static_cast<int>(count));
    // Either variant (with or without cancellation points) of the plan's kernel is the same specialization.
    if (plan->kernel != k.kernel && plan->other.kernel != k.kernel) {
      std::vector<const ir::Type*> now(types, types + count);
      throw UserError(ErrorKind::TypeError,
                      concat("set_args: arguments of types ", types_str(now), " select another specialization of ",
                             "kernel '", kname, "' than the captured launch's ", types_str(k.kernel->arg_types),
                             "; a captured launch keeps its compiled kernel"));
    }
    std::uint64_t slots[kMaxSlots];
    std::uint64_t* cursor = slots;
    for (Py_ssize_t i = 0; i < count; ++i)
      if (!pack_launch_argument(PyTuple_GET_ITEM(args, i), plan->params[static_cast<std::size_t>(i)], &infos[i], cursor,
                                slots + kMaxSlots, kname))
        return nullptr;
    std::shared_ptr<void> owner = script_launch_owner(d, &PyTuple_GET_ITEM(args, 0), count);
    g.set_kernel_arguments(static_cast<std::size_t>(n->index), slots, static_cast<std::size_t>(cursor - slots), grid,
                           block, shared, std::move(owner), graph_touches(infos, count));
    Py_RETURN_NONE;
  });
}

PyMethodDef g_node_methods[] = {
    {"set_args", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(node_set_args)),
     METH_VARARGS | METH_KEYWORDS,
     "set_args(*args, griddim=None, blockdim=None, sharedmem=None): new arguments (of the same types) and, "
     "optionally, a new configuration for this captured launch."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef g_node_getset[] = {
    {"name", node_name, nullptr, "The kernel's name.", nullptr},
    {"kernel", node_kernel_obj, nullptr, "The @cuda.jit kernel launched (None for launches made from C++).", nullptr},
    {"args", node_args, nullptr, "The arguments of the launch, as captured or last set.", nullptr},
    {"griddim", node_griddim, nullptr, nullptr, nullptr},
    {"blockdim", node_blockdim, nullptr, nullptr, nullptr},
    {"sharedmem", node_sharedmem, nullptr, nullptr, nullptr},
    {"index", node_index, nullptr, "Its position among the graph's kernel launches.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// --- capture entry points --------------------------------------------------

PyObject* py_begin_capture(PyObject*, PyObject* stream_arg) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    // The capture belongs to the stream's device (the calling thread's
    // when the stream does not say).
    int device = runtime::current_device();
    std::uintptr_t stream = 0;
    int owner = -1;
    if (!stream_argument(stream_arg, runtime::default_launch_stream(device), device, &stream, &owner)) return nullptr;
    runtime::begin_capture(stream, owner >= 0 ? owner : device);
    return PyLong_FromSize_t(stream);
  });
}

// _graph_end_capture(handle, graph, stream_obj)
PyObject* py_end_capture(PyObject*, PyObject* args) {
  PyObject *handle_obj, *graph_obj, *stream_obj;
  if (!PyArg_ParseTuple(args, "OO!O:_graph_end_capture", &handle_obj, &GraphType, &graph_obj, &stream_obj))
    return nullptr;
  std::uintptr_t handle = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(handle_obj));
  if (PyErr_Occurred()) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    as_graph(graph_obj)->graph = runtime::end_capture(handle);
    if (stream_obj != Py_None) Py_XSETREF(as_graph(graph_obj)->stream, Py_NewRef(stream_obj));
    Py_RETURN_NONE;
  });
}

PyObject* py_abort_capture(PyObject*, PyObject* handle_obj) {
  std::uintptr_t handle = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(handle_obj));
  if (PyErr_Occurred()) return nullptr;
  runtime::abort_capture(handle);
  Py_RETURN_NONE;
}

PyObject* py_is_capturing(PyObject*, PyObject* stream_arg) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const int device = runtime::current_device();
    std::uintptr_t stream = 0;
    int owner = -1;
    if (!stream_argument(stream_arg, runtime::default_launch_stream(device), device, &stream, &owner)) return nullptr;
    return PyBool_FromLong(runtime::is_captured(stream));
  });
}

PyMethodDef g_functions[] = {
    {"_graph_begin_capture", py_begin_capture, METH_O, "Starts capturing a stream; returns its handle."},
    {"_graph_end_capture", py_end_capture, METH_VARARGS, "Ends a capture into a Graph object."},
    {"_graph_abort_capture", py_abort_capture, METH_O, "Ends a capture and drops what it recorded."},
    {"_graph_is_capturing", py_is_capturing, METH_O, "Whether a stream is being captured."},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject make_graph_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "cuhost.graph.Graph";
  t.tp_basicsize = sizeof(GraphObject);
  t.tp_new = graph_new;
  t.tp_dealloc = graph_dealloc;
  t.tp_repr = graph_repr;
  t.tp_as_sequence = &g_graph_sequence;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "Work captured from a stream (cuhost.graph.capture), launched as one unit.";
  t.tp_methods = g_graph_methods;
  t.tp_getset = g_graph_getset;
  return t;
}

PyTypeObject make_node_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "cuhost.graph.GraphKernelNode";
  t.tp_basicsize = sizeof(KernelNodeObject);
  t.tp_dealloc = node_dealloc;
  t.tp_repr = node_repr;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "One kernel launch of a captured graph.";
  t.tp_methods = g_node_methods;
  t.tp_getset = g_node_getset;
  return t;
}

PyTypeObject GraphType = make_graph_type();
PyTypeObject KernelNodeType = make_node_type();

}  // namespace

int add_graphs(PyObject* module) {
  if (PyType_Ready(&GraphType) < 0 || PyType_Ready(&KernelNodeType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "Graph", reinterpret_cast<PyObject*>(&GraphType)) < 0) return -1;
  if (PyModule_AddObjectRef(module, "GraphKernelNode", reinterpret_cast<PyObject*>(&KernelNodeType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_functions);
}

}  // namespace cuhost::python
