// numba's typeof for kernel arguments (see typeof.h): bool -> boolean,
// int -> int64 (uint64 above INT64_MAX), float -> float64, complex ->
// complex128, NumPy scalars -> their dtype, arrays -> array(dtype, ndim,
// layout, readonly), tuples -> Tuple/UniTuple of their elements, NumPy
// scalar classes -> class(dtype) (a type known at compile time).
#include "python/typeof.h"

#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "frontend/capture.h"
#include "ir/named_tuples.h"
#include "python/device_array.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/record_dtype.h"
#include "python/type_handle.h"

namespace cuhost::python {
namespace {

// NumPy scalar type objects seen so far -> their kernel type. Only touched
// with the GIL held; grows by one entry per NumPy scalar type ever seen.
constexpr int kScalarCache = 32;
PyTypeObject* g_scalar_types[kScalarCache] = {};
const ir::Type* g_scalar_kinds[kScalarCache] = {};
int g_scalar_count = 0;
PyObject* g_numpy_generic = nullptr;  // numpy.generic, imported on first need

bool load_numpy_generic() {
  if (g_numpy_generic) return true;
  PyRef np(PyImport_ImportModule("numpy"));
  if (!np) {
    PyErr_Clear();
    return false;
  }
  g_numpy_generic = PyObject_GetAttrString(np.get(), "generic");
  if (!g_numpy_generic) PyErr_Clear();
  return g_numpy_generic != nullptr;
}

// A NumPy scalar class passed as a value (np.float32): numba's NumberClass,
// a compile-time constant the kernel can use as a dtype.
const ir::Type* numpy_scalar_class(PyObject* cls) {
  for (int i = 0; i < g_scalar_count; ++i)
    if (reinterpret_cast<PyObject*>(g_scalar_types[i]) == cls) return ir::type_ref(g_scalar_kinds[i]);
  if (!load_numpy_generic()) return nullptr;
  int is = PyObject_IsSubclass(cls, g_numpy_generic);
  if (is <= 0) {
    PyErr_Clear();
    return nullptr;
  }
  PyRef np(PyImport_ImportModule("numpy"));
  PyRef dtype(np ? PyObject_CallMethod(np.get(), "dtype", "O", cls) : nullptr);
  PyRef name(dtype ? PyObject_GetAttrString(dtype.get(), "name") : nullptr);
  const char* s = name ? PyUnicode_AsUTF8(name.get()) : nullptr;
  const ir::Type* t = s ? ir::scalar_by_name(s) : nullptr;
  if (!s) PyErr_Clear();
  return t ? ir::type_ref(t) : nullptr;
}

const ir::Type* numpy_scalar_type(PyObject* obj) {
  PyTypeObject* tp = Py_TYPE(obj);
  for (int i = 0; i < g_scalar_count; ++i)
    if (g_scalar_types[i] == tp) return g_scalar_kinds[i];
  if (!load_numpy_generic()) return nullptr;
  int is = PyObject_IsInstance(obj, g_numpy_generic);
  if (is <= 0) {
    PyErr_Clear();
    return nullptr;
  }
  PyRef dtype(PyObject_GetAttrString(obj, "dtype"));
  if (!dtype) {
    PyErr_Clear();
    return nullptr;
  }
  PyRef name(PyObject_GetAttrString(dtype.get(), "name"));
  if (!name) {
    PyErr_Clear();
    return nullptr;
  }
  const char* s = PyUnicode_AsUTF8(name.get());
  const ir::Type* t = s ? ir::scalar_by_name(s) : nullptr;
  if (!s) PyErr_Clear();
  if (t && g_scalar_count < kScalarCache) {
    Py_INCREF(tp);
    g_scalar_types[g_scalar_count] = tp;
    g_scalar_kinds[g_scalar_count] = t;
    ++g_scalar_count;
  }
  return t;
}

// A tuple subclass with `_fields` (collections.namedtuple, typing.NamedTuple):
// numba's NamedTuple of that class; any other subclass is a plain tuple.
const ir::Type* named_tuple_type(PyTypeObject* tp, const std::vector<const ir::Type*>& elements) {
  PyRef owned_fields(PyObject_GetAttrString(reinterpret_cast<PyObject*>(tp), "_fields"));
  PyObject* fields = owned_fields.get();
  if (!fields) {
    PyErr_Clear();
    return ir::tuple(elements);
  }
  std::vector<std::string> names;
  bool ok = PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == static_cast<Py_ssize_t>(elements.size());
  for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(fields); ++i) {
    const char* s =
        PyUnicode_Check(PyTuple_GET_ITEM(fields, i)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i)) : nullptr;
    if (!s)
      ok = false;
    else
      names.emplace_back(s);
  }
  PyErr_Clear();
  if (!ok) return ir::tuple(elements);
  // The class is the type's identity: it is kept alive for the process.
  static std::set<PyTypeObject*>* kept = new std::set<PyTypeObject*>();
  if (kept->insert(tp).second) Py_INCREF(tp);
  const char* dot = std::strrchr(tp->tp_name, '.');
  return ir::named_tuple(dot ? dot + 1 : tp->tp_name, names, elements, tp);
}

}  // namespace

std::string python_type_name(PyObject* obj) { return Py_TYPE(obj)->tp_name; }

const ir::Type* typeof_arg(PyObject* obj, ArgInfo* info) {
  PyTypeObject* tp = Py_TYPE(obj);
  if (info) info->kind = ArgKind::Scalar;
  if (tp == &PyFloat_Type) return ir::float64();
  if (tp == &PyBool_Type) return ir::boolean();
  if (tp == &PyLong_Type) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow == 0) return ir::int64();
    if (overflow > 0) {
      PyLong_AsUnsignedLongLong(obj);
      if (!PyErr_Occurred()) return ir::uint64();
      PyErr_Clear();
    }
    return nullptr;  // does not fit 64 bits
  }
  if (tp == &PyComplex_Type) return ir::complex128();
  if (PyTuple_Check(obj)) {
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    std::vector<const ir::Type*> elements;
    elements.reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      const ir::Type* e = typeof_arg(PyTuple_GET_ITEM(obj, i), nullptr);
      if (!e) return nullptr;
      elements.push_back(e);
    }
    if (info) info->kind = ArgKind::Tuple;
    if (tp != &PyTuple_Type) return named_tuple_type(tp, elements);
    return ir::tuple(elements);
  }
  for (int i = 0; i < g_scalar_count; ++i)
    if (g_scalar_types[i] == tp) return g_scalar_kinds[i];
  ArrayView local;
  ArrayView* view = info ? &info->view : &local;
  // Device arrays first: they are the launch hot path (the check is a type
  // test, and the array keeps its kernel type).
  if (tp == &DeviceArrayType) {
    if (!device_array_view(obj, view)) return nullptr;
    if (info) info->kind = ArgKind::DeviceArray;
    return device_array_type(reinterpret_cast<DeviceArrayObject*>(obj));
  }
  if (device_array_view(obj, view)) {
    if (info) info->kind = ArgKind::DeviceArray;
    return view->dtype ? view->type() : nullptr;
  }
  if (PyErr_Occurred()) return nullptr;
  if (host_array_view(obj, view)) {
    if (info) info->kind = ArgKind::HostArray;
    return view->dtype ? view->type() : nullptr;
  }
  if (PyErr_Occurred()) return nullptr;
  // Enum members (IntEnum ones included) have their class's member type.
  if (const ir::Type* et = frontend::enum_member_type(obj)) return et;
  // Subclasses of the builtin scalars type as their base.
  if (PyBool_Check(obj)) return ir::boolean();
  if (PyLong_Check(obj)) return ir::int64();
  if (PyFloat_Check(obj)) return ir::float64();
  if (PyComplex_Check(obj)) return ir::complex128();
  const ir::Type* rec = nullptr;
  void* rec_data = nullptr;
  if (record_scalar(obj, &rec, &rec_data)) {
    if (info) {
      info->kind = ArgKind::HostRecord;
      info->view.data = rec_data;
      info->view.ndim = 0;
      info->view.dtype = rec;
    }
    return rec;
  }
  // A DeviceRecord (cuda.cudadrv.devicearray): its record, by reference to device memory.
  if (std::strcmp(tp->tp_name, "DeviceRecord") == 0) {
    PyRef owned_view(PyObject_GetAttrString(obj, "gpu_data"));  // numba's public view of the record's memory
    PyObject* v = owned_view.get();
    if (!v) {
      PyErr_Clear();
      return nullptr;
    }
    const ir::Type* t = nullptr;
    if (tp != &DeviceArrayType && PyObject_TypeCheck(v, &DeviceArrayType) && device_array_view(v, view) &&
        view->ndim == 0 && view->dtype && view->dtype->kind == ir::TypeKind::Record) {
      t = view->dtype;
      if (info) info->kind = ArgKind::DeviceArray;
    }
    if (PyErr_Occurred()) PyErr_Clear();
    return t;
  }
  if (PyType_Check(obj)) return numpy_scalar_class(obj);
  return numpy_scalar_type(obj);
}

namespace {

// The engine's type of a value as a _cuhost.TypeHandle, or None.
PyObject* py_typeof(PyObject*, PyObject* value) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const ir::Type* t = typeof_arg(value, nullptr);
    if (!t) {
      if (PyErr_Occurred()) return nullptr;
      Py_RETURN_NONE;
    }
    return new_type_handle(t);
  });
}

PyMethodDef g_methods[] = {{"_typeof", py_typeof, METH_O, "The kernel type of a value (a TypeHandle), or None."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_typeof(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
