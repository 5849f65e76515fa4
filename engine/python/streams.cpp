// Streams: the Stream type, numba's stream factories (stream, default_stream,
// legacy_default_stream, per_thread_default_stream, external_stream), the
// host-lent streams (host_stream(name)) and the launcher's stream rules
// (stream_view.h). cuhost never silently uses the legacy null stream: the
// default is the host's "default" (or first) stream, else one non-blocking
// stream created once for the process. On the CPU backend streams are
// in-order and synchronous; a created stream's handle is a unique address
// (an identity, as a CUstream is), the default stream's is 0, and the legacy
// and per-thread default streams have the driver's values (1, 2).
#include "python/streams.h"

#include <cstring>
#include <string>

#include "cuda/context.h"
#include "cuda/stream.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/type_object.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {
bool cpu() { return runtime::session().backend != Backend::Cuda; }
}  // namespace

void ensure_context() { runtime::make_context_current(); }

std::uintptr_t default_launch_stream() { return runtime::default_launch_stream(); }

bool stream_handle(PyObject* obj, std::uintptr_t* handle) {
  if (PyObject_TypeCheck(obj, &StreamType)) {
    *handle = reinterpret_cast<StreamObject*>(obj)->handle;
    return true;
  }
  if (PyLong_Check(obj) && !PyBool_Check(obj)) {
    *handle = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(obj));
    return !PyErr_Occurred();
  }
  if (obj != Py_None && !PyBool_Check(obj)) {
    if (PyRef h{PyObject_GetAttrString(obj, "handle")}) {
      // numba's handles are ctypes.c_void_p: take .value when present.
      if (!PyLong_Check(h.get())) {
        h = PyRef(PyObject_GetAttrString(h.get(), "value"));
        if (!h) return false;
      }
      if (h.get() == Py_None) {
        *handle = 0;
        return true;
      }
      if (PyLong_Check(h.get())) {
        *handle = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(h.get()));
        return true;
      }
    }
    PyErr_Clear();
  }
  PyErr_Format(PyExc_TypeError, "expected a stream (cuda.stream(), an int handle or an object with .handle), got %s",
               Py_TYPE(obj)->tp_name);
  return false;
}

PyObject* new_stream_object(std::uintptr_t handle, const char* kind, PyObject* name) {
  auto* self = reinterpret_cast<StreamObject*>(StreamType.tp_alloc(&StreamType, 0));
  if (!self) return nullptr;
  self->handle = handle;
  self->owned = nullptr;
  self->kind = kind;
  self->name = Py_XNewRef(name);
  self->device = -1;
  self->cpu_token = nullptr;
  return reinterpret_cast<PyObject*>(self);
}

namespace {

constexpr int kNotAskedYet = -2;  // an external stream's device, until first used

// The device a stream belongs to; an external stream's is asked of the driver
// when the stream is first used, not when it is wrapped (numba-cuda takes any
// handle there, and the driver faults on a handle that is not a stream).
int resolved_device(StreamObject* s) {
  if (s->device == kNotAskedYet) {
    s->device = -1;
    try {
      s->device = cuda::device_of_stream(reinterpret_cast<CUstream>(s->handle));
    } catch (...) {
    }
  }
  return s->device;
}

}  // namespace

int stream_device(PyObject* obj, bool* is_default) {
  *is_default = false;
  if (!PyObject_TypeCheck(obj, &StreamType)) return -1;
  auto* s = reinterpret_cast<StreamObject*>(obj);
  *is_default = !std::strcmp(s->kind, "default");
  return resolved_device(s);
}

bool synchronize_through_stream_object(std::uintptr_t handle, const char* kind) {
  PyRef s(new_stream_object(handle, kind, nullptr));
  if (!s) return false;
  return bool(PyRef(PyObject_CallMethod(s.get(), "synchronize", nullptr)));
}

namespace {

StreamObject* as_stream(PyObject* o) { return reinterpret_cast<StreamObject*>(o); }

void stream_dealloc(PyObject* o) {
  StreamObject* self = as_stream(o);
  if (self->owned) {
    try {
      runtime::DeviceScope scope(self->device);  // destroyed in its own context
      runtime::make_context_current();
      delete self->owned;
    } catch (...) {
    }
  }
  delete self->cpu_token;
  Py_CLEAR(self->name);
  Py_TYPE(o)->tp_free(o);
}

PyObject* stream_repr(PyObject* o) {
  StreamObject* self = as_stream(o);
  void* h = reinterpret_cast<void*>(self->handle);
  if (self->name) return PyUnicode_FromFormat("<host stream %R %p>", self->name, h);
  std::string kind = self->kind;
  if (kind == "stream") return PyUnicode_FromFormat("<CUDA stream %p>", h);
  if (kind == "default") return PyUnicode_FromFormat("<Default CUDA stream %p>", h);
  if (kind == "legacy default") return PyUnicode_FromString("<Legacy default CUDA stream>");
  if (kind == "per-thread default") return PyUnicode_FromString("<Per-thread default CUDA stream>");
  if (kind == "external") return PyUnicode_FromFormat("<External CUDA stream %p>", h);
  return PyUnicode_FromFormat("<CUDA %s stream %p>", self->kind, h);
}

PyObject* stream_int(PyObject* o) { return PyLong_FromSize_t(as_stream(o)->handle); }

PyObject* get_handle(PyObject* o, void*) { return PyLong_FromSize_t(as_stream(o)->handle); }
PyObject* get_name(PyObject* o, void*) { return Py_NewRef(as_stream(o)->name ? as_stream(o)->name : Py_None); }
PyObject* get_external(PyObject* o, void*) { return PyBool_FromLong(!std::strcmp(as_stream(o)->kind, "external")); }

// The CUDA stream protocol: (version 0, the CUstream as an int).
PyObject* m_cuda_stream(PyObject* o, PyObject*) {
  return Py_BuildValue("(iK)", 0, (unsigned long long)as_stream(o)->handle);
}

PyObject* m_synchronize(PyObject* o, PyObject*) {
  std::uintptr_t h = as_stream(o)->handle;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    // Refuses a stream being captured into a graph (on the CPU, that is
    // all it does).
    runtime::NamedOperation name("Stream.synchronize()");
    if (cpu()) runtime::synchronize_stream(h);
    if (!cpu()) {
      runtime::DeviceScope scope(resolved_device(as_stream(o)));
      without_gil([&] { runtime::synchronize_stream(h); });
    }
    Py_RETURN_NONE;
  });
}

PyObject* m_auto_synchronize(PyObject* o, PyObject*) { return Py_NewRef(o); }
PyObject* m_enter(PyObject* o, PyObject*) { return Py_NewRef(o); }
PyObject* m_exit(PyObject* o, PyObject*) { return m_synchronize(o, nullptr); }

PyObject* stream_richcompare(PyObject* a, PyObject* b, int op) {
  if (!PyObject_TypeCheck(b, &StreamType) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  bool eq = as_stream(a)->handle == as_stream(b)->handle;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

Py_hash_t stream_hash(PyObject* o) {
  Py_hash_t h = static_cast<Py_hash_t>(as_stream(o)->handle);
  return h == -1 ? -2 : h;
}

PyGetSetDef g_getset[] = {
    {"handle", get_handle, nullptr, "The CUstream as an int.", nullptr},
    {"name", get_name, nullptr, "The name a host stream was registered under.", nullptr},
    {"external", get_external, nullptr, "True for a stream made from a CUstream of elsewhere.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef g_stream_methods[] = {
    {"synchronize", m_synchronize, METH_NOARGS, "Wait until all work queued on the stream has completed."},
    {"__cuda_stream__", m_cuda_stream, METH_NOARGS, "(0, the CUstream as an int): the CUDA stream protocol."},
    {"auto_synchronize", m_auto_synchronize, METH_NOARGS,
     "A context manager that synchronizes the stream when the block exits."},
    {"__enter__", m_enter, METH_NOARGS, nullptr},
    {"__exit__", m_exit, METH_VARARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

PyNumberMethods g_number = [] {
  PyNumberMethods n{};
  n.nb_int = stream_int;
  n.nb_index = stream_int;
  return n;
}();

// ---- factories ----------------------------------------------------------

PyObject* py_stream(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    PyRef s(new_stream_object(0, "stream", nullptr));
    if (!s) return nullptr;
    StreamObject* stream = as_stream(s.get());
    stream->device = runtime::current_device();
    if (cpu()) {
      stream->cpu_token = new char(0);
      stream->handle = reinterpret_cast<std::uintptr_t>(stream->cpu_token);
      return s.release();
    }
    ensure_context();
    stream->owned = new cuda::Stream(CU_STREAM_DEFAULT);  // on failure `s` drops the object
    stream->handle = reinterpret_cast<std::uintptr_t>(stream->owned->get());
    return s.release();
  });
}

PyObject* py_default_stream(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&] {
    PyObject* s = new_stream_object(default_launch_stream(), "default", nullptr);
    if (s) as_stream(s)->device = runtime::current_device();
    return s;
  });
}

PyObject* py_legacy_default_stream(PyObject*, PyObject*) {
  return new_stream_object(reinterpret_cast<std::uintptr_t>(CU_STREAM_LEGACY), "legacy default", nullptr);
}

PyObject* py_per_thread_default_stream(PyObject*, PyObject*) {
  return new_stream_object(reinterpret_cast<std::uintptr_t>(CU_STREAM_PER_THREAD), "per-thread default", nullptr);
}

PyObject* py_external_stream(PyObject*, PyObject* arg) {
  if (!PyLong_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "external_stream(ptr): ptr must be an int (a CUstream), not %s",
                 Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  std::uintptr_t h = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(arg));
  if (PyErr_Occurred()) return nullptr;
  PyObject* s = new_stream_object(h, "external", nullptr);
  if (s && !cpu() && h) as_stream(s)->device = kNotAskedYet;
  return s;
}

PyObject* py_host_stream(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "host_stream(name): name must be a str, not %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  std::string name = PyUnicode_AsUTF8(arg);
  runtime::Session& s = runtime::session();
  std::string available;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (const auto& entry : s.streams) {
      if (entry.name == name) {
        PyObject* stream = new_stream_object(entry.handle, "host", arg);
        if (stream) as_stream(stream)->device = entry.device;
        return stream;
      }
      available += (available.empty() ? "'" : ", '") + entry.name + "'";
    }
  }
  std::string message = "no host stream named '" + name + "'; the host registered " +
                        (available.empty() ? std::string("none (use `cuhost run --streams N` or "
                                                         "Runtime::register_stream)")
                                           : available);
  if (PyRef text{PyUnicode_FromString(message.c_str())}) PyErr_SetObject(PyExc_KeyError, text.get());
  return nullptr;
}

PyObject* py_host_stream_names(PyObject*, PyObject*) {
  runtime::Session& s = runtime::session();
  std::lock_guard<std::mutex> lock(s.mutex);
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& entry : s.streams) {
    PyRef n(PyUnicode_FromString(entry.name.c_str()));
    if (!n || PyList_Append(list.get(), n.get()) < 0) return nullptr;
  }
  return list.release();
}

PyObject* py_synchronize(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::NamedOperation name("cuda.synchronize()");
    if (runtime::capture_in_progress()) runtime::synchronize_device();  // refused during a capture
    if (!cpu()) {
      ensure_context();
      without_gil([] { cuda::synchronize_context(); });
    }
    Py_RETURN_NONE;
  });
}

PyMethodDef g_functions[] = {
    {"stream", py_stream, METH_NOARGS, "A new stream owned by the script (destroyed with the object)."},
    {"default_stream", py_default_stream, METH_NOARGS,
     "The stream launches use when none is given (the host's default stream, else cuhost's own)."},
    {"legacy_default_stream", py_legacy_default_stream, METH_NOARGS, "The legacy default stream (CU_STREAM_LEGACY)."},
    {"per_thread_default_stream", py_per_thread_default_stream, METH_NOARGS,
     "The per-thread default stream (CU_STREAM_PER_THREAD)."},
    {"external_stream", py_external_stream, METH_O, "A Stream for a CUstream created elsewhere (not owned)."},
    {"host_stream", py_host_stream, METH_O, "The stream the host application lent under `name`."},
    {"host_stream_names", py_host_stream_names, METH_NOARGS, "Names of the streams the host lent, in order."},
    {"synchronize", py_synchronize, METH_NOARGS, "Wait for all work on the current device."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject StreamType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.Stream";
  t.tp_basicsize = sizeof(StreamObject);
  t.tp_dealloc = stream_dealloc;
  t.tp_repr = stream_repr;
  t.tp_as_number = &g_number;
  t.tp_richcompare = stream_richcompare;
  t.tp_hash = stream_hash;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "A CUDA stream (in-order and synchronous on the CPU backend).";
  t.tp_methods = g_stream_methods;
  t.tp_getset = g_getset;
  return t;
}();

int add_streams(PyObject* module) {
  if (PyType_Ready(&StreamType) < 0) return -1;
  // Scripts and test suites patch Stream methods (unittest.mock.patch.object(
  // Stream, "synchronize")) as they can on numba's Python Stream class;
  // CPython marks static types immutable, so the flag is lifted here.
  StreamType.tp_flags &= ~Py_TPFLAGS_IMMUTABLETYPE;
  PyType_Modified(&StreamType);
  if (PyModule_AddObjectRef(module, "Stream", reinterpret_cast<PyObject*>(&StreamType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_functions);
}

}  // namespace cuhost::python
