// The memory-manager side of `_cuhost` behind numba-cuda's memory-management
// API (pylib/cuda/cudadrv/memory_managers.py): the pending-deallocation
// queues (Context.deallocations, cuda.defer_cleanup), external memory
// managers (EMM plugins) that device allocations are routed to, managed
// memory, and what an array's allocation is (for gpu_data and IPC handles).
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "python/device_array.h"
#include "python/py_api.h"
#include "runtime/device_memory.h"
#include "runtime/ipc.h"
#include "runtime/pending_frees.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

// ---- pending frees -----------------------------------------------------------

bool parse_device(PyObject* arg, int* device) {
  long d = PyLong_AsLong(arg);
  if (d == -1 && PyErr_Occurred()) return false;
  if (d < 0) {
    PyErr_SetString(PyExc_ValueError, "device ordinal must not be negative");
    return false;
  }
  *device = static_cast<int>(d);
  return true;
}

PyObject* py_pending_frees(PyObject*, PyObject* arg) {
  int device = 0;
  if (!parse_device(arg, &device)) return nullptr;
  runtime::PendingFreeState s = runtime::pending_frees(device);
  return Py_BuildValue("(nnni)", static_cast<Py_ssize_t>(s.count), static_cast<Py_ssize_t>(s.bytes),
                       static_cast<Py_ssize_t>(s.capacity), s.deferred);
}

PyObject* py_max_pending_bytes(PyObject*, PyObject* arg) {
  int device = 0;
  if (!parse_device(arg, &device)) return nullptr;
  return PyLong_FromSize_t(runtime::max_pending_bytes(device));
}

PyObject* py_flush_pending_frees(PyObject*, PyObject* arg) {
  int device = 0;
  if (!parse_device(arg, &device)) return nullptr;
  return PyBool_FromLong(runtime::flush_pending_frees(device));
}

PyObject* py_defer_frees(PyObject*, PyObject* args) {
  int device = 0, enter = 0;
  if (!PyArg_ParseTuple(args, "ip:_defer_frees", &device, &enter)) return nullptr;
  if (enter)
    runtime::defer_frees(device);
  else
    runtime::undefer_frees(device);
  Py_RETURN_NONE;
}

// A Python callable queued like device memory (numba's add_item); it runs
// with the GIL when the queue is released, and its errors are reported as
// unraisable (there is no caller to raise to).
PyObject* py_queue_free(PyObject*, PyObject* args) {
  int device = 0;
  PyObject* release = nullptr;
  Py_ssize_t bytes = 0;
  if (!PyArg_ParseTuple(args, "iOn:_queue_free", &device, &release, &bytes)) return nullptr;
  if (!PyCallable_Check(release)) {
    PyErr_SetString(PyExc_TypeError, "the deallocation must be callable");
    return nullptr;
  }
  Py_INCREF(release);
  // The closure holds a raw strong reference (it may be copied or dropped
  // without the GIL); the call adopts it and drops it with the GIL held.
  runtime::queue_free(device, static_cast<std::size_t>(bytes < 0 ? 0 : bytes), [release] {
    if (!Py_IsInitialized()) return;
    GilHold gil;
    PyRef adopted(release);
    if (!PyRef(PyObject_CallNoArgs(release))) PyErr_WriteUnraisable(release);
  });
  Py_RETURN_NONE;
}

PyObject* py_set_pending_free_limits(PyObject*, PyObject* args) {
  Py_ssize_t count = 0;
  double ratio = 0;
  if (!PyArg_ParseTuple(args, "nd:_set_pending_free_limits", &count, &ratio)) return nullptr;
  runtime::set_pending_free_limits(static_cast<std::size_t>(count < 0 ? 0 : count), ratio);
  Py_RETURN_NONE;
}

// ---- external memory managers ---------------------------------------------------

std::mutex g_allocators_mutex;
std::map<int, PyObject*> g_allocators;  // device -> callable(size) -> (address, owner); strong references

// Calls the device's Python allocator. The owner it returns is held by the
// allocation and released (with the GIL) when the allocation goes.
thread_local bool t_in_plugin = false;  // a plugin's own allocations are cuhost's

bool external_allocate(int device, std::size_t bytes, std::uintptr_t* address_out, std::shared_ptr<void>* owner) {
  if (t_in_plugin) return false;
  struct InPlugin {
    InPlugin() { t_in_plugin = true; }
    ~InPlugin() { t_in_plugin = false; }
  } in_plugin;
  bool had_gil = PyGILState_Check();
  std::uintptr_t address = 0;
  std::string failure;
  bool python_error = false;
  {
    GilHold gil;
    PyRef allocator;
    {
      std::lock_guard<std::mutex> lock(g_allocators_mutex);
      auto it = g_allocators.find(device);
      if (it != g_allocators.end()) allocator = PyRef::borrow(it->second);
    }
    if (!allocator) {
      failure = "the external memory manager of device " + std::to_string(device) + " was removed";
    } else if (PyRef result{PyObject_CallFunction(allocator.get(), "n", static_cast<Py_ssize_t>(bytes))}) {
      PyObject* addr = nullptr;
      PyObject* held = nullptr;
      if (PyArg_ParseTuple(result.get(), "OO", &addr, &held)) {
        address = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(addr));
        if (!PyErr_Occurred()) {
          // The allocation may be freed on any thread: its deleter takes the
          // GIL before dropping the owner's reference.
          *owner = std::shared_ptr<void>(PyRef::borrow(held).release(), [](void* p) {
            if (!Py_IsInitialized()) return;
            GilHold gil;
            PyRef dropped(static_cast<PyObject*>(p));
          });
        }
      }
    }
    allocator = PyRef();
    if (PyErr_Occurred() && !had_gil) {
      // No Python caller on this thread to see the error: carry its text.
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyRef type_ref(type), value_ref(value), tb_ref(tb);
      PyRef text(value ? PyObject_Str(value) : nullptr);
      failure =
          text && PyUnicode_Check(text.get()) ? PyUnicode_AsUTF8(text.get()) : "the external memory manager failed";
    }
    python_error = PyErr_Occurred() != nullptr;
  }
  if (python_error) throw UserError(ErrorKind::RuntimeError, "external memory manager failed");  // error kept set
  if (!failure.empty()) throw UserError(ErrorKind::RuntimeError, failure);
  *address_out = address;
  return true;
}

// _use_external_allocator(device, allocator or None): allocator(size) -> (address, owner).
PyObject* py_use_external_allocator(PyObject*, PyObject* args) {
  int device = 0;
  PyObject* allocator = nullptr;
  if (!PyArg_ParseTuple(args, "iO:_use_external_allocator", &device, &allocator)) return nullptr;
  if (device < 0 || device >= 64) {
    PyErr_Format(PyExc_ValueError, "device ordinal %d out of range", device);
    return nullptr;
  }
  if (allocator != Py_None && !PyCallable_Check(allocator)) {
    PyErr_SetString(PyExc_TypeError, "the allocator must be callable or None");
    return nullptr;
  }
  runtime::set_external_allocator(&external_allocate);
  PyRef previous;  // dropped after the lock is released (its finalizer may run Python)
  {
    std::lock_guard<std::mutex> lock(g_allocators_mutex);
    auto it = g_allocators.find(device);
    if (it != g_allocators.end()) {
      previous = PyRef(it->second);
      g_allocators.erase(it);
    }
    if (allocator != Py_None) g_allocators[device] = Py_NewRef(allocator);
  }
  runtime::use_external_allocator(device, allocator != Py_None);
  Py_RETURN_NONE;
}

// ---- allocations -------------------------------------------------------------------

PyObject* uint8_dtype() {
  PyRef spec(PyUnicode_FromString("u1"));
  return spec ? to_numpy_dtype(spec.get()) : nullptr;
}

// A 1-d uint8 DeviceNDArray owning `memory`.
PyObject* bytes_array(std::shared_ptr<runtime::DeviceAllocation> memory) {
  PyRef dtype(uint8_dtype());
  if (!dtype) return nullptr;
  std::int64_t shape = static_cast<std::int64_t>(memory->size());
  std::int64_t stride = 1;
  PyObject* view =
      new_device_view(nullptr, nullptr, memory->address(), 1, &shape, &stride, dtype.get(), false, nullptr);
  if (view) reinterpret_cast<DeviceArrayObject*>(view)->memory = std::move(memory);
  return view;
}

// _managed_alloc(nbytes, attach_global) -> uint8 DeviceNDArray over managed memory.
PyObject* py_managed_alloc(PyObject*, PyObject* args) {
  Py_ssize_t bytes = 0;
  int attach_global = 1;
  if (!PyArg_ParseTuple(args, "n|p:_managed_alloc", &bytes, &attach_global)) return nullptr;
  if (bytes < 0) {
    PyErr_SetString(PyExc_ValueError, "cannot allocate a negative number of bytes");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&] {
    return bytes_array(
        runtime::DeviceAllocation::allocate_managed(static_cast<std::size_t>(bytes), attach_global != 0));
  });
}

// _allocation_of(array) -> (base, size, owner, managed, whole) for a device
// array: its allocation's base address and size, the external memory
// manager's object holding it (or None), whether it is managed memory, and a
// uint8 array over the whole allocation (None for borrowed memory, where
// base and size are those of the array's own extent).
PyObject* py_allocation_of(PyObject*, PyObject* arg) {
  if (!is_device_array(arg)) {
    PyErr_Format(PyExc_TypeError, "expected a device array, got %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  auto* a = reinterpret_cast<DeviceArrayObject*>(arg);
  if (!a->memory) {
    std::int64_t low = 0, high = 0;
    bool empty = false;
    for (int i = 0; i < a->ndim; ++i) {
      if (a->shape[i] == 0) empty = true;
      std::int64_t span = (a->shape[i] - 1) * a->strides[i];
      (span < 0 ? low : high) += span;
    }
    std::int64_t size = empty ? 0 : high - low + a->itemsize;
    return Py_BuildValue("(KLOOO)", static_cast<unsigned long long>(a->data + low), static_cast<long long>(size),
                         a->base ? a->base : Py_None, Py_False, Py_None);
  }
  const auto& memory = a->memory;
  PyObject* owner = memory->external_owner() ? static_cast<PyObject*>(memory->external_owner().get()) : Py_None;
  PyObject* whole = bytes_array(memory);
  if (!whole) return nullptr;
  return Py_BuildValue("(KnOON)", static_cast<unsigned long long>(memory->address()),
                       static_cast<Py_ssize_t>(memory->size()), owner, memory->managed() ? Py_True : Py_False, whole);
}

// ---- IPC -------------------------------------------------------------------------------

// _ipc_export(pointer) -> (handle bytes, allocation base, allocation size).
PyObject* py_ipc_export(PyObject*, PyObject* arg) {
  std::uintptr_t pointer = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(arg));
  if (PyErr_Occurred()) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::IpcExport e = runtime::ipc_export(pointer);
    PyObject* handle = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(e.handle.data()),
                                                 static_cast<Py_ssize_t>(e.handle.size()));
    if (!handle) return nullptr;
    return Py_BuildValue("(NKn)", handle, static_cast<unsigned long long>(e.base), static_cast<Py_ssize_t>(e.size));
  });
}

// _ipc_open(handle bytes) -> address of the memory mapped into this process.
PyObject* py_ipc_open(PyObject*, PyObject* arg) {
  char* data = nullptr;
  Py_ssize_t n = 0;
  if (PyBytes_AsStringAndSize(arg, &data, &n) < 0) return nullptr;
  runtime::IpcHandle handle{};
  if (n != static_cast<Py_ssize_t>(handle.size())) {
    PyErr_Format(PyExc_ValueError, "an IPC handle is %zu bytes, not %zd", handle.size(), n);
    return nullptr;
  }
  std::memcpy(handle.data(), data, handle.size());
  return guarded<PyObject*>(nullptr, [&] { return PyLong_FromUnsignedLongLong(runtime::ipc_open(handle)); });
}

PyObject* py_ipc_close(PyObject*, PyObject* arg) {
  std::uintptr_t address = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(arg));
  if (PyErr_Occurred()) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::ipc_close(address);
    Py_RETURN_NONE;
  });
}

PyMethodDef g_functions[] = {
    {"_ipc_export", py_ipc_export, METH_O, "(handle, base, size) of the allocation a device pointer lies in."},
    {"_ipc_open", py_ipc_open, METH_O, "Maps another process's memory from its IPC handle; returns the address."},
    {"_ipc_close", py_ipc_close, METH_O, "Unmaps memory _ipc_open mapped."},
    {"_pending_frees", py_pending_frees, METH_O, "(count, bytes, capacity, deferred) of a device's pending frees."},
    {"_max_pending_bytes", py_max_pending_bytes, METH_O, "The byte limit of a device's pending frees."},
    {"_flush_pending_frees", py_flush_pending_frees, METH_O,
     "Releases a device's pending frees unless deferred; True if released."},
    {"_defer_frees", py_defer_frees, METH_VARARGS, "_defer_frees(device, enter): enters or leaves a deferral."},
    {"_queue_free", py_queue_free, METH_VARARGS, "_queue_free(device, callable, nbytes): queues a release."},
    {"_set_pending_free_limits", py_set_pending_free_limits, METH_VARARGS,
     "_set_pending_free_limits(count, ratio): numba's CUDA_DEALLOCS_COUNT and CUDA_DEALLOCS_RATIO."},
    {"_use_external_allocator", py_use_external_allocator, METH_VARARGS,
     "_use_external_allocator(device, allocator or None): routes the device's allocations to allocator(size)."},
    {"_managed_alloc", py_managed_alloc, METH_VARARGS, "_managed_alloc(nbytes, attach_global=True): managed memory."},
    {"_allocation_of", py_allocation_of, METH_O, "(base, size, owner, managed, whole) of a device array's memory."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_memory_manager_api(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
