// Values in and out of host calls (host_values.h): typeof for the CPU
// target, packing into the slots of codegen/host_entry.h, boxing results,
// and raising reported errors with numba's classes.
#include "python/host_values.h"

#include <cstring>
#include <string>

#include "codegen/host_entry.h"
#include "frontend/capture.h"
#include "ir/records.h"
#include "python/array_view.h"
#include "python/device_array.h"
#include "python/errors.h"
#include "python/kernel_error_raise.h"
#include "python/launch_pack.h"
#include "python/python_hooks.h"
#include "python/record_dtype.h"
#include "support/half_bits.h"

namespace cuhost::python {
namespace {

struct Ref {
  PyObject* p = nullptr;
  explicit Ref(PyObject* o = nullptr) : p(o) {}
  ~Ref() { Py_XDECREF(p); }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  PyObject* release() {
    PyObject* o = p;
    p = nullptr;
    return o;
  }
};

PyObject* numpy() {
  static PyObject* np = nullptr;
  if (!np) np = PyImport_ImportModule("numpy");  // kept for the process
  return np;
}

// Values numba passes that cuhost's host calls cannot (str, containers...).
const char* unsupported_kind(PyObject* v) {
  if (PyUnicode_Check(v)) return "str";
  if (PyBytes_Check(v) || PyByteArray_Check(v)) return "bytes";
  if (PyList_Check(v)) return "list";
  if (PyDict_Check(v)) return "dict";
  if (PySet_Check(v) || PyFrozenSet_Check(v)) return "set";
  if (PyFunction_Check(v)) return "function";
  return nullptr;
}

const ir::Type* typeof_value(PyObject* v, Py_ssize_t index, const char* function, ArgInfo* info) {
  if (v == Py_None) {
    if (info) info->kind = ArgKind::Scalar;
    return ir::none_type();
  }
  if (PyTuple_Check(v)) {
    // Elements may be None or anything else a host call takes.
    std::vector<const ir::Type*> elements;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i) {
      const ir::Type* e = typeof_value(PyTuple_GET_ITEM(v, i), index, function, nullptr);
      if (!e) return nullptr;
      elements.push_back(e);
    }
    if (info) info->kind = ArgKind::Tuple;
    return ir::tuple(elements);
  }
  ArgInfo local;
  ArgInfo* use = info ? info : &local;
  const ir::Type* t = typeof_arg(v, use);
  if (PyErr_Occurred()) return nullptr;
  if (t && use->kind == ArgKind::DeviceArray) {
    PyErr_Format(PyExc_TypeError,
                 "argument %zd of '%s' is a device array (%s): numba.njit functions run on the host; copy it to "
                 "the host first (copy_to_host())",
                 index, function, Py_TYPE(v)->tp_name);
    return nullptr;
  }
  if (t) return t;
  if (const char* kind = unsupported_kind(v)) {
    PyErr_Format(PyExc_NotImplementedError,
                 "argument %zd of '%s' is a %s: numba.njit functions called on the host take numbers, booleans, "
                 "None, NumPy arrays and records, and tuples of those",
                 index, function, kind);
    return nullptr;
  }
  PyObject* cls = reinterpret_cast<PyObject*>(Py_TYPE(v));
  PyErr_Format(exception_class(ErrorKind::TypingError), "cannot determine Numba type of %R (argument %zd of '%s')", cls,
               index, function);
  return nullptr;
}

bool pack_error(PyObject* v, const ir::Type* t, const char* function) {
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "cannot pass a %s as %s to '%s'", Py_TYPE(v)->tp_name, t->str().c_str(), function);
  return false;
}

// An integer value of `v` as numba's unboxing takes it (int(), truncating floats).
bool integer_of(PyObject* v, long long* out) {
  if (PyLong_Check(v)) {
    int overflow = 0;
    *out = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow) {
      unsigned long long u = PyLong_AsUnsignedLongLong(v);
      if (PyErr_Occurred()) return false;
      *out = static_cast<long long>(u);
    }
    return true;
  }
  Ref number(PyIndex_Check(v) ? PyNumber_Index(v) : PyNumber_Long(v));
  if (!number.p) return false;
  return integer_of(number.p, out);
}

bool pack_array(PyObject* v, const ir::Type* t, const ArgInfo* info, std::uint64_t*& slot, const char* function) {
  ArrayView local;
  const ArrayView* view = info && info->kind == ArgKind::HostArray ? &info->view : nullptr;
  if (!view) {
    if (!host_array_view(v, &local)) return pack_error(v, t, function);
    view = &local;
  }
  if (view->ndim != t->ndim || view->dtype != t->dtype) return pack_error(v, t, function);
  *slot++ = reinterpret_cast<std::uint64_t>(view->data);
  for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->shape[i]);
  for (int i = 0; i < view->ndim; ++i) *slot++ = static_cast<std::uint64_t>(view->strides[i]);
  return true;
}

// --- results ------------------------------------------------------------------------

PyObject* dtype_of(const ir::Type* t) {
  PyObject* np = numpy();
  if (!np) return nullptr;
  if (t->kind == ir::TypeKind::Record) {
    const ir::RecordLayout& layout = ir::record_layout(t);
    Ref names(PyList_New(0)), formats(PyList_New(0)), offsets(PyList_New(0));
    if (!names.p || !formats.p || !offsets.p) return nullptr;
    for (const ir::RecordField& f : layout.fields) {
      Ref name(PyUnicode_FromString(f.name.c_str())), format(dtype_of(f.type)), offset(PyLong_FromLongLong(f.offset));
      if (!name.p || !format.p || !offset.p || PyList_Append(names.p, name.p) < 0 ||
          PyList_Append(formats.p, format.p) < 0 || PyList_Append(offsets.p, offset.p) < 0)
        return nullptr;
    }
    Ref spec(Py_BuildValue("{s:O,s:O,s:O,s:L}", "names", names.p, "formats", formats.p, "offsets", offsets.p,
                           "itemsize", static_cast<long long>(layout.size)));
    if (!spec.p) return nullptr;
    return PyObject_CallMethod(np, "dtype", "OO", spec.p, layout.aligned ? Py_True : Py_False);
  }
  if (t->kind == ir::TypeKind::NestedArray) {
    Ref element(dtype_of(t->dtype));
    Ref shape(PyTuple_New(static_cast<Py_ssize_t>(ir::nested_shape(t).size())));
    if (!element.p || !shape.p) return nullptr;
    Py_ssize_t i = 0;
    for (std::int64_t n : ir::nested_shape(t)) PyTuple_SET_ITEM(shape.p, i++, PyLong_FromLongLong(n));
    Ref spec(PyTuple_Pack(2, element.p, shape.p));
    return spec.p ? PyObject_CallMethod(np, "dtype", "O", spec.p) : nullptr;
  }
  return PyObject_CallMethod(np, "dtype", "s", ir::numpy_name(t).c_str());
}

// A record result: a copy of its bytes as a NumPy record scalar (numba's boxing).
PyObject* box_record(const ir::Type* t, const void* data) {
  Ref dtype(dtype_of(t));
  if (!dtype.p) return nullptr;
  Ref empty_shape(PyTuple_New(0));
  Ref array(empty_shape.p ? PyObject_CallMethod(numpy(), "empty", "OO", empty_shape.p, dtype.p) : nullptr);
  if (!array.p) return nullptr;
  Py_buffer buffer;
  if (PyObject_GetBuffer(array.p, &buffer, PyBUF_WRITABLE) < 0) return nullptr;
  std::memcpy(buffer.buf, data, static_cast<size_t>(buffer.len));
  PyBuffer_Release(&buffer);
  return PyObject_GetItem(array.p, empty_shape.p);
}

bool contains(const ArrayView& v, std::uintptr_t address) {
  std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(v.data), hi = lo;
  std::int64_t itemsize = v.dtype ? v.dtype->byte_size() : 1;
  for (int i = 0; i < v.ndim; ++i) {
    if (v.shape[i] == 0) return false;
    std::int64_t span = (v.shape[i] - 1) * v.strides[i];
    if (span < 0)
      lo += static_cast<std::uintptr_t>(span);
    else
      hi += static_cast<std::uintptr_t>(span);
  }
  return address >= lo && address < hi + static_cast<std::uintptr_t>(itemsize);
}

// An array result: a NumPy view of the argument array its memory lies in.
PyObject* box_array(const ir::Type* t, const std::uint64_t* s, const HostCallArgs& args, const char* function) {
  auto address = static_cast<std::uintptr_t>(s[0]);
  for (Py_ssize_t i = 0; i < args.count; ++i) {
    const ArgInfo& info = args.infos[i];
    if (info.kind != ArgKind::HostArray || !contains(info.view, address)) continue;
    Ref shape(PyTuple_New(t->ndim)), strides(PyTuple_New(t->ndim));
    if (!shape.p || !strides.p) return nullptr;
    for (int d = 0; d < t->ndim; ++d) {
      PyTuple_SET_ITEM(shape.p, d, PyLong_FromLongLong(static_cast<long long>(s[1 + d])));
      PyTuple_SET_ITEM(strides.p, d, PyLong_FromLongLong(static_cast<long long>(s[1 + t->ndim + d])));
    }
    // The host_array_view hook (numba/core/_host_values.py).
    return call_hook(Hook::HostArrayView,
                     PyRef(Py_BuildValue("(OKOOO)", args.values[i], static_cast<unsigned long long>(address), shape.p,
                                         strides.p, t->readonly ? Py_True : Py_False)))
        .release();
  }
  PyErr_Format(PyExc_NotImplementedError,
               "'%s' returns an array that is not a view of one of its array arguments: numba.njit functions called "
               "on the host cannot return arrays they allocate",
               function);
  return nullptr;
}

}  // namespace

const ir::Type* host_typeof(PyObject* value, ArgInfo* info, Py_ssize_t index, const char* function) {
  return typeof_value(value, index, function, info);
}

bool pack_host_value(PyObject* v, const ir::Type* t, const ArgInfo* info, std::uint64_t*& slot, const char* function) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::NoneType: return v == Py_None || pack_error(v, t, function);
    case K::Boolean: {
      int b = PyObject_IsTrue(v);
      if (b < 0) return false;
      *slot++ = static_cast<std::uint64_t>(b);
      return true;
    }
    case K::Integer: {
      long long value = 0;
      if (PyComplex_Check(v) || !integer_of(v, &value)) return pack_error(v, t, function);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &value, static_cast<size_t>(t->bits / 8));  // little-endian: the low bytes
      *slot++ = bits;
      return true;
    }
    case K::Float: {
      double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) return false;
      std::uint64_t bits = 0;
      if (t->bits == 32) {
        float f = static_cast<float>(d);
        std::memcpy(&bits, &f, sizeof f);
      } else if (t->bits == 64) {
        std::memcpy(&bits, &d, sizeof d);
      } else if (t->bits == 16 && !ir::is_storage_float(t)) {
        bits = ir::is_bfloat16(t) ? support::double_to_bfloat16_bits(d) : support::double_to_half_bits(d);
      } else {
        PyErr_Format(PyExc_NotImplementedError, "%s arguments cannot be passed to '%s' from the host", t->str().c_str(),
                     function);
        return false;
      }
      *slot++ = bits;
      return true;
    }
    case K::Complex: return pack_complex(v, t, slot);
    case K::Array: return pack_array(v, t, info, slot, function);
    case K::Record: {
      const ir::Type* rt = nullptr;
      void* data = nullptr;
      if (info && info->kind == ArgKind::HostRecord && info->view.dtype == t) {
        data = info->view.data;
      } else if (!record_scalar(v, &rt, &data) || rt != t) {
        return pack_error(v, t, function);
      }
      *slot++ = reinterpret_cast<std::uint64_t>(data);  // by reference, as numba passes records
      return true;
    }
    case K::CPointer: {
      long long address = 0;
      if (!PyLong_Check(v) || !integer_of(v, &address)) return pack_error(v, t, function);
      *slot++ = static_cast<std::uint64_t>(address);
      return true;
    }
    case K::EnumMember: {  // its value
      Ref value(PyObject_GetAttrString(v, "value"));
      if (!value.p) return false;
      return pack_host_value(value.p, t->pointee, nullptr, slot, function);
    }
    case K::Tuple: {
      if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != static_cast<Py_ssize_t>(t->elements.size()))
        return pack_error(v, t, function);
      for (size_t i = 0; i < t->elements.size(); ++i)
        if (!pack_host_value(PyTuple_GET_ITEM(v, static_cast<Py_ssize_t>(i)), t->elements[i], nullptr, slot, function))
          return false;
      return true;
    }
    default: return pack_error(v, t, function);
  }
}

PyObject* box_host_result(const ir::Type* t, const std::uint64_t*& slot, const HostCallArgs& args,
                          const char* function) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::NoneType:
    case K::Void: Py_RETURN_NONE;
    case K::Boolean: return PyBool_FromLong((*slot++ & 0xff) != 0);
    case K::Integer: {
      std::uint64_t bits = *slot++;
      if (t->bits < 64) bits &= (std::uint64_t(1) << t->bits) - 1;
      if (!t->is_signed) return PyLong_FromUnsignedLongLong(bits);
      if (t->bits < 64 && (bits >> (t->bits - 1)) & 1) bits |= ~std::uint64_t(0) << t->bits;  // sign-extend
      return PyLong_FromLongLong(static_cast<long long>(bits));
    }
    case K::Float: {
      std::uint64_t bits = *slot++;
      if (t->bits == 64) {
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return PyFloat_FromDouble(d);
      }
      if (t->bits == 32) {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return PyFloat_FromDouble(f);
      }
      if (t->bits == 16 && ir::is_bfloat16(t)) {  // the high half of a float32
        std::uint32_t f32 = static_cast<std::uint32_t>(bits & 0xffff) << 16;
        float f;
        std::memcpy(&f, &f32, sizeof f);
        return PyFloat_FromDouble(f);
      }
      if (t->bits == 16 && !ir::is_storage_float(t)) {
        std::uint16_t h = static_cast<std::uint16_t>(bits & 0xffff);
#if PY_VERSION_HEX >= 0x030B0000
        return PyFloat_FromDouble(PyFloat_Unpack2(reinterpret_cast<const char*>(&h), 1));
#else  // Python 3.10 names it _PyFloat_Unpack2
        return PyFloat_FromDouble(_PyFloat_Unpack2(reinterpret_cast<const unsigned char*>(&h), 1));
#endif
      }
      PyErr_Format(PyExc_NotImplementedError, "'%s' returns %s, which cannot be boxed", function, t->str().c_str());
      return nullptr;
    }
    case K::Complex: {
      Py_complex c;
      if (t->bits == 64) {
        float re, im;
        std::memcpy(&re, slot, sizeof re);
        std::memcpy(&im, slot + 1, sizeof im);
        c.real = re;
        c.imag = im;
      } else {
        std::memcpy(&c.real, slot, sizeof c.real);
        std::memcpy(&c.imag, slot + 1, sizeof c.imag);
      }
      slot += 2;
      return PyComplex_FromCComplex(c);
    }
    case K::Tuple: {
      Ref tuple(PyTuple_New(static_cast<Py_ssize_t>(t->elements.size())));
      if (!tuple.p) return nullptr;
      for (size_t i = 0; i < t->elements.size(); ++i) {
        PyObject* item = box_host_result(t->elements[i], slot, args, function);
        if (!item) return nullptr;
        PyTuple_SET_ITEM(tuple.p, static_cast<Py_ssize_t>(i), item);
      }
      return tuple.release();
    }
    case K::Optional: {
      bool valid = (*slot++ & 1) != 0;
      if (valid) return box_host_result(t->pointee, slot, args, function);
      slot += codegen::host_slot_count(t->pointee);
      Py_RETURN_NONE;
    }
    case K::Record: return box_record(t, reinterpret_cast<const void*>(*slot++));
    case K::EnumMember: {  // the class's member of that value
      Ref value(box_host_result(t->pointee, slot, args, function));
      if (!value.p) return nullptr;
      PyObject* cls = frontend::enum_class_of(t);
      if (!cls) {
        PyErr_Format(PyExc_NotImplementedError, "'%s' returns %s, whose class is unknown", function, t->str().c_str());
        return nullptr;
      }
      return PyObject_CallOneArg(cls, value.p);
    }
    case K::CPointer: return PyLong_FromUnsignedLongLong(*slot++);
    case K::Array: {
      PyObject* r = box_array(t, slot, args, function);
      slot += 1 + 2 * t->ndim;
      return r;
    }
    default:
      PyErr_Format(PyExc_NotImplementedError, "'%s' returns %s, which cannot be boxed", function, t->str().c_str());
      return nullptr;
  }
}

PyObject* raise_host_call_error(const cpu::HostCallError& e, std::int32_t status, const char* function) {
  if (!e.reported) {
    PyErr_Format(PyExc_SystemError, "'%s' failed with status %d and reported no error", function,
                 static_cast<int>(status));
    return nullptr;
  }
  KernelErrorReport report = e.report;
  report.kernel = function;
  report.in_launch = false;
  return raise_kernel_error(report);
}

}  // namespace cuhost::python
