// `_cuhost._conversion` (see conversion_api.h).
#include "python/conversion_api.h"

#include <string>

#include "ir/type_parser.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "sema/conversions.h"

namespace cuhost::python {

namespace {

// A spelling the engine does not know (an extension type's placeholder, a
// numba type cuhost lacks) has no engine rule: nullptr, the error cleared.
const ir::Type* known_type(const char* spelling) {
  try {
    return ir::parse_type(spelling);
  } catch (const UserError&) {
    return nullptr;
  }
}

// _conversion(from, to, literal=False): numba's Conversion value (1 exact,
// 2 promote, 3 safe, 4 unsafe) for type spellings, or None when `from` does
// not convert or the engine knows either type not. `literal`: `from` is a
// Literal[int] / Literal[bool] of that type (a promotion at best).
PyObject* py_conversion(PyObject*, PyObject* args, PyObject* kwargs) {
  const char* from = nullptr;
  const char* to = nullptr;
  int literal = 0;
  static const char* kwlist[] = {"from_type", "to_type", "literal", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ss|p", const_cast<char**>(kwlist), &from, &to, &literal))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const ir::Type* a = known_type(from);
    const ir::Type* b = known_type(to);
    if (!a || !b) Py_RETURN_NONE;
    auto kind = literal ? sema::literal_conversion_kind(a, b) : sema::conversion_kind(a, b);
    if (!kind) Py_RETURN_NONE;
    return PyLong_FromLong(static_cast<long>(*kind));
  });
}

PyMethodDef g_methods[] = {{"_conversion", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_conversion)),
                            METH_VARARGS | METH_KEYWORDS,
                            "numba's Conversion (1..4) from one type spelling to another, or None (engine relation)."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_conversion_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
