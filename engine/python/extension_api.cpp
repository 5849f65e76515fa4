// The engine's side of numba's extension API (cuda.extending): the
// sema::ExtensionHooks that typing calls (they take the GIL and ask
// cuda/_ext/bridge.py), the ExtensionObject behind each Python object the
// extension API types, and the `_cuhost` functions through which Python
// registers extension types (their data models) with the engine.
//
// Data between the two sides is plain: types reach Python as TypeHandles
// (python/type_handle.h), literal arguments as Python values, and the bridge
// answers with tuples, naming types by TypeHandles:
//   ("device", dispatcher, binding)   binding: per implementation parameter an
//                                     int (the argument) or (default_value,)
//   ("codegen", return, params, order, ir_text, entry, internal_calls)
//                                     internal_calls: (placeholder, dispatcher,
//                                     argument types, return type) each
//   ("member", index, type)           a StructModel member
//   ("method",)                       the attribute is a method
// and Python exceptions become UserErrors of numba's kinds.
#include <map>
#include <mutex>

#include "frontend/capture.h"
#include "frontend/py_ref.h"
#include "frontend/type_protocol.h"
#include "ir/builtin_extensions.h"
#include "python/errors.h"
#include "python/extension_api.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "python/type_handle.h"
#include "sema/extension_hooks.h"

namespace cuhost::python {

using frontend::py_attr;
using frontend::py_str;
using frontend::PyRef;

namespace {

// cuda._ext.bridge, installed as the extension_bridge hook (borrowed).
PyObject* bridge() { return hook(Hook::ExtensionBridge); }

// The Python error in flight as a UserError of numba's kind (no location:
// typing adds the call's).
[[noreturn]] void throw_python_error(const std::string& context) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyRef t(type), v(value), trace(tb);
  ErrorKind kind = ErrorKind::TypingError;
  std::string message = v ? py_str(v.get()) : std::string();
  auto is = [&](PyObject* cls) {
    if (!cls) PyErr_Clear();
    return cls && t && PyObject_IsSubclass(t.get(), cls) == 1;
  };
  if (is(hook(Hook::LoweringError))) {
    kind = ErrorKind::LoweringError;
    // numba's errors keep the bare message in .msg
    if (PyRef msg = v ? py_attr(v.get(), "msg") : PyRef(); msg && PyUnicode_Check(msg.get()))
      message = py_str(msg.get());
  } else if (is(exception_class(ErrorKind::TypingError))) {
    kind = ErrorKind::TypingError;
  } else if (t && PyObject_IsSubclass(t.get(), PyExc_NotImplementedError) == 1) {
    kind = ErrorKind::NotImplementedError;
  } else if (t) {
    message = py_str(py_attr(t.get(), "__name__").get()) + ": " + message;
  }
  PyErr_Clear();
  if (message.empty()) message = context;
  throw UserError(kind, message);
}

PyObject* checked(PyObject* r, const std::string& context) {
  if (!r) throw_python_error(context);
  return r;
}

// A type in the bridge's answers: a TypeHandle (the bridge hands types as
// handles, never as spellings).
const ir::Type* type_of_answer(PyObject* h) {
  const ir::Type* t = frontend::type_of_handle(h);
  if (!t) throw InternalError(__FILE__, __LINE__, "extension bridge", "extension bridge: a TypeHandle expected");
  return t;
}

PyObject* const_to_python(const ir::ConstValue& c) {
  using K = ir::ConstValue::Kind;
  switch (c.kind) {
    case K::None: Py_RETURN_NONE;
    case K::Bool: return PyBool_FromLong(c.b);
    case K::Int: return PyLong_FromLongLong(c.i);
    case K::UInt: return PyLong_FromUnsignedLongLong(c.u);
    case K::Float: return PyFloat_FromDouble(c.f);
    case K::Complex: return PyComplex_FromDoubles(c.c.real(), c.c.imag());
    case K::String: return PyUnicode_FromStringAndSize(c.s.data(), static_cast<Py_ssize_t>(c.s.size()));
    case K::Tuple: {
      PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(c.items.size()));
      for (size_t i = 0; i < c.items.size(); ++i)
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), const_to_python(c.items[i]));
      return t;
    }
  }
  Py_RETURN_NONE;
}

// (types, keywords, literals) as the bridge takes them.
struct PyArgs {
  PyRef types, keywords, literals;
};

PyArgs to_python(const sema::ExtensionArgs& a) {
  PyArgs out;
  out.types = PyRef(new_type_handle_tuple(a.types));
  if (!out.types) throw_python_error("handing argument types to the extension API failed");
  out.literals = PyRef(PyTuple_New(static_cast<Py_ssize_t>(a.types.size())));
  for (size_t i = 0; i < a.types.size(); ++i) {
    PyObject* lit;
    if (a.literals[i]) {
      lit = PyTuple_New(1);
      PyTuple_SET_ITEM(lit, 0, const_to_python(*a.literals[i]));
    } else {
      lit = Py_NewRef(Py_None);
    }
    PyTuple_SET_ITEM(out.literals.get(), static_cast<Py_ssize_t>(i), lit);
  }
  out.keywords = PyRef(PyTuple_New(static_cast<Py_ssize_t>(a.keywords.size())));
  for (size_t i = 0; i < a.keywords.size(); ++i)
    PyTuple_SET_ITEM(out.keywords.get(), static_cast<Py_ssize_t>(i), PyUnicode_FromString(a.keywords[i].c_str()));
  return out;
}

std::shared_ptr<model::JitFunction> function_of(PyObject* dispatcher) {
  auto fn = frontend::jit_function_of(dispatcher);
  if (PyErr_Occurred()) throw_python_error("capturing an implementation failed");
  if (!fn) throw InternalError(__FILE__, __LINE__, "extension bridge", "extension bridge: a dispatcher expected");
  return fn;
}

sema::ExtensionResolution read_resolution(PyObject* r) {
  if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < 1)
    throw InternalError(__FILE__, __LINE__, "extension bridge", "extension bridge: a resolution tuple expected");
  std::string kind = py_str(PyTuple_GET_ITEM(r, 0));
  sema::ExtensionResolution out;
  using K = sema::ExtensionResolution::Kind;
  auto item = [&](Py_ssize_t i) {
    if (i >= PyTuple_GET_SIZE(r))
      throw InternalError(__FILE__, __LINE__, "extension bridge", "extension bridge: short resolution");
    return PyTuple_GET_ITEM(r, i);
  };
  if (kind == "device") {
    out.kind = K::DeviceFunction;
    out.function = function_of(item(1));
    PyObject* binding = item(2);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(binding); ++i) {
      PyObject* b = PyTuple_GET_ITEM(binding, i);
      sema::ExtensionResolution::Binding entry;
      if (PyLong_Check(b)) {
        entry.argument = static_cast<int>(PyLong_AsLong(b));
      } else if (PyList_Check(b)) {  // *args: the arguments it packs
        entry.packs = true;
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(b); ++k)
          entry.packed.push_back(static_cast<int>(PyLong_AsLong(PyList_GET_ITEM(b, k))));
      } else {
        frontend::GlobalValue g = frontend::freeze_global(PyTuple_GET_ITEM(b, 0));
        if (g.kind != frontend::GlobalValue::Kind::Constant) {
          throw UserError(ErrorKind::TypingError,
                          concat("the default value ", g.repr,
                                 " of a parameter of an implementation is not a constant kernels can use"));
        }
        entry.default_value = g.constant;
      }
      out.binding.push_back(std::move(entry));
    }
  } else if (kind == "codegen") {
    out.kind = K::Codegen;
    out.return_type = type_of_answer(item(1));
    PyObject* params = item(2);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(params); ++i)
      out.param_types.push_back(type_of_answer(PyTuple_GET_ITEM(params, i)));
    PyObject* order = item(3);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(order); ++i)
      out.order.push_back(static_cast<int>(PyLong_AsLong(PyTuple_GET_ITEM(order, i))));
    out.ir_text = py_str(item(4));
    out.entry = py_str(item(5));
    PyObject* internal = item(6);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(internal); ++i) {
      PyObject* ic = PyTuple_GET_ITEM(internal, i);
      sema::ExtensionInternalCall call;
      call.placeholder = py_str(PyTuple_GET_ITEM(ic, 0));
      call.function = function_of(PyTuple_GET_ITEM(ic, 1));
      PyObject* args = PyTuple_GET_ITEM(ic, 2);
      for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(args); ++k)
        call.arg_types.push_back(type_of_answer(PyTuple_GET_ITEM(args, k)));
      call.return_type = type_of_answer(PyTuple_GET_ITEM(ic, 3));
      out.internal_calls.push_back(std::move(call));
    }
  } else if (kind == "member") {
    out.kind = K::Member;
    out.member = static_cast<int>(PyLong_AsLong(item(1)));
    out.return_type = type_of_answer(item(2));
  } else if (kind == "method") {
    out.kind = K::Method;
  } else {
    throw InternalError(__FILE__, __LINE__, "extension bridge", "extension bridge: unknown resolution " + kind);
  }
  return out;
}

const void* handle_of(const ir::ExtensionObject& o) { return o.handle; }

class BridgeHooks : public sema::ExtensionHooks {
 public:
  sema::ExtensionResolution call(const ir::ExtensionObject& callee, const sema::ExtensionArgs& args) override {
    GilHold gil;
    PyArgs a = to_python(args);
    PyObject* b = checked(bridge(), "the extension API is not available");
    PyRef r(checked(
        PyObject_CallMethod(b, "resolve_call", "OOOOi", static_cast<PyObject*>(const_cast<void*>(handle_of(callee))),
                            a.types.get(), a.keywords.get(), a.literals.get(), int(sema::typing_for_host())),
        "typing a call of " + callee.name));
    return read_resolution(r.get());
  }

  std::optional<sema::ExtensionResolution> attribute(const ir::Type* base, const std::string& name) override {
    GilHold gil;
    PyObject* b = checked(bridge(), "the extension API is not available");
    PyRef r(checked(PyObject_CallMethod(b, "resolve_attribute", "Nsi", new_type_handle(base), name.c_str(),
                                        int(sema::typing_for_host())),
                    "typing attribute " + name));
    if (r.get() == Py_None) return std::nullopt;
    return read_resolution(r.get());
  }

  sema::ExtensionResolution method(const ir::Type* receiver, const std::string& name,
                                   const sema::ExtensionArgs& args) override {
    GilHold gil;
    PyArgs a = to_python(args);
    PyObject* b = checked(bridge(), "the extension API is not available");
    PyRef r(
        checked(PyObject_CallMethod(b, "resolve_method", "NsOOOi", new_type_handle(receiver), name.c_str(),
                                    a.types.get(), a.keywords.get(), a.literals.get(), int(sema::typing_for_host())),
                "typing method " + name));
    return read_resolution(r.get());
  }
};

// Every object handed to the engine, kept for the process (registrations
// are never undone). Guarded by the GIL.
std::map<PyObject*, std::shared_ptr<const ir::ExtensionObject>>& objects() {
  static auto* m = new std::map<PyObject*, std::shared_ptr<const ir::ExtensionObject>>();
  return *m;
}

// _register_extension_type(spelling, model, member_names, member_handles, llvm_text, size, align)
PyObject* py_register_extension_type(PyObject*, PyObject* args) {
  const char* spelling = nullptr;
  const char* model = nullptr;
  PyObject* names = nullptr;
  PyObject* members = nullptr;
  const char* llvm_text = nullptr;
  long long size = 0, align = 1;
  if (!PyArg_ParseTuple(args, "ssO!O!sLL", &spelling, &model, &PyTuple_Type, &names, &PyTuple_Type, &members,
                        &llvm_text, &size, &align))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    ir::ExtensionTypeInfo info;
    info.spelling = spelling;
    std::string m = model;
    info.model = m == "struct"   ? ir::DataModel::Struct
                 : m == "opaque" ? ir::DataModel::Opaque
                                 : ir::DataModel::Primitive;
    if (PyTuple_GET_SIZE(names) != PyTuple_GET_SIZE(members)) {
      PyErr_SetString(PyExc_ValueError, "member names and types differ in length");
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); ++i)
      info.members.push_back({py_str(PyTuple_GET_ITEM(names, i)), type_of_answer(PyTuple_GET_ITEM(members, i))});
    info.llvm_text = llvm_text;
    info.size = size;
    info.align = align;
    ir::register_extension_type(std::move(info));
    Py_RETURN_NONE;
  });
}

// _register_builtin_extension(key, obj): `obj` (one of cuhost's builtins,
// "operator.add", "builtins.len", ...) has extension-API overloads.
PyObject* py_register_builtin_extension(PyObject*, PyObject* args) {
  const char* key = nullptr;
  PyObject* obj = nullptr;
  if (!PyArg_ParseTuple(args, "sO", &key, &obj)) return nullptr;
  std::shared_ptr<const ir::ExtensionObject> e = extension_object(obj);
  if (!e) {
    PyErr_Format(PyExc_ValueError, "%R has no extension-API overloads", obj);
    return nullptr;
  }
  ir::register_builtin_extension(key, e.get());
  Py_RETURN_NONE;
}

PyMethodDef g_methods[] = {
    {"_register_extension_type", py_register_extension_type, METH_VARARGS,
     "Registers an extension type and its data model with the engine."},
    {"_register_builtin_extension", py_register_builtin_extension, METH_VARARGS,
     "Marks one of cuhost's builtins (operator.add, len, ...) as overloaded by the extension API."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

std::shared_ptr<const ir::ExtensionObject> extension_object(PyObject* obj) {
  auto& known = objects();
  auto it = known.find(obj);
  if (it != known.end()) return it->second;
  PyObject* b = bridge();
  if (!b) {
    PyErr_Clear();
    return nullptr;
  }
  PyRef name(PyObject_CallMethod(b, "extension_name", "O", obj));
  if (!name) {
    PyErr_Clear();
    return nullptr;
  }
  if (name.get() == Py_None) return nullptr;
  auto e = std::make_shared<ir::ExtensionObject>();
  e->name = py_str(name.get());
  Py_INCREF(obj);  // kept for the process, as the registration that made it an extension object
  e->handle = obj;
  known.emplace(obj, e);
  return e;
}

int add_extension_api(PyObject* module) {
  static BridgeHooks hooks;
  sema::set_extension_hooks(&hooks);
  return PyModule_AddFunctions(module, g_methods);
}

}  // namespace cuhost::python
