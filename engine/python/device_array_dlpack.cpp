// DLPack capsules as kernel arguments (zero-copy): a PyCapsule named
// "dltensor" holding a DLManagedTensor. The structs below follow the DLPack
// ABI (dlpack.h, v0.x "unversioned" layout, the one __dlpack__() returns by
// default). The capsule is only read: it is not renamed "used_dltensor", so
// its producer still owns and frees the tensor.
#include <cstring>

#include "python/device_array.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

enum DeviceKind : std::int32_t { kCpu = 1, kCuda = 2, kCudaHost = 3, kCudaManaged = 13 };
enum CodeKind : std::uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4, kComplex = 5, kBool = 6 };

struct DlDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DlDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DlTensor {
  void* data;
  DlDevice device;
  std::int32_t ndim;
  DlDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};
struct DlManagedTensor {
  DlTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DlManagedTensor*);
};

const ir::Type* scalar_of(const DlDataType& t) {
  if (t.lanes != 1) return nullptr;
  switch (t.code) {
    case kBool: return t.bits == 8 ? ir::boolean() : nullptr;
    case kInt:
      return (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64) ? ir::integer(t.bits, true) : nullptr;
    case kUInt:
      return (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64) ? ir::integer(t.bits, false) : nullptr;
    case kFloat:
      return t.bits == 16 ? ir::float16() : t.bits == 32 ? ir::float32() : t.bits == 64 ? ir::float64() : nullptr;
    case kBfloat: return t.bits == 16 ? ir::bfloat16() : nullptr;
    case kComplex: return t.bits == 64 ? ir::complex64() : t.bits == 128 ? ir::complex128() : nullptr;
    default: return nullptr;
  }
}

}  // namespace

bool dlpack_array_view(PyObject* capsule, ArrayView* out) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) {
    if (PyCapsule_CheckExact(capsule) && PyCapsule_IsValid(capsule, "used_dltensor"))
      PyErr_SetString(PyExc_ValueError, "this DLPack capsule was already consumed");
    else
      PyErr_SetString(PyExc_TypeError, "not a DLPack capsule (expected a PyCapsule named 'dltensor')");
    return false;
  }
  auto* managed = static_cast<DlManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!managed) return false;
  const DlTensor& t = managed->dl_tensor;
  bool cuda_backend = runtime::session().backend == Backend::Cuda;
  bool usable =
      cuda_backend
          ? (t.device.device_type == kCuda || t.device.device_type == kCudaManaged || t.device.device_type == kCudaHost)
          : (t.device.device_type == kCpu || t.device.device_type == kCudaHost || t.device.device_type == kCudaManaged);
  if (!usable) {
    PyErr_Format(PyExc_TypeError, "DLPack tensor on device type %d cannot be used by the %s backend",
                 static_cast<int>(t.device.device_type), cuda_backend ? "CUDA" : "CPU");
    return false;
  }
  if (t.ndim < 0 || t.ndim > kMaxDims) {
    PyErr_Format(PyExc_ValueError, "DLPack tensor has %d dimensions; at most %d are supported", t.ndim, kMaxDims);
    return false;
  }
  const ir::Type* scalar = scalar_of(t.dtype);
  if (!scalar) {
    PyErr_Format(PyExc_TypeError, "DLPack dtype (code %d, %d bits, %d lanes) cannot be passed to kernels",
                 static_cast<int>(t.dtype.code), static_cast<int>(t.dtype.bits), static_cast<int>(t.dtype.lanes));
    return false;
  }
  std::int64_t itemsize = t.dtype.bits / 8;
  out->data = static_cast<char*>(t.data) + t.byte_offset;
  out->ndim = t.ndim;
  for (int i = 0; i < t.ndim; ++i) out->shape[i] = t.shape[i];
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) out->strides[i] = t.strides[i] * itemsize;
  } else {
    c_strides(t.ndim, out->shape, itemsize, out->strides);
  }
  out->dtype = scalar;
  out->readonly = false;
  out->layout = layout_of(t.ndim, out->shape, out->strides, static_cast<int>(itemsize));
  return true;
}

}  // namespace cuhost::python
