// Structured dtypes -> record types (see record_dtype.h). numba's rules:
// each named field becomes (type, offset) in dtype order; a field with a
// subarray shape becomes a nested array of its base type; a structured field
// becomes a nested record; the record is aligned when numpy built it with
// align=True. Results are cached per dtype object (dtypes are few and live
// long; the cache keeps a reference).
#include "python/record_dtype.h"

#include <map>
#include <vector>

#include "ir/records.h"
#include "python/device_array.h"
#include "python/py_api.h"
#include "python/type_handle.h"

namespace cuhost::python {

namespace {

// dtype object -> its type (nullptr cached too: "no kernel type"). GIL held.
std::map<PyObject*, const ir::Type*>& cache() {
  static auto* m = new std::map<PyObject*, const ir::Type*>();
  return *m;
}

bool has_names(PyObject* dtype, bool* out) {
  PyRef names(PyObject_GetAttrString(dtype, "names"));
  if (!names) return false;
  *out = names.get() != Py_None;
  return true;
}

// The type of a field's dtype: a subarray becomes a nested array.
const ir::Type* field_type(PyObject* dtype, bool* failed) {
  PyRef sub(PyObject_GetAttrString(dtype, "subdtype"));
  if (!sub) {
    *failed = true;
    return nullptr;
  }
  if (sub.get() != Py_None) {
    if (!PyTuple_Check(sub.get()) || PyTuple_GET_SIZE(sub.get()) != 2) return nullptr;
    PyObject* base = PyTuple_GET_ITEM(sub.get(), 0);
    PyObject* shape = PyTuple_GET_ITEM(sub.get(), 1);
    const ir::Type* bt = kernel_type_of_dtype(base);
    if (!bt) {
      *failed = PyErr_Occurred() != nullptr;
      return nullptr;
    }
    std::vector<std::int64_t> dims;
    for (Py_ssize_t i = 0; PyTuple_Check(shape) && i < PyTuple_GET_SIZE(shape); ++i)
      dims.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i)));
    if (PyErr_Occurred()) {
      *failed = true;
      return nullptr;
    }
    if (dims.empty()) return bt;
    return ir::nested_array(bt, dims);
  }
  const ir::Type* t = kernel_type_of_dtype(dtype);
  if (!t && PyErr_Occurred()) *failed = true;
  return t;
}

const ir::Type* build_record(PyObject* dtype) {
  PyRef names(PyObject_GetAttrString(dtype, "names"));
  PyRef fields(PyObject_GetAttrString(dtype, "fields"));
  PyRef itemsize(PyObject_GetAttrString(dtype, "itemsize"));
  PyRef aligned(PyObject_GetAttrString(dtype, "isalignedstruct"));
  if (!names || !fields || !itemsize || !aligned) return nullptr;
  if (!PyTuple_Check(names.get())) return nullptr;
  std::vector<ir::RecordField> out;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names.get()); ++i) {
    PyObject* name = PyTuple_GET_ITEM(names.get(), i);
    PyRef held(PyObject_GetItem(fields.get(), name));  // a mappingproxy: (dtype, offset[, title])
    PyObject* entry = held.get();
    if (!entry || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 2) return nullptr;
    bool failed = false;
    const ir::Type* t = field_type(PyTuple_GET_ITEM(entry, 0), &failed);
    if (!t) return nullptr;
    ir::RecordField f;
    const char* s = PyUnicode_AsUTF8(name);
    if (!s) return nullptr;
    f.name = s;
    f.type = t;
    f.offset = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 1));
    if (PyErr_Occurred()) return nullptr;
    out.push_back(std::move(f));
  }
  std::int64_t size = PyLong_AsLongLong(itemsize.get());
  if (PyErr_Occurred()) return nullptr;
  return ir::record(std::move(out), size, PyObject_IsTrue(aligned.get()) == 1);
}

PyObject* g_void_type = nullptr;  // numpy.void

}  // namespace

const ir::Type* record_type_of_dtype(PyObject* dtype) {
  auto& c = cache();
  auto it = c.find(dtype);
  if (it != c.end()) return it->second;
  bool structured = false;
  if (!has_names(dtype, &structured)) return nullptr;
  const ir::Type* t = structured ? build_record(dtype) : nullptr;
  if (PyErr_Occurred()) return nullptr;
  Py_INCREF(dtype);
  c.emplace(dtype, t);
  return t;
}

const ir::Type* kernel_type_of_dtype(PyObject* dtype) {
  PyRef str(PyObject_GetAttrString(dtype, "str"));
  if (!str) return nullptr;
  const char* s = PyUnicode_AsUTF8(str.get());
  if (!s) return nullptr;
  if (const ir::Type* t = scalar_of_typestr(s)) return t;
  return record_type_of_dtype(dtype);
}

bool record_scalar(PyObject* obj, const ir::Type** type, void** data) {
  if (!g_void_type) {
    PyObject* np = numpy_module();
    if (!np) {
      PyErr_Clear();
      return false;
    }
    g_void_type = PyObject_GetAttrString(np, "void");
    if (!g_void_type) {
      PyErr_Clear();
      return false;
    }
  }
  int is = PyObject_IsInstance(obj, g_void_type);
  if (is <= 0) {
    if (is < 0) PyErr_Clear();
    return false;
  }
  PyRef dtype(PyObject_GetAttrString(obj, "dtype"));
  if (!dtype) {
    PyErr_Clear();
    return false;
  }
  const ir::Type* t = record_type_of_dtype(dtype.get());
  if (!t) {
    PyErr_Clear();
    return false;
  }
  // numpy.void exports its storage read-only; numba writes through it too
  // (its mviewbuf falls back to the read-only buffer), which is what makes
  // a kernel's writes to a record argument visible in the scalar.
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) {
    PyErr_Clear();
    return false;
  }
  *data = view.buf;
  PyBuffer_Release(&view);
  *type = t;
  return true;
}

namespace {

PyObject* py_dtype_type(PyObject*, PyObject* value) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    PyRef dtype(to_numpy_dtype(value));
    if (!dtype) return nullptr;
    const ir::Type* t = kernel_type_of_dtype(dtype.get());
    if (!t) {
      if (PyErr_Occurred()) return nullptr;
      Py_RETURN_NONE;
    }
    return new_type_handle(t);
  });
}

PyMethodDef g_methods[] = {
    {"_dtype_type", py_dtype_type, METH_O, "The kernel type of a NumPy dtype (a TypeHandle), or None."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_record_dtype(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
