// `_cuhost._conversion` (see conversion_api.h).
#include "python/conversion_api.h"

#include <string>

#include "python/errors.h"
#include "python/py_api.h"
#include "python/type_handle.h"
#include "sema/conversions.h"

namespace cuhost::python {

namespace {

// _conversion(from, to, literal=False): numba's Conversion value (1 exact,
// 2 promote, 3 safe, 4 unsafe) between two TypeHandles, or None when `from`
// does not convert. `literal`: `from` is a
// Literal[int] / Literal[bool] of that type (a promotion at best).
PyObject* py_conversion(PyObject*, PyObject* args, PyObject* kwargs) {
  PyObject* from = nullptr;
  PyObject* to = nullptr;
  int literal = 0;
  static const char* kwlist[] = {"from_type", "to_type", "literal", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|p", const_cast<char**>(kwlist), &from, &to, &literal))
    return nullptr;
  const ir::Type* a = type_of_handle(from);
  const ir::Type* b = type_of_handle(to);
  if (!a || !b) {
    PyErr_SetString(PyExc_TypeError, "_conversion() takes two TypeHandles");
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    auto kind = literal ? sema::literal_conversion_kind(a, b) : sema::conversion_kind(a, b);
    if (!kind) Py_RETURN_NONE;
    return PyLong_FromLong(static_cast<long>(*kind));
  });
}

PyMethodDef g_methods[] = {{"_conversion", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_conversion)),
                            METH_VARARGS | METH_KEYWORDS,
                            "numba's Conversion (1..4) from one TypeHandle to another, or None (engine relation)."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_conversion_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
