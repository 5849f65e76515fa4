// Memory the host side provides: cuda.host_array(name) wraps a device buffer
// the host application lent (Runtime::register_buffer) as a DeviceNDArray
// without copying, and `_pinned_buffer(nbytes)` is the page-locked backing
// store of cuda.pinned_array (cuMemAllocHost on CUDA, aligned host memory on
// the CPU), exposed through the buffer protocol so NumPy can wrap it.
#include <memory>
#include <string>

#include "python/device_array.h"
#include "python/py_api.h"
#include "python/type_object.h"
#include "runtime/device_memory.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

struct PinnedBufferObject {
  PyObject_HEAD std::shared_ptr<runtime::PinnedAllocation> memory;
};

int pinned_getbuffer(PyObject* o, Py_buffer* view, int flags) {
  auto* self = reinterpret_cast<PinnedBufferObject*>(o);
  return PyBuffer_FillInfo(view, o, self->memory->data(), static_cast<Py_ssize_t>(self->memory->size()), 0, flags);
}

void pinned_dealloc(PyObject* o) {
  reinterpret_cast<PinnedBufferObject*>(o)->memory.~shared_ptr();
  Py_TYPE(o)->tp_free(o);
}

PyBufferProcs g_pinned_buffer = {pinned_getbuffer, nullptr};

PyTypeObject PinnedBufferType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.PinnedBuffer";
  t.tp_basicsize = sizeof(PinnedBufferObject);
  t.tp_dealloc = pinned_dealloc;
  t.tp_as_buffer = &g_pinned_buffer;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "Page-locked host memory (freed when the last array using it dies).";
  return t;
}();

PyObject* py_pinned_buffer(PyObject*, PyObject* arg) {
  Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
  if (n == -1 && PyErr_Occurred()) return nullptr;
  if (n < 0) {
    PyErr_SetString(PyExc_ValueError, "_pinned_buffer: negative size");
    return nullptr;
  }
  PyRef owner(PinnedBufferType.tp_alloc(&PinnedBufferType, 0));
  if (!owner) return nullptr;
  auto* self = reinterpret_cast<PinnedBufferObject*>(owner.get());
  new (&self->memory) std::shared_ptr<runtime::PinnedAllocation>();
  return guarded<PyObject*>(nullptr, [&] {  // on failure `owner` drops the empty buffer
    self->memory = runtime::PinnedAllocation::allocate(static_cast<std::size_t>(n));
    return owner.release();
  });
}

// MemAlloc: the base of numba's host-addressable memory objects (PinnedMemory,
// MappedMemory, ManagedMemory, written in Python): the buffer protocol over
// the instance's `_bufptr_` (address) and `_buflen_` (bytes) attributes, so
// np.ndarray(buffer=mem) views the memory in place.
int memalloc_getbuffer(PyObject* o, Py_buffer* view, int flags) {
  PyRef ptr(PyObject_GetAttrString(o, "_bufptr_"));
  PyRef len(ptr ? PyObject_GetAttrString(o, "_buflen_") : nullptr);
  if (!ptr || !len) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%s' (it is not host-addressable memory)",
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  void* address = PyLong_AsVoidPtr(ptr.get());
  Py_ssize_t n = PyLong_AsSsize_t(len.get());
  if (PyErr_Occurred()) return -1;
  return PyBuffer_FillInfo(view, o, address, n, 0, flags);
}

PyBufferProcs g_memalloc_buffer = {memalloc_getbuffer, nullptr};

PyTypeObject MemAllocType = [] {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.MemAlloc";
  t.tp_basicsize = sizeof(PyObject);
  t.tp_as_buffer = &g_memalloc_buffer;
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_new = PyType_GenericNew;
  t.tp_doc = "Base of memory objects the host can address (buffer protocol over _bufptr_ and _buflen_).";
  return t;
}();

PyObject* py_host_array(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "host_array(name): name must be a str, not %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  std::string name = PyUnicode_AsUTF8(arg);
  HostBuffer buffer;
  bool found = false;
  std::string available;
  {
    runtime::Session& s = runtime::session();
    std::lock_guard<std::mutex> lock(s.mutex);
    for (const auto& b : s.buffers) {
      if (b.name == name) {
        buffer = b;
        found = true;
      }
      available += (available.empty() ? "'" : ", '") + b.name + "'";
    }
  }
  if (!found) {
    std::string message = "no host array named '" + name + "'; the host registered " +
                          (available.empty() ? std::string("none (see Runtime::register_buffer)") : available);
    if (PyRef text{PyUnicode_FromString(message.c_str())}) PyErr_SetObject(PyExc_KeyError, text.get());
    return nullptr;
  }
  if (buffer.shape.size() > static_cast<size_t>(kMaxDims)) {
    PyErr_Format(PyExc_ValueError, "host array '%s' has more than %d dimensions", name.c_str(), kMaxDims);
    return nullptr;
  }
  PyRef spec(PyUnicode_FromString(buffer.dtype.c_str()));
  PyRef dtype(spec ? to_numpy_dtype(spec.get()) : nullptr);
  if (!dtype) return nullptr;
  PyRef size(PyObject_GetAttrString(dtype.get(), "itemsize"));
  std::int64_t itemsize = size ? PyLong_AsLongLong(size.get()) : 0;
  int ndim = static_cast<int>(buffer.shape.size());
  std::int64_t strides[kMaxDims];
  c_strides(ndim, buffer.shape.data(), itemsize, strides);
  PyObject* r = PyErr_Occurred() ? nullptr
                                 : new_device_view(nullptr, nullptr, buffer.device_pointer, ndim, buffer.shape.data(),
                                                   strides, dtype.get(), false, nullptr);
  if (r && runtime::session().backend == Backend::Cuda && buffer.device >= 0)
    reinterpret_cast<DeviceArrayObject*>(r)->device = buffer.device;  // on the device the host lent it from
  return r;
}

PyObject* py_host_array_names(PyObject*, PyObject*) {
  runtime::Session& s = runtime::session();
  std::lock_guard<std::mutex> lock(s.mutex);
  PyRef list(PyList_New(0));
  if (!list) return nullptr;
  for (const auto& b : s.buffers)
    if (!list_append_new(list.get(), PyUnicode_FromString(b.name.c_str()))) return nullptr;
  return list.release();
}

PyMethodDef g_functions[] = {
    {"_pinned_buffer", py_pinned_buffer, METH_O, "Page-locked host memory of n bytes (buffer protocol)."},
    {"host_array", py_host_array, METH_O, "The device buffer the host lent under `name`, as a DeviceNDArray."},
    {"host_array_names", py_host_array_names, METH_NOARGS, "Names of the buffers the host lent."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_host_buffers(PyObject* module) {
  if (PyType_Ready(&PinnedBufferType) < 0 || PyType_Ready(&MemAllocType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "MemAlloc", reinterpret_cast<PyObject*>(&MemAllocType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_functions);
}

}  // namespace cuhost::python
