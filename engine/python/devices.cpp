// Device queries behind cuda.gpus, get_current_device, select_device,
// current_context().get_memory_info(), can_access_peer and close(). The
// Device objects themselves are Python (pylib/cuda/api.py); this file
// answers them. The current device is per thread (runtime/devices.h). On the
// CPU backend there is one device, the CPU itself (cpu/device_properties.h):
// ordinal 0, compute capability 9.0, host memory.
#include <algorithm>
#include <cstring>
#include <string>

#include "cpu/device_properties.h"
#include "cuda/context.h"
#include "cuda/driver.h"
#include "cuda/memory.h"
#include "cuda/module.h"
#include "cuda/stream.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/session.h"
#include "support/memory_quota.h"

namespace cuhost::python {

namespace {

bool cpu() { return runtime::session().backend != Backend::Cuda; }

std::string no_device_message() {
  const runtime::Session& s = runtime::session();
  std::string reason = s.fallback_reason;
  if (reason.empty()) {
    const cuda::DriverStatus& status = cuda::driver_status();
    reason = status.available ? "the CPU backend was selected" : status.reason;
  }
  return "no CUDA device: kernels run on the CPU backend (" + reason + ")";
}

struct AttributeName {
  const char* name;
  CUdevice_attribute attribute;
};

#define CUHOST_ATTR(n) \
  { #n, CU_DEVICE_ATTRIBUTE_##n }
const AttributeName g_attributes[] = {CUHOST_ATTR(MAX_THREADS_PER_BLOCK),
                                      CUHOST_ATTR(MAX_BLOCK_DIM_X),
                                      CUHOST_ATTR(MAX_BLOCK_DIM_Y),
                                      CUHOST_ATTR(MAX_BLOCK_DIM_Z),
                                      CUHOST_ATTR(MAX_GRID_DIM_X),
                                      CUHOST_ATTR(MAX_GRID_DIM_Y),
                                      CUHOST_ATTR(MAX_GRID_DIM_Z),
                                      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_BLOCK),
                                      CUHOST_ATTR(TOTAL_CONSTANT_MEMORY),
                                      CUHOST_ATTR(WARP_SIZE),
                                      CUHOST_ATTR(MAX_PITCH),
                                      CUHOST_ATTR(MAX_REGISTERS_PER_BLOCK),
                                      CUHOST_ATTR(CLOCK_RATE),
                                      CUHOST_ATTR(TEXTURE_ALIGNMENT),
                                      CUHOST_ATTR(MULTIPROCESSOR_COUNT),
                                      CUHOST_ATTR(KERNEL_EXEC_TIMEOUT),
                                      CUHOST_ATTR(INTEGRATED),
                                      CUHOST_ATTR(CAN_MAP_HOST_MEMORY),
                                      CUHOST_ATTR(COMPUTE_MODE),
                                      CUHOST_ATTR(CONCURRENT_KERNELS),
                                      CUHOST_ATTR(ECC_ENABLED),
                                      CUHOST_ATTR(PCI_BUS_ID),
                                      CUHOST_ATTR(PCI_DEVICE_ID),
                                      CUHOST_ATTR(PCI_DOMAIN_ID),
                                      CUHOST_ATTR(MEMORY_CLOCK_RATE),
                                      CUHOST_ATTR(GLOBAL_MEMORY_BUS_WIDTH),
                                      CUHOST_ATTR(L2_CACHE_SIZE),
                                      CUHOST_ATTR(MAX_THREADS_PER_MULTIPROCESSOR),
                                      CUHOST_ATTR(ASYNC_ENGINE_COUNT),
                                      CUHOST_ATTR(UNIFIED_ADDRESSING),
                                      CUHOST_ATTR(COMPUTE_CAPABILITY_MAJOR),
                                      CUHOST_ATTR(COMPUTE_CAPABILITY_MINOR),
                                      CUHOST_ATTR(STREAM_PRIORITIES_SUPPORTED),
                                      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
                                      CUHOST_ATTR(MAX_REGISTERS_PER_MULTIPROCESSOR),
                                      CUHOST_ATTR(MANAGED_MEMORY),
                                      CUHOST_ATTR(MULTI_GPU_BOARD),
                                      CUHOST_ATTR(CONCURRENT_MANAGED_ACCESS),
                                      CUHOST_ATTR(PAGEABLE_MEMORY_ACCESS),
                                      CUHOST_ATTR(COOPERATIVE_LAUNCH),
                                      CUHOST_ATTR(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
                                      CUHOST_ATTR(MAX_BLOCKS_PER_MULTIPROCESSOR),
                                      CUHOST_ATTR(MEMORY_POOLS_SUPPORTED),
                                      CUHOST_ATTR(CLUSTER_LAUNCH)};
#undef CUHOST_ATTR

PyObject* py_device_count(PyObject*, PyObject*) {
  if (cpu()) return PyLong_FromLong(1);
  return PyLong_FromLong(cuda::driver_status().device_count);
}

PyObject* py_no_device_message(PyObject*, PyObject*) { return PyUnicode_FromString(no_device_message().c_str()); }

bool valid_ordinal(int ordinal) {
  if (cpu()) {
    if (ordinal == 0) return true;
    PyErr_Format(exception_class(ErrorKind::CudaSupportError),
                 "no device %d: the CPU backend has one device, 0 (the CPU)", ordinal);
    return false;
  }
  int count = runtime::device_count();
  if (runtime::valid_device(ordinal)) return true;
  PyErr_Format(exception_class(ErrorKind::CudaSupportError), "no CUDA device %d (%d device(s) found)", ordinal, count);
  return false;
}

// _device_attribute(ordinal, NAME) -> int; AttributeError for unknown names.
PyObject* py_device_attribute(PyObject*, PyObject* args) {
  int ordinal;
  const char* name;
  if (!PyArg_ParseTuple(args, "is:_device_attribute", &ordinal, &name)) return nullptr;
  const AttributeName* found = nullptr;
  for (const auto& a : g_attributes)
    if (!std::strcmp(a.name, name)) found = &a;
  if (!found) {
    PyErr_Format(PyExc_AttributeError, "'Device' object has no attribute '%s'", name);
    return nullptr;
  }
  if (!valid_ordinal(ordinal)) return nullptr;
  if (cpu()) {
    long value = 0;
    if (cpu::device_attribute(name, &value)) return PyLong_FromLong(value);
    PyErr_Format(exception_class(ErrorKind::CudaSupportError), "the CPU device has no value for %s", name);
    return nullptr;
  }
  return guarded<PyObject*>(
      nullptr, [&]() -> PyObject* { return PyLong_FromLong(cuda::device_attribute(ordinal, found->attribute)); });
}

PyObject* py_device_attribute_names(PyObject*, PyObject*) {
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& a : g_attributes)
    if (!list_append_new(list.get(), PyUnicode_FromString(a.name))) return nullptr;
  return list.release();
}

// _device_name(ordinal) -> str (as numba-cuda's Device.name).
PyObject* py_device_name(PyObject*, PyObject* arg) {
  int ordinal = static_cast<int>(PyLong_AsLong(arg));
  if (PyErr_Occurred()) return nullptr;
  if (!valid_ordinal(ordinal)) return nullptr;
  if (cpu()) return PyUnicode_FromString(cpu::device_name().c_str());
  return guarded<PyObject*>(nullptr,
                            [&]() -> PyObject* { return PyUnicode_FromString(cuda::device_name(ordinal).c_str()); });
}

PyObject* py_current_device_id(PyObject*, PyObject*) {
  if (cpu()) return PyLong_FromLong(0);
  return PyLong_FromLong(runtime::current_device());
}

// _select_device(ordinal): makes the device current for the calling thread.
PyObject* py_select_device(PyObject*, PyObject* arg) {
  int ordinal = static_cast<int>(PyLong_AsLong(arg));
  if (PyErr_Occurred()) return nullptr;
  if (!valid_ordinal(ordinal)) return nullptr;
  if (cpu()) return PyLong_FromLong(0);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::select_device(ordinal);
    return PyLong_FromLong(ordinal);
  });
}

// _can_access_peer(device, peer): whether kernels on `device` can use the
// memory of `peer` (False on the CPU backend, which has one device).
PyObject* py_can_access_peer(PyObject*, PyObject* args) {
  int device, peer;
  if (!PyArg_ParseTuple(args, "ii:_can_access_peer", &device, &peer)) return nullptr;
  if (!valid_ordinal(device) || !valid_ordinal(peer)) return nullptr;
  if (cpu()) Py_RETURN_FALSE;
  return guarded<PyObject*>(nullptr,
                            [&]() -> PyObject* { return PyBool_FromLong(cuda::can_access_peer(device, peer)); });
}

// _close(): waits for every device cuhost used, unloads every kernel module
// (their teardown callbacks run) and drops the calling thread's device
// choice, as numba-cuda's close() drops the thread's context.
PyObject* py_close(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (!cpu()) {
      for (int device : runtime::devices_in_use()) {
        runtime::DeviceScope scope(device);
        runtime::make_device_current(device);
        without_gil([&] { cuda::synchronize_context(); });
      }
      cuda::unload_all_modules();
    }
    runtime::forget_selected_device();
    if (!cpu()) runtime::make_context_current();
    Py_RETURN_NONE;
  });
}

// Under a memory quota (support/memory_quota.h) the device looks as large as
// the quota, so scripts that size their work by it stay within it.
PyObject* memory_info_value(std::size_t free_bytes, std::size_t total) {
  if (std::size_t quota = support::memory_quota()) {
    const std::size_t used = support::memory_quota_in_use();
    total = std::min(total, quota);
    free_bytes = std::min(free_bytes, used < quota ? quota - used : 0);
  }
  return Py_BuildValue("(nn)", static_cast<Py_ssize_t>(free_bytes), static_cast<Py_ssize_t>(total));
}

PyObject* py_memory_info(PyObject*, PyObject*) {
  if (cpu()) {
    std::size_t free_bytes = 0;
    std::size_t total = 0;
    cpu::memory_info(&free_bytes, &total);
    return memory_info_value(free_bytes, total);
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    runtime::make_context_current();
    std::size_t free_bytes = 0;
    std::size_t total = 0;
    cuda::memory_info(&free_bytes, &total);
    return memory_info_value(free_bytes, total);
  });
}

PyMethodDef g_functions[] = {
    {"_device_count", py_device_count, METH_NOARGS, "Number of devices (1, the CPU, on the CPU backend)."},
    {"_no_device_message", py_no_device_message, METH_NOARGS, "Why there is no CUDA device."},
    {"_device_attribute", py_device_attribute, METH_VARARGS, "_device_attribute(ordinal, NAME)."},
    {"_device_attribute_names", py_device_attribute_names, METH_NOARGS, "Attribute names Device objects answer."},
    {"_device_name", py_device_name, METH_O, "The device's name."},
    {"_current_device_id", py_current_device_id, METH_NOARGS, "Ordinal of the device in use."},
    {"_select_device", py_select_device, METH_O, "Makes a device current for the calling thread."},
    {"_can_access_peer", py_can_access_peer, METH_VARARGS, "Whether kernels on a device can use a peer's memory."},
    {"_close", py_close, METH_NOARGS, "Waits for every device, unloads kernel modules, forgets the thread's device."},
    {"_memory_info", py_memory_info, METH_NOARGS, "(free, total) bytes of the current device."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_devices(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
