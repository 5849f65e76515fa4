// Events (numba's Event): cuda.event(timing=True) with record, wait,
// synchronize, query and elapsed_time, and cuda.event_elapsed_time. On the
// CPU backend work is synchronous, so recording takes a host timestamp and
// an event is complete as soon as it is recorded. An event belongs to the
// device that was current when it was made: it is recorded (by default on
// that device's default stream), waited for and destroyed in its context.
#include <chrono>
#include <memory>

#include "cuda/event.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/streams.h"
#include "python/type_object.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

struct EventObject {
  PyObject_HEAD cuda::Event* event;  // CUDA backend
  int device;
  bool timing;
  bool recorded;
  double host_ms;  // CPU backend: when it was recorded
};

extern PyTypeObject EventType;

bool cpu() { return runtime::session().backend != Backend::Cuda; }

// Events would join other streams into a capture or time a graph's nodes;
// cuhost's graphs capture one stream.
const char* const kEventReason =
    "cuhost's graphs capture the work of one stream, without events; record events around the graph's launch instead";

EventObject* as_event(PyObject* o) { return reinterpret_cast<EventObject*>(o); }

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// The stream an event operation targets: 0/None -> the default launch
// stream of the event's device.
bool target_stream(PyObject* arg, std::uintptr_t* handle, int device) {
  *handle = 0;
  if (arg && arg != Py_None && !stream_handle(arg, handle)) return false;
  if (*handle == 0) *handle = runtime::default_launch_stream(device);
  return true;
}

PyObject* py_event(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"timing", nullptr};
  int timing = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:event", const_cast<char**>(names), &timing)) return nullptr;
  PyRef owner(EventType.tp_alloc(&EventType, 0));
  if (!owner) return nullptr;
  auto* self = reinterpret_cast<EventObject*>(owner.get());
  self->event = nullptr;
  self->device = runtime::current_device();
  self->timing = timing != 0;
  self->recorded = false;
  self->host_ms = 0;
  if (cpu()) return owner.release();
  return guarded<PyObject*>(nullptr, [&] {  // on failure `owner` drops the event
    runtime::make_context_current();
    self->event = new cuda::Event(self->timing);
    return owner.release();
  });
}

void event_dealloc(PyObject* o) {
  EventObject* self = as_event(o);
  if (self->event) {
    try {
      runtime::DeviceScope scope(self->device);
      runtime::make_context_current();
      delete self->event;
    } catch (...) {
    }
  }
  Py_TYPE(o)->tp_free(o);
}

PyObject* m_record(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"stream", nullptr};
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:record", const_cast<char**>(names), &stream)) return nullptr;
  EventObject* self = as_event(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::uintptr_t h = 0;
    if (!target_stream(stream, &h, self->device)) return nullptr;
    runtime::NamedOperation name("Event.record()");
    runtime::refuse_on_captured_stream(h, "record an event on the stream", kEventReason);
    if (self->event) {
      runtime::DeviceScope scope(self->device);
      runtime::make_context_current();
      self->event->record(reinterpret_cast<CUstream>(h));
    } else {
      self->host_ms = now_ms();
    }
    self->recorded = true;
    Py_RETURN_NONE;
  });
}

PyObject* m_wait(PyObject* o, PyObject* args, PyObject* kwargs) {
  static const char* names[] = {"stream", nullptr};
  PyObject* stream = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:wait", const_cast<char**>(names), &stream)) return nullptr;
  EventObject* self = as_event(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::uintptr_t h = 0;
    if (!target_stream(stream, &h, runtime::current_device())) return nullptr;
    runtime::NamedOperation name("Event.wait()");
    runtime::refuse_on_captured_stream(h, "make the stream wait for an event", kEventReason);
    if (self->event) {
      runtime::make_context_current();
      self->event->wait(reinterpret_cast<CUstream>(h));
    }
    Py_RETURN_NONE;
  });
}

PyObject* m_synchronize(PyObject* o, PyObject*) {
  EventObject* self = as_event(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (self->event) {
      runtime::make_context_current();
      without_gil([&] { self->event->synchronize(); });
    }
    Py_RETURN_NONE;
  });
}

PyObject* m_query(PyObject* o, PyObject*) {
  EventObject* self = as_event(o);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (!self->event) Py_RETURN_TRUE;
    runtime::make_context_current();
    return PyBool_FromLong(self->event->query());
  });
}

PyObject* elapsed(EventObject* start, PyObject* end_obj) {
  if (!PyObject_TypeCheck(end_obj, &EventType)) {
    PyErr_Format(PyExc_TypeError, "elapsed_time: expected a cuda.event(), got %s", Py_TYPE(end_obj)->tp_name);
    return nullptr;
  }
  EventObject* end = as_event(end_obj);
  if (!start->timing || !end->timing) {
    PyErr_SetString(exception_class(ErrorKind::CudaAPIError),
                    "cuEventElapsedTime failed: CUDA_ERROR_INVALID_HANDLE (an event was created with timing=False)");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (start->event && end->event) {
      runtime::make_context_current();
      return PyFloat_FromDouble(start->event->elapsed_ms(*end->event));
    }
    if (!start->recorded || !end->recorded)
      throw UserError(ErrorKind::CudaAPIError,
                      "cuEventElapsedTime failed: CUDA_ERROR_INVALID_HANDLE (an event was never recorded)");
    return PyFloat_FromDouble(end->host_ms - start->host_ms);
  });
}

PyObject* m_elapsed_time(PyObject* o, PyObject* other) { return elapsed(as_event(o), other); }

PyObject* py_event_elapsed_time(PyObject*, PyObject* args) {
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "OO:event_elapsed_time", &a, &b)) return nullptr;
  if (!PyObject_TypeCheck(a, &EventType)) {
    PyErr_Format(PyExc_TypeError, "event_elapsed_time: expected a cuda.event(), got %s", Py_TYPE(a)->tp_name);
    return nullptr;
  }
  return elapsed(as_event(a), b);
}

PyMethodDef g_event_methods[] = {
    {"record", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_record)), METH_VARARGS | METH_KEYWORDS,
     "record(stream=0): record the event on a stream (0: the default launch stream)."},
    {"wait", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_wait)), METH_VARARGS | METH_KEYWORDS,
     "wait(stream=0): make the stream wait for this event."},
    {"synchronize", m_synchronize, METH_NOARGS, "Wait until the event has completed."},
    {"query", m_query, METH_NOARGS, "True when the event has completed."},
    {"elapsed_time", m_elapsed_time, METH_O, "Milliseconds from this event to another one."},
    {nullptr, nullptr, 0, nullptr}};

PyMethodDef g_functions[] = {{"event", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_event)),
                              METH_VARARGS | METH_KEYWORDS, "event(timing=True): a new event."},
                             {"event_elapsed_time", py_event_elapsed_time, METH_VARARGS,
                              "event_elapsed_time(start, end): milliseconds between two recorded events."},
                             {nullptr, nullptr, 0, nullptr}};

PyTypeObject EventType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.Event";
  t.tp_basicsize = sizeof(EventObject);
  t.tp_dealloc = event_dealloc;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "A CUDA event (host timestamps on the CPU backend).";
  t.tp_methods = g_event_methods;
  return t;
}();

}  // namespace

int add_events(PyObject* module) {
  if (PyType_Ready(&EventType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "Event", reinterpret_cast<PyObject*>(&EventType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_functions);
}

}  // namespace cuhost::python
