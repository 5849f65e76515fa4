// Classification of the Python objects a kernel reads as globals or closure
// variables into compile-time values (frontend::GlobalValue): constants,
// constant arrays, device arrays (by address), modules and built-in functions by normalized key, type
// objects, other jitted functions, foreign declarations and FFI objects.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

#include "frontend/capture.h"
#include "frontend/exception_classes.h"
#include "frontend/py_ref.h"
#include "frontend/type_protocol.h"

namespace cuhost::frontend {

std::string fetch_python_error() {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  std::string out;
  if (type) out = py_str(py_attr(type, "__name__").get());
  if (value) out += ": " + py_str(value);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return out;
}

namespace {

PyRef import(const char* name) {
  PyRef m(PyImport_ImportModule(name));
  if (!m) PyErr_Clear();
  return m;
}

// The normalized key of a module object, or "" for modules kernels cannot use.
std::string module_key(PyObject* mod) {
  std::string name = py_str(py_attr(mod, "__name__").get());
  if (name == "cuda" || name == "numba.cuda") return "cuda";
  if (name == "numba.types" || name == "numba.core.types" || name == "cuda.types") return "numba.types";
  if (name == "numpy") return "numpy";
  if (name == "math") return "math";
  if (name == "numba") return "numba";
  if (name.rfind("cuda.", 0) == 0) return name;  // cuda.libdevice, cuda.atomic, ...
  if (name.rfind("numba.cuda.", 0) == 0) return name.substr(6);
  return name;
}

// id(obj) -> key of the objects a kernel may name by identity, in three
// groups looked up in this order (an object in two keeps the first group's
// key): Python builtins, operators and math functions; every object
// reachable from the `cuda` module (two levels); numpy functions and
// isinstance. The groups are built at their first lookup, so a kernel that
// names only builtins or math never pays for walking `cuda` (two thirds of
// the capture of a process's first kernel, issue 34, P6). The cuda group is
// rebuilt when the cuda module grows (its Python half imports lazily).
struct KeyTable {
  std::unordered_map<PyObject*, std::string> keys;
  std::vector<PyRef> keep;  // strong references to the keyed objects
  bool built = false;
};

struct KnownObjects {
  KeyTable basic, cuda, late;
  Py_ssize_t cuda_size = -1;
};

KnownObjects& known() {
  static KnownObjects* k = new KnownObjects();
  return *k;
}

bool worth_keying(PyObject* v) {
  // Plain data is frozen by value, not by identity.
  return !(v == Py_None || PyBool_Check(v) || PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v) ||
           PyBytes_Check(v) || PyTuple_Check(v) || PyList_Check(v) || PyDict_Check(v));
}

void add_key(KeyTable& k, PyObject* v, const std::string& key) {
  if (!worth_keying(v)) return;
  if (k.keys.emplace(v, key).second) k.keep.push_back(PyRef::borrow(v));
}

// The public (not underscored) names of `obj` with their values, in no
// particular order (walk keeps the least name for an object reached twice,
// as a walk in dir()'s order would). A module without __getattr__ or
// __dir__ answers dir() and getattr() from its __dict__, which is read
// directly: the dir() and one lookup per name cost a third of the first
// cached call of a process (issue 34, P6), and sorting the names another
// fifth of what was left.
std::vector<std::pair<std::string, PyRef>> public_members(PyObject* obj) {
  std::vector<std::pair<std::string, PyRef>> members;
  PyObject* dict = PyModule_CheckExact(obj) ? PyModule_GetDict(obj) : nullptr;  // borrowed
  if (dict && !PyDict_GetItemString(dict, "__getattr__") && !PyDict_GetItemString(dict, "__dir__")) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) continue;
      std::string n = py_str(key);
      if (n.empty() || n[0] == '_') continue;
      members.emplace_back(std::move(n), PyRef::borrow(value));
    }
    return members;
  }
  PyRef names(PyObject_Dir(obj));
  if (!names) {
    PyErr_Clear();
    return members;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(names.get()); ++i) {
    std::string n = py_str(PyList_GET_ITEM(names.get(), i));
    if (n.empty() || n[0] == '_') continue;
    PyRef v = py_attr(obj, n.c_str());
    if (v) members.emplace_back(std::move(n), std::move(v));
  }
  return members;
}

void walk(KeyTable& k, PyObject* obj, const std::string& prefix, int depth) {
  for (auto& [n, v] : public_members(obj)) {
    if (PyModule_Check(v.get())) {
      std::string mk = module_key(v.get());
      if (mk != "cuda" && mk.rfind("cuda.", 0) != 0) continue;  // numpy etc. re-exported: not ours
    }
    if (PyType_Check(v.get()) && depth > 0) continue;  // classes: keyed at the top level only
    std::string key = prefix + "." + n;
    // An object under two names keeps the one a walk in dir()'s (sorted)
    // order meets first: the least path. Plain string order is that order,
    // since '.' sorts before every character of an identifier.
    if (worth_keying(v.get())) {
      auto [it, added] = k.keys.emplace(v.get(), key);
      if (added)
        k.keep.push_back(PyRef::borrow(v.get()));
      else if (key < it->second)
        it->second = key;
    }
    // Descend only into the device-API namespaces: reading attributes of
    // host objects (cuda.gpus, cuda.config) could query devices.
    static const std::set<std::string> namespaces = {"atomic",    "shared",   "local",    "const",
                                                     "threadIdx", "blockIdx", "blockDim", "gridDim",
                                                     "libdevice", "wmma",     "mma"};
    if (depth > 0 && namespaces.count(n) && worth_keying(v.get()) && !PyType_Check(v.get()))
      walk(k, v.get(), key, depth - 1);
  }
}

void build_basic(KeyTable& k) {
  k.built = true;
  if (PyRef builtins = import("builtins")) {
    for (const char* n : {"abs", "min", "max", "round", "int", "float", "bool", "len", "range", "complex", "print",
                          "enumerate", "zip", "pow", "tuple"}) {
      if (PyRef v = py_attr(builtins.get(), n)) add_key(k, v.get(), std::string("builtins.") + n);
    }
  }
  if (PyRef op = import("operator")) {
    for (const char* n :
         {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and_", "or_", "xor"}) {
      if (PyRef v = py_attr(op.get(), n)) add_key(k, v.get(), std::string("operator.") + n);
    }
  }
  for (const char* mod : {"math", "cmath"}) {
    PyRef math = import(mod);
    if (!math) continue;
    PyRef names(PyObject_Dir(math.get()));
    for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(names.get()); ++i) {
      std::string n = py_str(PyList_GET_ITEM(names.get(), i));
      if (n.empty() || n[0] == '_') continue;
      PyRef v = py_attr(math.get(), n.c_str());
      if (v && PyCallable_Check(v.get())) add_key(k, v.get(), std::string(mod) + "." + n);
    }
  }
}

void build_late(KeyTable& k) {
  k.built = true;
  if (PyRef np = import("numpy")) {
    for (const char* n :
         {"sqrt",  "sin",      "cos",      "tan",   "arcsin",  "arccos", "arctan", "arctan2", "sinh",
          "cosh",  "tanh",     "exp",      "expm1", "exp2",    "log",    "log1p",  "log2",    "log10",
          "fabs",  "abs",      "absolute", "floor", "ceil",    "trunc",  "isnan",  "isinf",   "isfinite",
          "hypot", "copysign", "fmod",     "power", "minimum", "maximum"}) {
      if (PyRef v = py_attr(np.get(), n)) add_key(k, v.get(), std::string("numpy.") + n);
    }
  }
  if (PyRef builtins = import("builtins")) {  // folded by typing from compile-time types
    if (PyRef v = py_attr(builtins.get(), "isinstance")) add_key(k, v.get(), "builtins.isinstance");
  }
}

// The cuda group, walked again when the cuda module has grown.
void refresh_cuda(KnownObjects& k) {
  PyRef cuda = import("cuda");
  Py_ssize_t size = -1;
  if (cuda) {
    PyRef d = py_attr(cuda.get(), "__dict__");
    size = d ? PyDict_Size(d.get()) : -1;
  }
  if (size == k.cuda_size && k.cuda.built) return;
  k.cuda.keys.clear();
  k.cuda.keys.reserve(2048);
  k.cuda.keep.clear();
  k.cuda.built = true;
  k.cuda_size = size;
  if (cuda) walk(k.cuda, cuda.get(), "cuda", 1);
}

// The key of an object a kernel names by identity, or null.
const std::string* known_key(PyObject* value) {
  KnownObjects& k = known();
  if (!k.basic.built) build_basic(k.basic);
  if (auto it = k.basic.keys.find(value); it != k.basic.keys.end()) return &it->second;
  refresh_cuda(k);
  if (auto it = k.cuda.keys.find(value); it != k.cuda.keys.end()) return &it->second;
  if (!k.late.built) build_late(k.late);
  if (auto it = k.late.keys.find(value); it != k.late.keys.end()) return &it->second;
  return nullptr;
}

bool is_numpy_scalar_type(PyObject* obj, PyObject* np) {
  PyRef generic = py_attr(np, "generic");
  return generic && PyType_Check(obj) && PyType_Check(generic.get()) &&
         PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(obj), reinterpret_cast<PyTypeObject*>(generic.get()));
}

// numpy dtype object -> scalar type (nullptr when unsupported).
const ir::Type* dtype_scalar(PyObject* np, PyObject* dtype_like) {
  PyRef dtype_fn = py_attr(np, "dtype");
  if (!dtype_fn) return nullptr;
  PyRef dt(PyObject_CallFunctionObjArgs(dtype_fn.get(), dtype_like, nullptr));
  if (!dt) {
    PyErr_Clear();
    return nullptr;
  }
  std::string name = py_str(py_attr(dt.get(), "name").get());
  return ir::scalar_by_name(name);
}

bool freeze_constant(PyObject* v, PyObject* np, ir::ConstValue* out) {
  if (v == Py_None) {
    *out = ir::ConstValue::none();
    return true;
  }
  if (PyBool_Check(v)) {
    *out = ir::ConstValue::boolean(v == Py_True);
    return true;
  }
  if (PyLong_Check(v)) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (!overflow) {
      *out = ir::ConstValue::integer(x);
      return true;
    }
    unsigned long long u = PyLong_AsUnsignedLongLong(v);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    *out = ir::ConstValue::unsigned_integer(u);
    return true;
  }
  if (PyFloat_Check(v)) {
    *out = ir::ConstValue::floating(PyFloat_AsDouble(v));
    return true;
  }
  if (PyComplex_Check(v)) {
    *out = ir::ConstValue::complex({PyComplex_RealAsDouble(v), PyComplex_ImagAsDouble(v)});
    return true;
  }
  if (PyUnicode_Check(v)) {
    *out = ir::ConstValue::string(py_str(v));
    return true;
  }
  if (PyTuple_Check(v)) {
    std::vector<ir::ConstValue> items;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i) {
      ir::ConstValue c;
      if (!freeze_constant(PyTuple_GET_ITEM(v, i), np, &c)) return false;
      items.push_back(std::move(c));
    }
    *out = ir::ConstValue::tuple(std::move(items));
    return true;
  }
  // NumPy scalars keep their type.
  if (np) {
    PyRef generic = py_attr(np, "generic");
    if (generic && PyObject_IsInstance(v, generic.get()) == 1) {
      PyRef dt = py_attr(v, "dtype");
      const ir::Type* t = dt ? ir::scalar_by_name(py_str(py_attr(dt.get(), "name").get())) : nullptr;
      if (!t) return false;
      PyRef item(PyObject_CallMethod(v, "item", nullptr));
      if (!item) {
        PyErr_Clear();
        return false;
      }
      if (t->kind == ir::TypeKind::Boolean) {
        *out = ir::ConstValue::boolean(PyObject_IsTrue(item.get()) == 1);
      } else if (t->is_integer()) {
        if (t->is_signed) {
          *out = ir::ConstValue::integer(PyLong_AsLongLong(item.get()), t);
        } else {
          *out = ir::ConstValue::unsigned_integer(PyLong_AsUnsignedLongLong(item.get()), t);
        }
      } else if (t->is_float()) {
        *out = ir::ConstValue::floating(PyFloat_AsDouble(item.get()), t);
      } else {
        *out = ir::ConstValue::complex({PyComplex_RealAsDouble(item.get()), PyComplex_ImagAsDouble(item.get())}, t);
      }
      if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      return true;
    }
  }
  return false;
}

bool freeze_array(PyObject* v, PyObject* np, GlobalValue* out) {
  PyRef ndarray = py_attr(np, "ndarray");
  if (!ndarray || PyObject_IsInstance(v, ndarray.get()) != 1) return false;
  PyRef dt = py_attr(v, "dtype");
  const ir::Type* t = dt ? ir::scalar_by_name(py_str(py_attr(dt.get(), "name").get())) : nullptr;
  // A structured dtype: an array of records (its bytes are the records').
  if (!t && dt && PyObject_HasAttrString(dt.get(), "names") && py_attr(dt.get(), "names").get() != Py_None)
    t = record_type_of(dt.get());
  if (PyErr_Occurred()) PyErr_Clear();
  if (!t) return false;
  PyRef contiguous(PyObject_CallMethod(np, "ascontiguousarray", "O", v));
  if (!contiguous) {
    PyErr_Clear();
    return false;
  }
  PyRef bytes(PyObject_CallMethod(contiguous.get(), "tobytes", nullptr));
  PyRef shape = py_attr(contiguous.get(), "shape");
  if (!bytes || !shape) {
    PyErr_Clear();
    return false;
  }
  auto arr = std::make_shared<ir::ArrayConstant>();
  arr->dtype = t;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(shape.get()); ++i)
    arr->shape.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(shape.get(), i)));
  std::int64_t stride = t->byte_size();
  arr->strides.assign(arr->shape.size(), 0);
  for (size_t i = arr->shape.size(); i-- > 0;) {
    arr->strides[i] = stride;
    stride *= arr->shape[i];
  }
  const char* data = PyBytes_AS_STRING(bytes.get());
  arr->data.assign(data, data + PyBytes_GET_SIZE(bytes.get()));
  out->kind = GlobalValue::Kind::Array;
  out->array = std::move(arr);
  return true;
}

// An object exporting __cuda_array_interface__ (a DeviceNDArray, CuPy, ...)
// of a scalar dtype, captured by address.
bool freeze_device_array(PyObject* v, PyObject* np, GlobalValue* out) {
  if (PyType_Check(v) || PyModule_Check(v)) return false;
  PyObject* iface = nullptr;
  static PyObject* name = PyUnicode_InternFromString("__cuda_array_interface__");
  if (_PyObject_LookupAttr(v, name, &iface) <= 0 || !PyDict_Check(iface)) {
    PyErr_Clear();
    Py_XDECREF(iface);
    return false;
  }
  PyRef d(iface);
  PyObject* shape = PyDict_GetItemString(iface, "shape");
  PyObject* typestr = PyDict_GetItemString(iface, "typestr");
  PyObject* data = PyDict_GetItemString(iface, "data");
  PyObject* strides = PyDict_GetItemString(iface, "strides");
  if (!shape || !PyTuple_Check(shape) || !typestr || !data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2)
    return false;
  PyRef dtype(PyObject_CallMethod(np, "dtype", "O", typestr));
  const ir::Type* t = dtype ? ir::scalar_by_name(py_str(py_attr(dtype.get(), "name").get())) : nullptr;
  if (!t) {
    PyErr_Clear();
    return false;
  }
  auto ref = std::make_shared<DeviceArrayRef>();
  ref->dtype = t;
  ref->address = static_cast<std::uintptr_t>(PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data, 0)));
  ref->readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1)) == 1;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(shape); ++i)
    ref->shape.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i)));
  if (strides && strides != Py_None && PyTuple_Check(strides)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(strides); ++i)
      ref->strides.push_back(PyLong_AsLongLong(PyTuple_GET_ITEM(strides, i)));
  } else {
    std::int64_t stride = t->byte_size();
    ref->strides.assign(ref->shape.size(), 0);
    for (size_t i = ref->shape.size(); i-- > 0;) {
      ref->strides[i] = stride;
      stride *= std::max<std::int64_t>(ref->shape[i], 1);
    }
  }
  if (PyErr_Occurred() || ref->strides.size() != ref->shape.size()) {
    PyErr_Clear();
    return false;
  }
  Py_INCREF(v);
  ref->owner = std::shared_ptr<void>(v, [](void* o) {
    if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing to release
    PyGILState_STATE st = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(o));
    PyGILState_Release(st);
  });
  out->kind = GlobalValue::Kind::DeviceArray;
  out->device_array = std::move(ref);
  return true;
}

// enum.Enum, imported once.
PyObject* enum_base() {
  static PyObject* base = [] {
    PyRef m = import("enum");
    PyObject* b = m ? PyObject_GetAttrString(m.get(), "Enum") : nullptr;
    if (!b) PyErr_Clear();
    return b;
  }();
  return base;
}

// The Enum class of each member type made (interned types: one per class
// and value type). Touched only with the GIL held.
std::map<const ir::Type*, PyObject*>& enum_classes() {
  static auto* classes = new std::map<const ir::Type*, PyObject*>();
  return *classes;
}

// The values an enum member may hold in kernels: numbers, booleans and
// tuples of them (members compare by value; strings have no runtime value).
bool is_enum_value_type(const ir::Type* t) {
  if (t->is_tuple()) return std::all_of(t->elements.begin(), t->elements.end(), is_enum_value_type);
  return t->is_scalar();
}

bool is_enum_class(PyObject* v) {
  PyObject* base = enum_base();
  bool is = base && PyType_Check(v) && v != base && PyObject_IsSubclass(v, base) == 1;
  if (PyErr_Occurred()) PyErr_Clear();
  return is;
}

}  // namespace

const ir::Type* enum_member_type(PyObject* value) {
  PyObject* base = enum_base();
  if (!base || PyType_Check(value) || PyObject_IsInstance(value, base) != 1) {
    PyErr_Clear();
    return nullptr;
  }
  PyRef payload = py_attr(value, "value");
  ir::ConstValue c;
  if (!payload || !freeze_constant(payload.get(), nullptr, &c) || !c.type || !is_enum_value_type(c.type)) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* cls = reinterpret_cast<PyObject*>(Py_TYPE(value));
  bool is_int = PyLong_Check(value);
  std::string name = py_str(py_attr(cls, "__qualname__").get());
  const ir::Type* value_type = is_int ? ir::int64() : c.type;
  // numba's spelling: Enum<int64>(Color), IntEnum<int64>(Shape).
  std::string display =
      concat(is_int ? "IntEnum<" : "Enum<", value_type->str(), ">(", py_str(py_attr(cls, "__name__").get()), ")");
  std::string identity =
      concat(py_str(py_attr(cls, "__module__").get()), ".", name, "@", reinterpret_cast<std::uintptr_t>(cls));
  if (PyErr_Occurred()) PyErr_Clear();
  const ir::Type* t = ir::enum_member(identity, display, is_int, value_type);
  // The class is kept alive so that its identity (its address) stays unique,
  // and so that results of the type can be boxed as its members.
  auto& classes = enum_classes();
  if (classes.emplace(t, cls).second) Py_INCREF(cls);
  return t;
}

PyObject* enum_class_of(const ir::Type* t) {
  auto it = enum_classes().find(t);
  return it == enum_classes().end() ? nullptr : it->second;
}

GlobalValue freeze_global(PyObject* value) {
  GlobalValue g;
  g.repr = py_repr(value);
  // An enum member is a constant of its class's member type holding its value.
  if (const ir::Type* et = enum_member_type(value)) {
    PyRef payload = py_attr(value, "value");
    if (payload && freeze_constant(payload.get(), nullptr, &g.constant)) {
      if (ir::is_int_enum(et)) g.constant = ir::ConstValue::integer(g.constant.i);
      g.constant.type = et;
      g.kind = GlobalValue::Kind::Constant;
      return g;
    }
    PyErr_Clear();
  }
  PyRef np(PyImport_ImportModule("numpy"));
  if (!np) PyErr_Clear();
  if (freeze_constant(value, np.get(), &g.constant)) {
    g.kind = GlobalValue::Kind::Constant;
    return g;
  }
  if (np && freeze_array(value, np.get(), &g)) return g;
  // A tuple of NumPy arrays (and constants): each element frozen in turn, so
  // `for a in literal_unroll(arrays)` and `arrays[1]` read constant arrays.
  if (PyTuple_Check(value)) {
    bool ok = true;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value) && ok; ++i) {
      GlobalValue item = freeze_global(PyTuple_GET_ITEM(value, i));
      ok = item.kind == GlobalValue::Kind::Constant || item.kind == GlobalValue::Kind::Array ||
           item.kind == GlobalValue::Kind::Tuple;
      g.items.push_back(std::move(item));
    }
    if (ok) {
      g.kind = GlobalValue::Kind::Tuple;
      return g;
    }
    g.items.clear();
  }
  if (np && freeze_device_array(value, np.get(), &g)) return g;
  if (PyModule_Check(value)) {
    g.kind = GlobalValue::Kind::Module;
    g.key = module_key(value);
    return g;
  }
  // An Enum class is a namespace of its members: capture freezes
  // `Cls.member` and `Cls["member"]` like attributes of a user module.
  if (is_enum_class(value)) {
    g.kind = GlobalValue::Kind::Module;
    g.key = "enum " + py_str(py_attr(value, "__qualname__").get());  // never a known namespace
    return g;
  }
  if (std::string refusal = jit_function_refusal(value); !refusal.empty()) {
    g.kind = GlobalValue::Kind::Unsupported;
    g.refusal = std::move(refusal);
    return g;
  }
  if (auto fn = jit_function_of(value)) {
    g.kind = GlobalValue::Kind::JitFunction;
    g.function = std::move(fn);
    return g;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  if (auto ff = foreign_function_of(value)) {
    g.kind = GlobalValue::Kind::Foreign;
    g.foreign = std::move(ff);
    return g;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  // Type objects (cuda.types, a TypeHandle) name their engine type.
  if (const ir::Type* t = type_of_typed_object(value)) {
    g.type_object = t;
    g.kind = GlobalValue::Kind::TypeObject;
    return g;
  }
  if (np && is_numpy_scalar_type(value, np.get())) {
    if (const ir::Type* t = dtype_scalar(np.get(), value)) {
      g.kind = GlobalValue::Kind::TypeObject;
      g.type_object = t;
      return g;
    }
  }
  if (np) {
    PyRef dtype_cls = py_attr(np.get(), "dtype");
    if (dtype_cls && PyObject_IsInstance(value, dtype_cls.get()) == 1) {
      const ir::Type* t = dtype_scalar(np.get(), value);
      if (!t) t = record_type_of(value);  // a structured dtype: its record type
      if (t) {
        g.kind = GlobalValue::Kind::TypeObject;
        g.type_object = t;
        return g;
      }
    }
    if (PyErr_Occurred()) PyErr_Clear();
  }
  // cffi.FFI() instances and cuda.ffi.
  {
    PyObject* cls = reinterpret_cast<PyObject*>(Py_TYPE(value));
    std::string cls_name = py_str(py_attr(cls, "__name__").get());
    std::string cls_mod = py_str(py_attr(cls, "__module__").get());
    if (cls_name == "FFI" &&
        (cls_mod.rfind("cffi", 0) == 0 || cls_mod.rfind("cuda", 0) == 0 || cls_mod.rfind("_cuhost", 0) == 0)) {
      g.kind = GlobalValue::Kind::Ffi;
      return g;
    }
  }
  // Device-only functions defined in Python (cuda.fp16.hadd, the bf16
  // bindings) name the engine intrinsic they stand for.
  if (!PyType_Check(value)) {
    if (PyRef key = py_attr(value, "_cuhost_intrinsic"); key && PyUnicode_Check(key.get())) {
      g.kind = GlobalValue::Kind::Intrinsic;
      g.key = py_str(key.get());
      return g;
    }
    if (PyErr_Occurred()) PyErr_Clear();
  }
  if (const std::string* key = known_key(value)) {
    g.kind = *key == "cuda.ffi" ? GlobalValue::Kind::Ffi : GlobalValue::Kind::Intrinsic;
    g.key = *key;
    return g;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  if (auto ext = extension_object_of(value)) {
    g.kind = GlobalValue::Kind::Extension;
    g.extension = std::move(ext);
    return g;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  if (PyType_Check(value) &&
      PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(value), reinterpret_cast<PyTypeObject*>(PyExc_BaseException))) {
    g.kind = GlobalValue::Kind::Intrinsic;  // raise X / raise X(...): sema/typing/exceptions.cpp
    g.key = exception_key(value);
    return g;
  }
  g.kind = GlobalValue::Kind::Unsupported;
  return g;
}

}  // namespace cuhost::frontend
