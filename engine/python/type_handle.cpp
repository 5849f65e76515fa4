// _cuhost.TypeHandle and _cuhost.parse_type (see type_handle.h).
#include "python/type_handle.h"

#include <functional>
#include <string>

#include "frontend/type_protocol.h"
#include "ir/datetime.h"
#include "ir/records.h"
#include "ir/type_parser.h"
#include "ir/vector_types.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/type_object.h"

namespace cuhost::python {
namespace {

using frontend::TypeHandleObject;

PyTypeObject& g_handle_type = frontend::type_handle_type();

const ir::Type* type_of(PyObject* self) { return reinterpret_cast<TypeHandleObject*>(self)->type; }

// The kind pylib builds a type object from; "named" types are found by their
// spelling among cuda.types' own names (scalars, vector types, none, ...).
const char* kind_name(const ir::Type* t) {
  switch (t->kind) {
    case ir::TypeKind::Array: return "array";
    case ir::TypeKind::Tuple:
      if (ir::is_vector_type(t)) return "named";
      return t->object ? "opaque" : "tuple";  // a named tuple has no cuda.types class of its own
    case ir::TypeKind::CPointer: return "cpointer";
    case ir::TypeKind::Optional: return "optional";
    case ir::TypeKind::TypeRef: return "class";
    case ir::TypeKind::Record: return "record";
    case ir::TypeKind::NestedArray: return "nestedarray";
    case ir::TypeKind::Extension: return "extension";
    case ir::TypeKind::NPDatetime: return "datetime64";
    case ir::TypeKind::NPTimedelta: return "timedelta64";
    case ir::TypeKind::CharSeq: return "charseq";
    case ir::TypeKind::Void:
    case ir::TypeKind::NoneType:
    case ir::TypeKind::Boolean:
    case ir::TypeKind::Integer:
    case ir::TypeKind::Float:
    case ir::TypeKind::Complex: return "named";
    default: return "opaque";
  }
}

PyObject* handle_or_none(const ir::Type* t) { return t ? new_type_handle(t) : Py_NewRef(Py_None); }

PyObject* get_kind(PyObject* self, void*) { return PyUnicode_FromString(kind_name(type_of(self))); }
PyObject* get_spelling(PyObject* self, void*) { return PyUnicode_FromString(type_of(self)->str().c_str()); }

PyObject* get_dtype(PyObject* self, void*) {
  const ir::Type* t = type_of(self);
  return handle_or_none(t->kind == ir::TypeKind::Array || t->kind == ir::TypeKind::NestedArray ? t->dtype : nullptr);
}

PyObject* get_inner(PyObject* self, void*) {
  const ir::Type* t = type_of(self);
  bool has = t->kind == ir::TypeKind::CPointer || t->kind == ir::TypeKind::Optional || t->kind == ir::TypeKind::TypeRef;
  return handle_or_none(has ? t->pointee : nullptr);
}

PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLong(type_of(self)->ndim); }

PyObject* get_layout(PyObject* self, void*) {
  switch (type_of(self)->layout) {
    case ir::Layout::C: return PyUnicode_FromString("C");
    case ir::Layout::F: return PyUnicode_FromString("F");
    case ir::Layout::A: break;
  }
  return PyUnicode_FromString("A");
}

PyObject* get_readonly(PyObject* self, void*) { return PyBool_FromLong(type_of(self)->readonly); }
PyObject* get_aligned(PyObject* self, void*) { return PyBool_FromLong(!type_of(self)->unaligned); }

PyObject* get_items(PyObject* self, void*) {
  const ir::Type* t = type_of(self);
  const auto& elements = t->elements;
  PyRef items(PyTuple_New(static_cast<Py_ssize_t>(elements.size())));
  if (!items) return nullptr;
  for (size_t i = 0; i < elements.size(); ++i)
    PyTuple_SET_ITEM(items.get(), static_cast<Py_ssize_t>(i), new_type_handle(elements[i]));
  return items.release();
}

// A tuple of one repeated element count (numba's UniTuple), else False.
PyObject* get_uniform(PyObject* self, void*) {
  const auto& e = type_of(self)->elements;
  bool uniform = !e.empty();
  for (const ir::Type* x : e) uniform = uniform && x == e[0];
  return PyBool_FromLong(uniform);
}

PyObject* get_shape(PyObject* self, void*) {
  const ir::Type* t = type_of(self);
  if (t->kind != ir::TypeKind::NestedArray) return PyTuple_New(0);
  const auto& shape = ir::nested_shape(t);
  PyRef out(PyTuple_New(static_cast<Py_ssize_t>(shape.size())));
  if (!out) return nullptr;
  for (size_t i = 0; i < shape.size(); ++i)
    PyTuple_SET_ITEM(out.get(), static_cast<Py_ssize_t>(i), PyLong_FromLongLong(shape[i]));
  return out.release();
}

// datetime64/timedelta64: the unit ("" generic).
PyObject* get_unit(PyObject* self, void*) {
  const ir::Type* t = type_of(self);
  return PyUnicode_FromString(ir::is_datetime_like(t) ? t->key.c_str() : "");
}

// CharSeq: its length in characters and whether they are code points.
PyObject* get_length(PyObject* self, void*) { return PyLong_FromLong(type_of(self)->ndim); }
PyObject* get_unicode(PyObject* self, void*) { return PyBool_FromLong(ir::is_unicode_char_seq(type_of(self))); }

PyGetSetDef g_getset[] = {
    {"kind", get_kind, nullptr, "What the type is: array, tuple, named, record, extension, ...", nullptr},
    {"spelling", get_spelling, nullptr, "numba's name of the type (for messages and lookups by name).", nullptr},
    {"dtype", get_dtype, nullptr, "An array's or nested array's element type.", nullptr},
    {"inner", get_inner, nullptr, "The type a CPointer, Optional or class(...) refers to.", nullptr},
    {"ndim", get_ndim, nullptr, "An array's dimensions.", nullptr},
    {"layout", get_layout, nullptr, "An array's layout: 'C', 'F' or 'A'.", nullptr},
    {"readonly", get_readonly, nullptr, "Whether an array is read-only.", nullptr},
    {"aligned", get_aligned, nullptr, "Whether an array's elements are aligned.", nullptr},
    {"items", get_items, nullptr, "A tuple's element types.", nullptr},
    {"uniform", get_uniform, nullptr, "Whether a tuple's elements all have one type (numba's UniTuple).", nullptr},
    {"shape", get_shape, nullptr, "A nested array's shape.", nullptr},
    {"unit", get_unit, nullptr, "A datetime64's or timedelta64's unit.", nullptr},
    {"length", get_length, nullptr, "A fixed-width string's length in characters.", nullptr},
    {"unicode", get_unicode, nullptr, "Whether a fixed-width string holds code points (numpy U).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyObject* handle_repr(PyObject* self) { return PyUnicode_FromFormat("<TypeHandle %s>", type_of(self)->str().c_str()); }

// Types are interned: one type, one pointer.
Py_hash_t handle_hash(PyObject* self) {
  auto h = static_cast<Py_hash_t>(std::hash<const void*>()(type_of(self)));
  return h == -1 ? -2 : h;
}

PyObject* handle_richcompare(PyObject* a, PyObject* b, int op) {
  const ir::Type* other = type_of_handle(b);
  if (!other || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  return PyBool_FromLong((type_of(a) == other) == (op == Py_EQ));
}

PyObject* py_parse_type(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "parse_type() takes a str, not %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&] { return new_type_handle(ir::parse_type(py_str(arg))); });
}

// parse_signature(text) -> (return TypeHandle or None, (argument TypeHandles...)):
// "ret(args...)", "(args...)" or a bare argument list (no return type).
PyObject* py_parse_signature(PyObject*, PyObject* arg) {
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "parse_signature() takes a str, not %s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const ir::Signature sig = ir::parse_signature(py_str(arg));
    PyRef args(PyTuple_New(static_cast<Py_ssize_t>(sig.args.size())));
    if (!args) return nullptr;
    for (std::size_t i = 0; i < sig.args.size(); ++i) {
      PyObject* h = new_type_handle(sig.args[i]);
      if (!h) return nullptr;
      PyTuple_SET_ITEM(args.get(), static_cast<Py_ssize_t>(i), h);
    }
    PyRef ret(sig.return_type ? new_type_handle(sig.return_type) : Py_NewRef(Py_None));
    if (!ret) return nullptr;
    return PyTuple_Pack(2, ret.get(), args.get());
  });
}

PyMethodDef g_methods[] = {
    {"parse_type", py_parse_type, METH_O,
     "parse_type(spelling): the TypeHandle of a numba type spelling, read by the engine's one type parser "
     "(NameError for an unknown name, SyntaxError for a malformed spelling)"},
    {"parse_signature", py_parse_signature, METH_O,
     "parse_signature(text): (return TypeHandle or None, argument TypeHandles) of a signature such as "
     "'float64(float64, int32)' or a bare argument list, read by the engine's one type parser"},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject make_handle_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.TypeHandle";
  t.tp_basicsize = sizeof(TypeHandleObject);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "One of the engine's types, as it crosses into Python (read its fields, never its spelling).";
  t.tp_getset = g_getset;
  t.tp_repr = handle_repr;
  t.tp_hash = handle_hash;
  t.tp_richcompare = handle_richcompare;
  return t;
}

}  // namespace

PyObject* new_type_handle(const ir::Type* type) {
  auto* h = PyObject_New(TypeHandleObject, &g_handle_type);
  if (!h) return nullptr;
  h->type = type;
  return reinterpret_cast<PyObject*>(h);
}

PyObject* new_type_handle_tuple(const std::vector<const ir::Type*>& types) {
  PyRef t(PyTuple_New(static_cast<Py_ssize_t>(types.size())));
  if (!t) return nullptr;
  for (size_t i = 0; i < types.size(); ++i) {
    PyObject* h = new_type_handle(types[i]);
    if (!h) return nullptr;
    PyTuple_SET_ITEM(t.get(), static_cast<Py_ssize_t>(i), h);
  }
  return t.release();
}

const ir::Type* type_of_handle(PyObject* obj) { return frontend::type_of_handle(obj); }

int add_type_handle(PyObject* module) {
  g_handle_type = make_handle_type();
  if (PyType_Ready(&g_handle_type) < 0) return -1;
  if (PyModule_AddObjectRef(module, "TypeHandle", reinterpret_cast<PyObject*>(&g_handle_type)) < 0) return -1;
  return PyModule_AddFunctions(module, g_methods);
}

}  // namespace cuhost::python
