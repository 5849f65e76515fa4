// Packing launch arguments into kernel-ABI slots (see launch_pack.h).
#include "python/launch_pack.h"

#include <cstring>

#include "python/array_view.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/record_dtype.h"
#include "runtime/session.h"
#include "support/half_bits.h"

namespace cuhost::python {

// --- packing ----------------------------------------------------------------------

namespace {

bool pack_error(const char* kernel, const ir::Type* t, PyObject* v) {
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "cannot pass a %s as %s to kernel '%s'", Py_TYPE(v)->tp_name, t->str().c_str(),
                 kernel);
  return false;
}

// NumPy's float32 scalar type, remembered the first time one is packed.
// PyFloat_AsDouble would convert such a scalar through a new Python float
// (its __float__); NumPy stores the value right after the object header
// (PyArrayScalar_VAL), where it is read directly.
PyTypeObject* g_numpy_float32 = nullptr;

bool is_numpy_float32(PyObject* v) {
  PyTypeObject* tp = Py_TYPE(v);
  if (tp == g_numpy_float32) return true;
  if (g_numpy_float32 || (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) ||
      tp->tp_basicsize < static_cast<Py_ssize_t>(sizeof(PyObject) + sizeof(float)) ||
      std::strcmp(tp->tp_name, "numpy.float32") != 0)
    return false;
  Py_INCREF(tp);  // kept for the process, as NumPy keeps its types
  g_numpy_float32 = tp;
  return true;
}

// A float argument's value; -1.0 with an exception set when it has none.
double float_argument(PyObject* v) {
  if (PyFloat_CheckExact(v)) return PyFloat_AS_DOUBLE(v);
  if (is_numpy_float32(v)) {
    float f;
    std::memcpy(&f, reinterpret_cast<const char*>(v) + sizeof(PyObject), sizeof f);
    return f;
  }
  return PyFloat_AsDouble(v);
}

}  // namespace

bool pack_complex(PyObject* v, const ir::Type* t, std::uint64_t*& slot) {
  Py_complex c = PyComplex_AsCComplex(v);
  if (c.real == -1.0 && PyErr_Occurred()) return false;
  slot[0] = slot[1] = 0;
  if (t->bits == 64) {
    float re = static_cast<float>(c.real), im = static_cast<float>(c.imag);
    std::memcpy(slot, &re, sizeof re);
    std::memcpy(slot + 1, &im, sizeof im);
  } else {
    std::memcpy(slot, &c.real, sizeof c.real);
    std::memcpy(slot + 1, &c.imag, sizeof c.imag);
  }
  slot += 2;
  return true;
}

bool pack_launch_argument(PyObject* v, const ir::Type* t, const ArgInfo* info, std::uint64_t*& slot, std::uint64_t* end,
                          const char* kernel) {
  using K = ir::TypeKind;
  if (t->kind == K::TypeRef) return true;  // a type argument (np.float32): compiled in, no slot
  int needed = t->kind == K::Array ? 1 + 2 * t->ndim : t->kind == K::Complex ? 2 : 1;
  if (t->kind != K::Tuple && slot + needed > end) {
    PyErr_Format(PyExc_ValueError, "too many kernel parameters for kernel '%s'", kernel);
    return false;
  }
  switch (t->kind) {
    case K::Boolean: {
      int b = PyObject_IsTrue(v);
      if (b < 0) return false;
      *slot++ = static_cast<std::uint64_t>(b);
      return true;
    }
    case K::Integer: {
      long long value = 0;
      if (PyLong_Check(v)) {
        int overflow = 0;
        value = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow) {
          unsigned long long u = PyLong_AsUnsignedLongLong(v);
          if (PyErr_Occurred()) return pack_error(kernel, t, v);
          value = static_cast<long long>(u);
        }
      } else if (PyIndex_Check(v)) {
        PyRef idx(PyNumber_Index(v));
        if (!idx) return false;
        value = PyLong_AsLongLong(idx.get());
        if (value == -1 && PyErr_Occurred()) {
          PyErr_Clear();
          value = static_cast<long long>(PyLong_AsUnsignedLongLong(idx.get()));
        }
        if (PyErr_Occurred()) return false;
      } else if (std::strcmp(Py_TYPE(v)->tp_name, "numpy.bool") == 0 ||
                 std::strcmp(Py_TYPE(v)->tp_name, "numpy.bool_") == 0) {
        int b = PyObject_IsTrue(v);  // NumPy bool_ has no __index__
        if (b < 0) return false;
        value = b;
      } else {
        // A float or complex chosen for an integer parameter (an unsafe
        // conversion numba's overload choice allows): numba-cuda's ctypes
        // packing refuses it with this TypeError.
        if (!PyErr_Occurred())
          PyErr_Format(PyExc_TypeError, "'%s' object cannot be interpreted as an integer", Py_TYPE(v)->tp_name);
        return false;
      }
      *slot = 0;
      std::memcpy(slot, &value, static_cast<size_t>(t->bits / 8));  // little-endian: the low bytes
      ++slot;
      return true;
    }
    case K::Float: {
      double d = float_argument(v);
      if (d == -1.0 && PyErr_Occurred()) return false;
      *slot = 0;
      if (t->bits == 32) {
        float f = static_cast<float>(d);
        std::memcpy(slot, &f, sizeof f);
      } else if (t->bits == 64) {
        std::memcpy(slot, &d, sizeof d);
      } else if (t->bits == 16) {
        std::uint16_t h = ir::is_bfloat16(t) ? support::double_to_bfloat16_bits(d) : support::double_to_half_bits(d);
        std::memcpy(slot, &h, sizeof h);
      } else {
        PyErr_Format(PyExc_NotImplementedError, "float%d kernel arguments are not supported", t->bits);
        return false;
      }
      ++slot;
      return true;
    }
    case K::NPDatetime:
    case K::NPTimedelta: {
      // np.datetime64 / np.timedelta64: their int64 count (NaT is INT64_MIN).
      PyRef word(PyObject_CallMethod(v, "astype", "s", "int64"));
      if (!word) return false;
      long long value = PyLong_AsLongLong(word.get());
      if (value == -1 && PyErr_Occurred()) return false;
      std::memcpy(slot, &value, sizeof value);
      ++slot;
      return true;
    }
    case K::Complex: return pack_complex(v, t, slot);
    case K::Array: {
      ArrayView local;
      const ArrayView* view =
          info && (info->kind == ArgKind::DeviceArray || info->kind == ArgKind::HostArray) ? &info->view : nullptr;
      if (!view) {
        if (device_array_view(v, &local) ||
            (!PyErr_Occurred() && runtime::session().backend == Backend::Cpu && host_array_view(v, &local))) {
          view = &local;
        } else {
          return pack_error(kernel, t, v);
        }
      }
      if (view->ndim != t->ndim) return pack_error(kernel, t, v);
      *slot++ = reinterpret_cast<std::uint64_t>(view->data);
      for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->shape[i]);
      for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->strides[i]);
      return true;
    }
    case K::CPointer: {
      if (PyLong_Check(v)) {
        unsigned long long p = PyLong_AsUnsignedLongLong(v);
        if (PyErr_Occurred()) return false;
        *slot++ = p;
        return true;
      }
      const ArrayView* view =
          info && (info->kind == ArgKind::DeviceArray || info->kind == ArgKind::HostArray) ? &info->view : nullptr;
      if (!view) return pack_error(kernel, t, v);
      *slot++ = reinterpret_cast<std::uint64_t>(view->data);
      return true;
    }
    case K::Record: {  // by reference: the record's (device copy's) address
      const ir::Type* rt = nullptr;
      void* data = nullptr;
      if (info && (info->kind == ArgKind::HostRecord || info->kind == ArgKind::DeviceArray) && info->view.dtype == t &&
          info->view.ndim == 0) {
        data = info->view.data;
      } else if (runtime::session().backend == Backend::Cpu && record_scalar(v, &rt, &data) && rt == t) {
      } else {
        return pack_error(kernel, t, v);
      }
      *slot++ = reinterpret_cast<std::uint64_t>(data);
      return true;
    }
    case K::EnumMember: {  // the member's value
      PyRef value(PyObject_GetAttrString(v, "value"));
      if (!value) return false;
      return pack_launch_argument(value.get(), t->pointee, nullptr, slot, end, kernel);
    }
    case K::Tuple: {
      if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != static_cast<Py_ssize_t>(t->elements.size()))
        return pack_error(kernel, t, v);
      for (size_t i = 0; i < t->elements.size(); ++i)
        if (!pack_launch_argument(PyTuple_GET_ITEM(v, static_cast<Py_ssize_t>(i)), t->elements[i], nullptr, slot, end,
                                  kernel))
          return false;
      return true;
    }
    default: return pack_error(kernel, t, v);
  }
}

}  // namespace cuhost::python
