// The Communicator type of `_cuhost` and its module functions: the C++ half
// of `cuhost.nccl`. A Communicator wraps one communicator the host lent
// (dist/communicators.h); its methods take device arrays (DeviceNDArray,
// __cuda_array_interface__ objects; host NumPy arrays too on the CPU backend,
// where device memory is host memory), check what NCCL would only get wrong
// silently -- the array's device, contiguity, matching types and sizes,
// ranks -- and run the collective with the GIL released, on the device of
// the communicator and the given stream (its default stream when none).
#include <Python.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuda/nccl.h"
#include "dist/communicators.h"
#include "dist/mpi.h"
#include "ir/types.h"
#include "python/array_devices.h"
#include "python/array_order.h"
#include "python/array_view.h"
#include "python/device_array.h"
#include "python/module.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/type_object.h"
#include "runtime/access_order.h"
#include "runtime/devices.h"
#include "runtime/session.h"

namespace cuhost::python {

extern PyTypeObject CommunicatorType;

namespace {

struct CommunicatorObject {
  PyObject_HEAD std::shared_ptr<dist::Communicator>* comm;
};

dist::Communicator& comm_of(PyObject* o) { return **reinterpret_cast<CommunicatorObject*>(o)->comm; }

bool on_gpu() { return runtime::session().backend == Backend::Cuda; }

// A buffer argument of a collective.
struct Buffer {
  void* data = nullptr;
  std::size_t count = 0;     // elements
  std::size_t itemsize = 0;  // bytes per element
  const ir::Type* dtype = nullptr;
  bool typed = false;  // dtype is one of NCCL's types (below)
  dist::DataType type = dist::DataType::UInt8;
  int device = 0;
  ArrayBytes bytes;           // for the cross-stream ordering of its memory
  PyObject* owner = nullptr;  // the array (borrowed)
};

// Inside nccl.group(), NCCL queues the work of the calls at the group's
// end: the writes are recorded for the cross-stream ordering then (an event
// recorded at the call would mark the stream before the work). The arrays
// are kept alive until then.
struct PendingWrite {
  PyObject* owner;  // a strong reference, raw: the thread_local list may outlive the interpreter
  ArrayBytes bytes;
  std::uintptr_t stream;
  int device;
};
thread_local int t_group_depth = 0;
thread_local std::vector<PendingWrite> t_group_writes;

bool nccl_type_of(const ir::Type* t, dist::DataType* out) {
  if (t->kind == ir::TypeKind::Integer) {
    switch (t->bits) {
      case 8: *out = t->is_signed ? dist::DataType::Int8 : dist::DataType::UInt8; return true;
      case 32: *out = t->is_signed ? dist::DataType::Int32 : dist::DataType::UInt32; return true;
      case 64: *out = t->is_signed ? dist::DataType::Int64 : dist::DataType::UInt64; return true;
      default: return false;
    }
  }
  if (t->kind == ir::TypeKind::Float) {
    if (ir::is_bfloat16(t)) {
      *out = dist::DataType::BFloat16;
      return true;
    }
    if (!t->key.empty()) return false;  // fp8 and other storage formats
    switch (t->bits) {
      case 16: *out = dist::DataType::Float16; return true;
      case 32: *out = dist::DataType::Float32; return true;
      case 64: *out = dist::DataType::Float64; return true;
      default: return false;
    }
  }
  return false;
}

// Reads a buffer argument: a device array of `comm`'s device, contiguous,
// writable when `writable`. False with a Python error naming `op` and `role`.
bool read_buffer(PyObject* obj, const char* op, const char* role, bool writable, const dist::Communicator& comm,
                 Buffer* out) {
  ArrayView view;
  bool ok = device_array_view(obj, &view);
  if (!ok && PyErr_Occurred()) return false;
  if (!ok && !on_gpu()) ok = host_array_view(obj, &view);  // host memory is the CPU backend's device memory
  if (!ok) {
    if (PyErr_Occurred()) return false;
    PyErr_Format(PyExc_TypeError,
                 "%s: %s must be a device array (cuda.to_device(...), cuda.device_array(...) or an object with "
                 "__cuda_array_interface__)%s, not %s",
                 op, role, on_gpu() ? "" : " or a NumPy array", Py_TYPE(obj)->tp_name);
    return false;
  }
  if (!view.dtype) {
    PyErr_Format(PyExc_TypeError, "%s: %s has a dtype collectives cannot carry", op, role);
    return false;
  }
  const std::int64_t itemsize = view.dtype->byte_size();
  if (!is_c_contiguous(view.ndim, view.shape, view.strides, itemsize) &&
      !is_f_contiguous(view.ndim, view.shape, view.strides, itemsize)) {
    PyErr_Format(PyExc_ValueError, "%s: %s must be contiguous (make a contiguous copy first)", op, role);
    return false;
  }
  if (writable && view.readonly) {
    PyErr_Format(PyExc_ValueError, "%s: %s is read-only", op, role);
    return false;
  }
  out->data = view.data;
  out->bytes = array_bytes(view);
  out->owner = obj;
  out->count = static_cast<std::size_t>(element_count(view.ndim, view.shape));
  out->itemsize = static_cast<std::size_t>(itemsize);
  out->dtype = view.dtype;
  out->typed = nccl_type_of(view.dtype, &out->type);
  out->device = view.device >= 0 ? view.device : device_of_borrowed(reinterpret_cast<std::uintptr_t>(view.data));
  if (on_gpu() && out->device != comm.device()) {
    PyErr_Format(PyExc_ValueError,
                 "%s: %s is an array on device %d, but this communicator (rank %d of %d) works on device %d; "
                 "copy it to device %d first",
                 op, role, out->device, comm.rank(), comm.size(), comm.device(), comm.device());
    return false;
  }
  return true;
}

// Reductions need one of NCCL's types.
bool require_reducible(const Buffer& b, const char* op, const char* role) {
  if (b.typed) return true;
  PyErr_Format(PyExc_TypeError,
               "%s: %s has dtype %s, which NCCL cannot reduce (int8, uint8, int32, uint32, int64, uint64, float16, "
               "bfloat16, float32 and float64 can be reduced)",
               op, role, b.dtype->str().c_str());
  return false;
}

bool same_dtype(const Buffer& a, const Buffer& b, const char* op) {
  if (a.dtype == b.dtype) return true;
  PyErr_Format(PyExc_TypeError, "%s: the send array is %s but the receive array is %s (they must match)", op,
               a.dtype->str().c_str(), b.dtype->str().c_str());
  return false;
}

bool count_is(const Buffer& b, std::size_t expected, const char* op, const char* role, const char* why) {
  if (b.count == expected) return true;
  PyErr_Format(PyExc_ValueError, "%s: %s has %zu elements but %zu are expected (%s)", op, role, b.count, expected, why);
  return false;
}

bool check_rank(const dist::Communicator& comm, int r, const char* op, const char* role) {
  if (r >= 0 && r < comm.size()) return true;
  PyErr_Format(PyExc_ValueError, "%s: %s %d is not a rank of this communicator (ranks 0 to %d)", op, role, r,
               comm.size() - 1);
  return false;
}

// The element type and count a buffer travels as: its own type, or bytes
// for types NCCL does not know (data movement needs no arithmetic).
dist::DataType moved_type(const Buffer& b) { return b.typed ? b.type : dist::DataType::UInt8; }
std::size_t moved_count(const Buffer& b, std::size_t elements) { return b.typed ? elements : elements * b.itemsize; }

// The stream of a collective: None -> the communicator's device's default
// stream; a stream of another device is refused.
bool collective_stream(PyObject* arg, const dist::Communicator& comm, const char* op, std::uintptr_t* handle) {
  *handle = 0;
  if (!on_gpu()) return true;
  if (!arg || arg == Py_None || (PyLong_CheckExact(arg) && PyLong_AsLong(arg) == 0)) {
    *handle = runtime::default_launch_stream(comm.device());
    return true;
  }
  if (!stream_handle(arg, handle)) return false;
  bool is_default = false;
  int owner = stream_device(arg, &is_default);
  if (is_default) {
    *handle = runtime::default_launch_stream(comm.device());
  } else if (owner >= 0 && owner != comm.device()) {
    PyErr_Format(PyExc_ValueError, "%s: the stream belongs to device %d, but this communicator works on device %d", op,
                 owner, comm.device());
    return false;
  }
  return true;
}

// Runs `fn` on the communicator's device with the GIL released, on
// `stream` after the work of other streams that wrote `read` or `written`
// (either may be null); both are then recorded as used there.
template <class Fn>
PyObject* run(const dist::Communicator& comm, std::uintptr_t stream, const Buffer* read, const Buffer* written,
              Fn&& fn) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::DeviceScope scope(on_gpu() ? comm.device() : -1);
    if (on_gpu()) runtime::make_device_current(comm.device());
    if (read) order_before(read->bytes, stream, comm.device());
    if (written) order_before(written->bytes, stream, comm.device());
    without_gil(fn);
    // The arrays read are recorded too, as a kernel's arguments are: a later
    // write on another stream must not overtake the read.
    runtime::MarkBatch queued;
    for (const Buffer* b : {read, written}) {
      if (!b || !b->bytes.order) continue;
      if (t_group_depth > 0) {
        Py_INCREF(b->owner);
        t_group_writes.push_back({b->owner, b->bytes, stream, comm.device()});
      } else {
        order_after_write(b->bytes, stream, comm.device(), false, &queued);
      }
    }
    Py_RETURN_NONE;
  });
}

bool parse_op(int code, dist::ReduceOp* op) {
  if (code < 0 || code > static_cast<int>(dist::ReduceOp::Avg)) {
    PyErr_Format(PyExc_ValueError, "unknown reduction code %d", code);
    return false;
  }
  *op = static_cast<dist::ReduceOp>(code);
  return true;
}

// ---- methods ---------------------------------------------------------------

// all_reduce(send, recv, op, stream)
PyObject* m_all_reduce(PyObject* self, PyObject* args) {
  PyObject *send_obj, *recv_obj, *stream_obj;
  int op_code;
  if (!PyArg_ParseTuple(args, "OOiO:all_reduce", &send_obj, &recv_obj, &op_code, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer s, r;
  dist::ReduceOp op;
  std::uintptr_t stream;
  if (!parse_op(op_code, &op) || !read_buffer(send_obj, "all_reduce", "the send array", false, c, &s) ||
      !read_buffer(recv_obj, "all_reduce", "the receive array", true, c, &r) || !same_dtype(s, r, "all_reduce") ||
      !require_reducible(s, "all_reduce", "the send array") ||
      !count_is(r, s.count, "all_reduce", "the receive array", "as many as the send array") ||
      !collective_stream(stream_obj, c, "all_reduce", &stream))
    return nullptr;
  return run(c, stream, &s, &r, [&] { c.all_reduce(s.data, r.data, s.count, s.type, op, stream); });
}

// reduce(send, recv_or_None, op, root, stream)
PyObject* m_reduce(PyObject* self, PyObject* args) {
  PyObject *send_obj, *recv_obj, *stream_obj;
  int op_code, root;
  if (!PyArg_ParseTuple(args, "OOiiO:reduce", &send_obj, &recv_obj, &op_code, &root, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer s, r;
  dist::ReduceOp op;
  std::uintptr_t stream;
  if (!parse_op(op_code, &op) || !check_rank(c, root, "reduce", "root") ||
      !read_buffer(send_obj, "reduce", "the send array", false, c, &s) ||
      !require_reducible(s, "reduce", "the send array") || !collective_stream(stream_obj, c, "reduce", &stream))
    return nullptr;
  if (c.rank() == root) {
    if (recv_obj == Py_None) {
      PyErr_SetString(PyExc_ValueError, "reduce: the root rank needs a receive array");
      return nullptr;
    }
    if (!read_buffer(recv_obj, "reduce", "the receive array", true, c, &r) || !same_dtype(s, r, "reduce") ||
        !count_is(r, s.count, "reduce", "the receive array", "as many as the send array"))
      return nullptr;
  } else if (recv_obj != Py_None && !read_buffer(recv_obj, "reduce", "the receive array", true, c, &r)) {
    return nullptr;
  }
  return run(c, stream, &s, r.data ? &r : nullptr,
             [&] { c.reduce(s.data, r.data, s.count, s.type, op, root, stream); });
}

// broadcast(send, recv, root, stream): send is read on the root only.
PyObject* m_broadcast(PyObject* self, PyObject* args) {
  PyObject *send_obj, *recv_obj, *stream_obj;
  int root;
  if (!PyArg_ParseTuple(args, "OOiO:broadcast", &send_obj, &recv_obj, &root, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer s, r;
  std::uintptr_t stream;
  if (!check_rank(c, root, "broadcast", "root") ||
      !read_buffer(recv_obj, "broadcast", "the receive array", true, c, &r) ||
      !collective_stream(stream_obj, c, "broadcast", &stream))
    return nullptr;
  s = r;
  if (send_obj != Py_None &&
      !(read_buffer(send_obj, "broadcast", "the send array", false, c, &s) && same_dtype(s, r, "broadcast") &&
        count_is(r, s.count, "broadcast", "the receive array", "as many as the send array")))
    return nullptr;
  return run(c, stream, &s, &r,
             [&] { c.broadcast(s.data, r.data, moved_count(r, r.count), moved_type(r), root, stream); });
}

// reduce_scatter(send, recv, op, stream): send has size * recv elements.
PyObject* m_reduce_scatter(PyObject* self, PyObject* args) {
  PyObject *send_obj, *recv_obj, *stream_obj;
  int op_code;
  if (!PyArg_ParseTuple(args, "OOiO:reduce_scatter", &send_obj, &recv_obj, &op_code, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer s, r;
  dist::ReduceOp op;
  std::uintptr_t stream;
  if (!parse_op(op_code, &op) || !read_buffer(send_obj, "reduce_scatter", "the send array", false, c, &s) ||
      !read_buffer(recv_obj, "reduce_scatter", "the receive array", true, c, &r) ||
      !same_dtype(s, r, "reduce_scatter") || !require_reducible(s, "reduce_scatter", "the send array") ||
      !count_is(s, r.count * static_cast<std::size_t>(c.size()), "reduce_scatter", "the send array",
                "the communicator's size times the receive array's") ||
      !collective_stream(stream_obj, c, "reduce_scatter", &stream))
    return nullptr;
  return run(c, stream, &s, &r, [&] { c.reduce_scatter(s.data, r.data, r.count, s.type, op, stream); });
}

// all_gather(send, recv, stream): recv has size * send elements.
PyObject* m_all_gather(PyObject* self, PyObject* args) {
  PyObject *send_obj, *recv_obj, *stream_obj;
  if (!PyArg_ParseTuple(args, "OOO:all_gather", &send_obj, &recv_obj, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer s, r;
  std::uintptr_t stream;
  if (!read_buffer(send_obj, "all_gather", "the send array", false, c, &s) ||
      !read_buffer(recv_obj, "all_gather", "the receive array", true, c, &r) || !same_dtype(s, r, "all_gather") ||
      !count_is(r, s.count * static_cast<std::size_t>(c.size()), "all_gather", "the receive array",
                "the communicator's size times the send array's") ||
      !collective_stream(stream_obj, c, "all_gather", &stream))
    return nullptr;
  return run(c, stream, &s, &r, [&] { c.all_gather(s.data, r.data, moved_count(s, s.count), moved_type(s), stream); });
}

// send(array, peer, stream) / recv(array, peer, stream)
PyObject* point_to_point(PyObject* self, PyObject* args, bool sending) {
  const char* op = sending ? "send" : "recv";
  PyObject *obj, *stream_obj;
  int peer;
  if (!PyArg_ParseTuple(args, "OiO", &obj, &peer, &stream_obj)) return nullptr;
  dist::Communicator& c = comm_of(self);
  Buffer b;
  std::uintptr_t stream;
  if (!check_rank(c, peer, op, "peer") ||
      !read_buffer(obj, op, sending ? "the array" : "the receive array", !sending, c, &b) ||
      !collective_stream(stream_obj, c, op, &stream))
    return nullptr;
  return run(c, stream, sending ? &b : nullptr, sending ? nullptr : &b, [&] {
    if (sending)
      c.send(b.data, moved_count(b, b.count), moved_type(b), peer, stream);
    else
      c.recv(b.data, moved_count(b, b.count), moved_type(b), peer, stream);
  });
}
PyObject* m_send(PyObject* self, PyObject* args) { return point_to_point(self, args, true); }
PyObject* m_recv(PyObject* self, PyObject* args) { return point_to_point(self, args, false); }

PyObject* get_rank(PyObject* o, void*) { return PyLong_FromLong(comm_of(o).rank()); }
PyObject* get_size(PyObject* o, void*) { return PyLong_FromLong(comm_of(o).size()); }
PyObject* get_device(PyObject* o, void*) { return PyLong_FromLong(comm_of(o).device()); }
PyObject* get_carrier(PyObject* o, void*) { return PyUnicode_FromString(comm_of(o).carrier()); }
PyObject* get_handle(PyObject* o, void*) { return PyLong_FromSize_t(comm_of(o).handle()); }

PyObject* communicator_repr(PyObject* o) {
  const dist::Communicator& c = comm_of(o);
  return PyUnicode_FromFormat("<cuhost.nccl.Communicator rank %d of %d on device %d (%s)>", c.rank(), c.size(),
                              c.device(), c.carrier());
}

void communicator_dealloc(PyObject* o) {
  delete reinterpret_cast<CommunicatorObject*>(o)->comm;
  Py_TYPE(o)->tp_free(o);
}

PyMethodDef g_methods[] = {{"all_reduce", m_all_reduce, METH_VARARGS, "all_reduce(send, recv, op, stream)"},
                           {"reduce", m_reduce, METH_VARARGS, "reduce(send, recv, op, root, stream)"},
                           {"broadcast", m_broadcast, METH_VARARGS, "broadcast(send, recv, root, stream)"},
                           {"reduce_scatter", m_reduce_scatter, METH_VARARGS, "reduce_scatter(send, recv, op, stream)"},
                           {"all_gather", m_all_gather, METH_VARARGS, "all_gather(send, recv, stream)"},
                           {"send", m_send, METH_VARARGS, "send(array, peer, stream)"},
                           {"recv", m_recv, METH_VARARGS, "recv(array, peer, stream)"},
                           {nullptr, nullptr, 0, nullptr}};

PyGetSetDef g_getset[] = {
    {"rank", get_rank, nullptr, "This communicator's rank.", nullptr},
    {"size", get_size, nullptr, "The number of ranks.", nullptr},
    {"device", get_device, nullptr, "The device ordinal its arrays live on.", nullptr},
    {"carrier", get_carrier, nullptr, "What carries the collectives: 'nccl', 'mpi' or 'self'.", nullptr},
    {"handle", get_handle, nullptr, "The ncclComm_t (or MPI_Comm) as an int; 0 for a single rank.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// ---- module functions --------------------------------------------------------

PyObject* py_communicators(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    auto comms = dist::lent_communicators();
    PyRef list(PyList_New(0));
    if (!list) return nullptr;
    for (auto& c : comms) {
      PyRef obj(CommunicatorType.tp_alloc(&CommunicatorType, 0));
      if (!obj) return nullptr;
      reinterpret_cast<CommunicatorObject*>(obj.get())->comm = new std::shared_ptr<dist::Communicator>(c);
      if (PyList_Append(list.get(), obj.get()) < 0) return nullptr;
    }
    return list.release();
  });
}

// Records the writes of a group that ended (see PendingWrite), or drops
// them when it failed.
void finish_group_writes(bool record) {
  std::vector<PendingWrite> writes;
  writes.swap(t_group_writes);
  std::vector<runtime::MarkBatch> marks;  // one event per stream marks the group's work there
  for (PendingWrite& w : writes) {
    PyRef owner(w.owner);  // adopts the reference the pending write held
    if (record) {
      auto it = std::find_if(marks.begin(), marks.end(), [&](const runtime::MarkBatch& m) {
        return runtime::same_stream(m.stream, {w.stream, w.device});
      });
      if (it == marks.end()) it = marks.insert(marks.end(), runtime::MarkBatch{{w.stream, w.device}, nullptr});
      order_after_write(w.bytes, w.stream, w.device, false, &*it);
    }
  }
}

PyObject* group_call(bool start) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::exception_ptr error;
    without_gil([&] {
      try {
        if (start)
          dist::group_start();
        else
          dist::group_end();
      } catch (...) {
        error = std::current_exception();  // rethrown after the group's bookkeeping
      }
    });
    if (start) {
      if (!error) ++t_group_depth;
    } else if (t_group_depth > 0 && --t_group_depth == 0) {
      finish_group_writes(!error);
    }
    if (error) std::rethrow_exception(error);
    Py_RETURN_NONE;
  });
}
PyObject* py_group_start(PyObject*, PyObject*) { return group_call(true); }
PyObject* py_group_end(PyObject*, PyObject*) { return group_call(false); }

// _collectives_info() -> dict: what NCCL and MPI this process can use.
PyObject* py_collectives_info(PyObject*, PyObject*) {
  const cuda::NcclStatus& n = cuda::nccl_status();
  const dist::MpiStatus& m = dist::mpi_status();
  return Py_BuildValue("{s:O,s:s,s:s,s:O,s:s,s:s}", "nccl", n.available ? Py_True : Py_False, "nccl_version",
                       n.available ? cuda::nccl_version_string(n.version).c_str() : "", "nccl_reason", n.reason.c_str(),
                       "mpi", m.available ? Py_True : Py_False, "mpi_library", m.library.c_str(), "mpi_reason",
                       m.reason.c_str());
}

PyMethodDef g_functions[] = {
    {"_communicators", py_communicators, METH_NOARGS, "The communicators the host lent, in rank order."},
    {"_group_start", py_group_start, METH_NOARGS, "ncclGroupStart over every carrier in use."},
    {"_group_end", py_group_end, METH_NOARGS, "ncclGroupEnd over every carrier in use."},
    {"_collectives_info", py_collectives_info, METH_NOARGS, "Whether NCCL and MPI can be loaded, and why not."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject CommunicatorType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.Communicator";
  t.tp_basicsize = sizeof(CommunicatorObject);
  t.tp_dealloc = communicator_dealloc;
  t.tp_repr = communicator_repr;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "One rank of a communicator the host lent (NCCL, MPI or a single rank).";
  t.tp_methods = g_methods;
  t.tp_getset = g_getset;
  return t;
}();

int add_collectives(PyObject* module) {
  if (PyType_Ready(&CommunicatorType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "Communicator", reinterpret_cast<PyObject*>(&CommunicatorType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_functions);
}

}  // namespace cuhost::python
