// The `__cuhost_type__` protocol and the TypeHandle layout (see type_protocol.h).
#include "frontend/type_protocol.h"

#include "frontend/py_ref.h"

namespace cuhost::frontend {

PyTypeObject& type_handle_type() {
  static PyTypeObject type{};
  return type;
}

const ir::Type* type_of_handle(PyObject* obj) {
  return obj && Py_TYPE(obj) == &type_handle_type() ? reinterpret_cast<TypeHandleObject*>(obj)->type : nullptr;
}

const ir::Type* type_of_typed_object(PyObject* obj) {
  if (!obj) return nullptr;
  if (const ir::Type* t = type_of_handle(obj)) return t;
  if (PyUnicode_Check(obj) || PyType_Check(obj)) return nullptr;  // a class's property object is not a handle
  PyRef handle = py_attr(obj, "__cuhost_type__");
  return type_of_handle(handle.get());
}

}  // namespace cuhost::frontend
