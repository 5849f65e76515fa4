// The DeviceNDArray type of `_cuhost` (numba's DeviceNDArray): a strided
// view of device memory that shares ownership of its allocation with every
// other view of it. Internal to the python/ folder; the launcher sees arrays
// only through array_view.h.
#pragma once

#include <Python.h>

#include <cstdint>
#include <memory>

#include "python/array_view.h"
#include "runtime/device_memory.h"

namespace cuhost::python {

struct DeviceArrayObject {
  PyObject_HEAD std::shared_ptr<runtime::DeviceAllocation> memory;  // null for borrowed memory
  PyObject* base;          // keeps borrowed memory's owner alive (as_cuda_array), or null
  PyObject* dtype;         // numpy.dtype
  PyObject* stream;        // numba's .stream: 0 or a Stream object
  const ir::Type* scalar;  // null when the dtype has no kernel type
  // The array's kernel type, made at its first launch (shape, strides, dtype
  // and readonly never change after construction); null until then.
  const ir::Type* kernel_type;
  std::uintptr_t data;
  std::int64_t itemsize;
  int device;  // where the memory lives: the allocation's device, or a borrowed pointer's (-1: unknown)
  int ndim;
  bool readonly;
  std::int64_t shape[kMaxDims];
  std::int64_t strides[kMaxDims];
};

extern PyTypeObject DeviceArrayType;

inline bool is_device_array(PyObject* o) { return PyObject_TypeCheck(o, &DeviceArrayType); }

// The kernel type of a device array whose dtype has one (a->scalar set).
const ir::Type* device_array_type(DeviceArrayObject* a);

// numpy, imported once (borrowed, alive for the process). Null with a Python
// error when numpy is missing.
PyObject* numpy_module();
PyObject* numpy_ndarray_type();
// numpy.dtype(spec) (new reference).
PyObject* to_numpy_dtype(PyObject* spec);

// The kernel scalar type of a typestr such as "<f4" / "|b1" (null if none).
const ir::Type* scalar_of_typestr(const char* typestr);
// The kernel scalar type of a numpy dtype, and its itemsize. False with a
// Python error for dtypes that cannot live in device memory (object, ...).
bool describe_dtype(PyObject* dtype, const ir::Type** scalar, std::int64_t* itemsize);

// A new DeviceNDArray (new reference, or null with a Python error).
// Allocates: C-order (or F-order with fortran) strides unless `strides` is given.
PyObject* new_device_array(int ndim, const std::int64_t* shape, const std::int64_t* strides, PyObject* dtype,
                           bool fortran, PyObject* stream);
// A view of existing memory: shares `owner`'s allocation, or borrows `data`
// kept alive by `base` when `owner` is null.
PyObject* new_device_view(DeviceArrayObject* owner, PyObject* base, std::uintptr_t data, int ndim,
                          const std::int64_t* shape, const std::int64_t* strides, PyObject* dtype, bool readonly,
                          PyObject* stream);

// Device records (python/device_record.cpp): whether a dtype is structured,
// and the DeviceRecord wrapping a 0-d view of one element (steals `view`).
bool is_structured(PyObject* dtype);
PyObject* wrap_device_record(PyObject* view);
int add_device_record(PyObject* module);

// Element count and contiguity of a strided array (numpy's rules).
std::int64_t element_count(int ndim, const std::int64_t* shape);
bool is_c_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize);
bool is_f_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize);
void c_strides(int ndim, const std::int64_t* shape, std::int64_t itemsize, std::int64_t* strides);
void f_strides(int ndim, const std::int64_t* shape, std::int64_t itemsize, std::int64_t* strides);

// A host buffer as seen through the buffer protocol.
struct HostRegion {
  char* data = nullptr;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};
  std::int64_t itemsize = 0;
  bool readonly = false;
};
// Reads a numpy array's pointer, shape and strides (the array must stay
// alive while the region is used). False with a Python error otherwise.
bool host_region(PyObject* ndarray, HostRegion* out, bool writable);

// numba's rules for DeviceNDArray.copy_to_device / copy_to_host
// (device_array_copy_rules.cpp): contiguous cores, matching geometries.
struct ArrayGeometry {
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};
  std::int64_t itemsize = 0;
};
extern const char* const kNonContiguousCopyMessage;
ArrayGeometry geometry_of(const DeviceArrayObject* a);
ArrayGeometry geometry_of(const HostRegion& r);
// The array without its broadcast axes (stride 0: set to length 1).
ArrayGeometry array_core(const ArrayGeometry& g);
// ValueError (numba's message) unless the core is C- or F-contiguous.
bool require_contiguous_core(const ArrayGeometry& g);
// TypeError/ValueError (numba's messages) unless dtype, squeezed shape and
// (for non-empty arrays) squeezed strides agree.
bool check_array_compatibility(const ArrayGeometry& a, PyObject* a_dtype, const ArrayGeometry& b, PyObject* b_dtype);

// Strided copies between host regions and device arrays of the same shape
// (any strides on both sides; non-contiguous device views are updated
// through a staging copy of the bytes they span). `stream` 0 means the
// default launch stream; copies on it complete before returning. Throw
// UserError on driver failures.
void copy_host_to_device(const HostRegion& src, const DeviceArrayObject* dst, std::uintptr_t stream, bool synchronous);
void copy_device_to_host(const DeviceArrayObject* src, const HostRegion& dst, std::uintptr_t stream, bool synchronous);
void copy_device_to_device(const DeviceArrayObject* src, const DeviceArrayObject* dst, std::uintptr_t stream,
                           bool synchronous);

// The stream a copy goes to for a Python `stream` argument: (handle, whether
// the copy must complete before returning). 0/None mean the default launch
// stream, synchronously (numba's copies on stream 0 are synchronous).
bool copy_stream(PyObject* stream_arg, std::uintptr_t* handle, bool* synchronous);
// The same for a copy into or out of `array`: with no stream given (absent,
// None or 0), numba's default is the stream the array was made on (its
// .stream); the copy then runs there and is complete when the call returns.
bool array_copy_stream(const DeviceArrayObject* array, PyObject* stream_arg, std::uintptr_t* handle, bool* synchronous);

// Whether every byte of a host region is page-locked (cuda.pinned_array):
// copies from it may run asynchronously, and a graph may capture them.
bool host_region_page_locked(const HostRegion& region);

// Makes the copies above take their GPU paths on the CPU backend too (tests).
void force_staging_for_test(bool on);

// Indexing (device_array_index.cpp).
PyObject* device_array_subscript(PyObject* self, PyObject* key);
int device_array_ass_subscript(PyObject* self, PyObject* key, PyObject* value);
PyObject* device_array_setitem(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* device_array_reshape(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* device_array_ravel(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* device_array_transpose(PyObject* self, PyObject* args);
PyObject* device_array_view_as(PyObject* self, PyObject* dtype);
PyObject* device_array_bind(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* device_array_squeeze(PyObject* self, PyObject* args, PyObject* kwargs);
// numba's memory-object API of device arrays (device_array_pylib.cpp).
PyObject* device_array_gpu_data(PyObject* self, void*);
PyObject* device_array_ctypes_pointer(PyObject* self, void*);
PyObject* device_array_get_ipc_handle(PyObject* self, PyObject*);
PyObject* device_array_split(PyObject* self, PyObject* args, PyObject* kwargs);
// A view selected by `key` (always an array, 0-d for all-integer keys).
PyObject* device_array_view_of(DeviceArrayObject* self, PyObject* key);

// __cuda_array_interface__ parsing (device_array_interface.cpp).
struct InterfaceInfo {
  std::uintptr_t data = 0;
  bool readonly = false;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};
  std::int64_t itemsize = 0;
  const ir::Type* scalar = nullptr;
  PyObject* typestr = nullptr;  // borrowed from the dict
  std::uintptr_t stream = 0;
};
// False with a Python error (TypeError/ValueError naming the field) when the
// dict is malformed.
bool parse_array_interface(PyObject* dict, InterfaceInfo* out);

// A DLPack "dltensor" capsule (device_array_dlpack.cpp). False with a Python
// error for other objects or unusable tensors.
bool dlpack_array_view(PyObject* capsule, ArrayView* out);

// Module parts.
int add_device_arrays(PyObject* module);
int add_array_functions(PyObject* module);
int add_streams(PyObject* module);
int add_events(PyObject* module);
int add_devices(PyObject* module);
int add_host_buffers(PyObject* module);
int add_memory_manager_api(PyObject* module);
int add_raw_copies(PyObject* module);

}  // namespace cuhost::python
