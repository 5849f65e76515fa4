// Static Python types of the _cuhost module are built field by field: each
// starts from blank_type_object(), a zeroed PyTypeObject with the object
// header a static type needs, and sets only the slots it uses. (Brace
// initialisation with PyVarObject_HEAD_INIT leaves ~45 slots to the
// compiler's zero-fill, which -Wextra reports one by one.)
#pragma once

#include <Python.h>

namespace cuhost::python {

inline PyTypeObject blank_type_object() {
  // As PyVarObject_HEAD_INIT(nullptr, 0): one reference, no size; PyType_Ready sets the metatype.
  PyTypeObject t{};
  Py_SET_REFCNT(reinterpret_cast<PyObject*>(&t), 1);
  return t;
}

}  // namespace cuhost::python
