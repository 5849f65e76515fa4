// The options of @cuda.jit with numba-cuda's semantics and errors: device,
// inline, forceinline, fastmath (a bool or a set of LLVM flag names), debug,
// lineinfo, opt, link, lto, cache, max_registers, launch_bounds,
// shared_memory_carveout, extensions (kept by the dispatcher), abi,
// abi_info. An option cuhost cannot give its effect raises
// NotImplementedError naming it.
#include <cctype>
#include <iterator>
#include <string>
#include <vector>

#include "model/fastmath_flags.h"
#include "python/dispatcher.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/typeof.h"
#include "support/diagnostics.h"

namespace cuhost::python {
namespace {

// The options cuda.jit accepts: the one list, also Python's
// (`_cuhost.jit_option_names()`, used by cuda/compiler.py).
constexpr const char* kOptionNames[] = {"device",
                                        "inline",
                                        "forceinline",
                                        "fastmath",
                                        "debug",
                                        "lineinfo",
                                        "opt",
                                        "link",
                                        "lto",
                                        "cache",
                                        "max_registers",
                                        "launch_bounds",
                                        "cluster_dim",
                                        "shared_memory_carveout",
                                        "extensions",
                                        "abi",
                                        "abi_info",
                                        "_dbg_optnone",
                                        "_dbg_extend_lifetimes"};

std::string known_options() {
  std::string out;
  for (const char* name : kOptionNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

PyObject* py_jit_option_names(PyObject*, PyObject*) {
  PyRef names(PyTuple_New(static_cast<Py_ssize_t>(std::size(kOptionNames))));
  if (!names) return nullptr;
  for (size_t i = 0; i < std::size(kOptionNames); ++i) {
    PyObject* s = PyUnicode_FromString(kOptionNames[i]);
    if (!s) return nullptr;
    PyTuple_SET_ITEM(names.get(), static_cast<Py_ssize_t>(i), s);
  }
  return names.release();
}

PyMethodDef g_methods[] = {{"jit_option_names", py_jit_option_names, METH_NOARGS,
                            "The option names cuda.jit accepts, in the order its error message lists them"},
                           {nullptr, nullptr, 0, nullptr}};

bool truthy(PyObject* v) {
  int t = PyObject_IsTrue(v);
  if (t < 0) throw UserError(ErrorKind::TypeError, "option value has no truth value");
  return t == 1;
}

std::string str_or_empty(PyObject* v) { return PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : std::string(); }

std::string repr_of(PyObject* v) {
  PyRef r(PyObject_Repr(v));
  std::string out = r && PyUnicode_Check(r.get()) ? PyUnicode_AsUTF8(r.get()) : "?";
  PyErr_Clear();
  return out;
}

// fastmath=True/False, or a set (any iterable) of LLVM fast-math flag names.
void parse_fastmath(PyObject* value, model::JitOptions* o) {
  if (PyBool_Check(value) || value == Py_None || PyLong_Check(value)) {
    o->fastmath = value != Py_None && truthy(value);
    return;
  }
  if (PyUnicode_Check(value) || !PyObject_HasAttrString(value, "__iter__"))
    throw UserError(ErrorKind::TypeError,
                    concat("fastmath must be a bool or a set of flag names, not ", Py_TYPE(value)->tp_name));
  PyRef it(PyObject_GetIter(value));
  if (!it) {
    PyErr_Clear();
    throw UserError(ErrorKind::TypeError, "fastmath must be a bool or a set of flag names");
  }
  unsigned bits = 0;
  while (PyRef x{PyIter_Next(it.get())}) {
    std::string name = str_or_empty(x.get());
    unsigned bit = model::fast_math_flag(name);
    if (!bit) {
      throw UserError(ErrorKind::ValueError, concat("Unrecognized fastmath flag: ", name.empty() ? "?" : name,
                                                    " (valid flags: ", model::fast_math_flag_names(), ")"));
    }
    bits |= bit;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  o->fastmath_flags = bits;
}

// The items of an option given as one int or as a tuple or list of them
// (not yet checked); a TypeError "<what>, not <type>" for anything else.
std::vector<PyObject*> int_or_sequence_items(PyObject* value, const char* what) {
  std::vector<PyObject*> items;
  if (PyLong_Check(value) && !PyBool_Check(value)) {
    items.push_back(value);
  } else if (PyTuple_Check(value) || PyList_Check(value)) {
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(value); ++i)
      items.push_back(PySequence_Fast_GET_ITEM(value, i));
  } else {
    throw UserError(ErrorKind::TypeError, concat(what, ", not ", Py_TYPE(value)->tp_name));
  }
  return items;
}

// launch_bounds=None, an int, or a tuple of up to three ints (numba-cuda's
// max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster).
void parse_launch_bounds(PyObject* value, model::JitOptions* o) {
  if (value == Py_None) return;
  std::vector<PyObject*> items = int_or_sequence_items(value, "launch_bounds must be an int or a tuple of ints");
  if (items.size() > 3)
    throw UserError(ErrorKind::ValueError,
                    concat("Got ", items.size(), " launch bounds: ", repr_of(value),
                           ". A maximum of three are supported: (max_threads_per_block, min_blocks_per_sm, "
                           "max_blocks_per_cluster)"));
  for (size_t i = 0; i < items.size(); ++i) {
    if (!PyLong_Check(items[i]) || PyBool_Check(items[i]))
      throw UserError(ErrorKind::TypeError, concat("launch bounds must be ints, got ", repr_of(value)));
    long v = PyLong_AsLong(items[i]);
    if (v <= 0 || v > (1 << 30)) {
      PyErr_Clear();
      throw UserError(ErrorKind::ValueError, concat("launch bounds must be positive ints, got ", repr_of(value)));
    }
    o->launch_bounds[i] = static_cast<int>(v);
  }
}

// cluster_dim=None, an int or a tuple of up to three ints: the shape of the
// thread-block clusters the kernel is launched in (docs/HOPPER.md), at most
// the 8 blocks CUDA guarantees (the portable cluster size).
void parse_cluster_dim(PyObject* value, model::JitOptions* o) {
  if (value == Py_None) return;
  std::vector<PyObject*> items =
      int_or_sequence_items(value, "cluster_dim must be an int or a tuple of up to three ints");
  if (items.empty() || items.size() > 3)
    throw UserError(ErrorKind::ValueError,
                    concat("cluster_dim must have one to three dimensions, got ", repr_of(value)));
  long total = 1;
  for (size_t i = 0; i < items.size(); ++i) {
    long v = PyLong_Check(items[i]) && !PyBool_Check(items[i]) ? PyLong_AsLong(items[i]) : -1;
    if (v <= 0 || v > 8) {
      PyErr_Clear();
      throw UserError(ErrorKind::ValueError, concat("cluster_dim must be positive ints, got ", repr_of(value)));
    }
    o->cluster_dim[i] = static_cast<unsigned>(v);
    total *= v;
  }
  if (total > 8)
    throw UserError(ErrorKind::ValueError, concat("cluster_dim ", repr_of(value), " makes clusters of ", total,
                                                  " blocks, more than the portable limit of 8 blocks per cluster"));
}

// shared_memory_carveout: an int percentage (-1 = the driver's default), or
// "default", "MaxL1", "MaxShared" (any case).
int parse_carveout(PyObject* value) {
  if (PyLong_Check(value) && !PyBool_Check(value)) {
    long v = PyLong_AsLong(value);
    if (PyErr_Occurred() || v < -1 || v > 100) {
      PyErr_Clear();
      throw UserError(ErrorKind::ValueError,
                      concat("Carveout value ", repr_of(value), " is invalid: it must be between -1 and 100"));
    }
    return static_cast<int>(v);
  }
  if (PyUnicode_Check(value)) {
    std::string s = str_or_empty(value);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "default") return -1;
    if (s == "maxl1") return 0;
    if (s == "maxshared") return 100;
  }
  throw UserError(ErrorKind::ValueError,
                  concat("Invalid carveout value: ", repr_of(value),
                         " (expected an int from -1 to 100, 'default', 'MaxL1' or 'MaxShared')"));
}

}  // namespace

model::JitOptions parse_jit_options(PyObject* options) {
  model::JitOptions o;
  if (!options || options == Py_None) return o;
  if (!PyDict_Check(options)) throw UserError(ErrorKind::TypeError, "jit options must be a dict");
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(options, &pos, &key, &value)) {
    std::string k = str_or_empty(key);
    if (k == "device") {
      o.device = truthy(value);
    } else if (k == "inline") {
      if (PyUnicode_Check(value)) {
        std::string s = str_or_empty(value);
        if (s != "always" && s != "never")
          throw UserError(ErrorKind::ValueError,
                          concat("inline must be True, False, 'always' or 'never', not '", s, "'"));
        o.inline_always = s == "always";
      } else if (PyCallable_Check(value)) {
        // numba calls a cost model with its own IR at each call site; cuhost has no such IR to give it.
        throw UserError(ErrorKind::NotImplementedError,
                        "inline=<cost model function> is not implemented in cuhost yet: use inline=True/'always' "
                        "or False/'never'");
      } else {
        o.inline_always = value != Py_None && truthy(value);
      }
    } else if (k == "forceinline") {
      o.forceinline = truthy(value);
    } else if (k == "fastmath") {
      parse_fastmath(value, &o);
    } else if (k == "launch_bounds") {
      parse_launch_bounds(value, &o);
    } else if (k == "cluster_dim") {
      parse_cluster_dim(value, &o);
    } else if (k == "shared_memory_carveout") {
      o.shared_memory_carveout = parse_carveout(value);
    } else if (k == "extensions") {
      // Kept by the dispatcher itself (DispatcherObject::extensions).
      if (value != Py_None && !PySequence_Check(value))
        throw UserError(ErrorKind::TypeError, concat("cuda.jit(extensions=...) must be a sequence of extensions, not ",
                                                     Py_TYPE(value)->tp_name));
    } else if (k == "debug") {
      o.debug = truthy(value);
    } else if (k == "_dbg_optnone") {
      o.dbg_optnone = truthy(value);
    } else if (k == "_dbg_extend_lifetimes") {
      // Variables keep their stack slots for the whole function whenever
      // optimization is off, which debug=True usually goes with: accepted.
      (void)value;
    } else if (k == "lineinfo") {
      o.lineinfo = truthy(value);
    } else if (k == "cache") {
      o.cache = truthy(value);
      o.cache_requested = o.cache;
    } else if (k == "opt") {
      if (PyBool_Check(value)) {
        o.opt = value == Py_True ? 3 : 0;
      } else if (PyLong_Check(value)) {
        long v = PyLong_AsLong(value);
        if (v < 0 || v > 3) throw UserError(ErrorKind::ValueError, concat("opt must be 0..3 or a bool, not ", v));
        o.opt = static_cast<int>(v);
      } else {
        throw UserError(ErrorKind::TypeError, concat("opt must be a bool or an int, not ", Py_TYPE(value)->tp_name));
      }
    } else if (k == "link") {
      o.link = link_items_from_object(value);
    } else if (k == "lto") {
      if (value == Py_None)
        o.lto.reset();
      else
        o.lto = truthy(value);
    } else if (k == "max_registers") {
      if (value == Py_None) {
        o.max_registers = 0;
      } else if (PyLong_Check(value) && !PyBool_Check(value)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow || v <= 0 || v > (1 << 20)) {
          PyErr_Clear();
          std::string shown = repr_of(value);
          throw UserError(ErrorKind::ValueError, concat("max_registers must be a positive int, not ", shown));
        }
        o.max_registers = static_cast<int>(v);
      } else {
        throw UserError(ErrorKind::TypeError, concat("max_registers must be an int, not ", Py_TYPE(value)->tp_name));
      }
    } else if (k == "abi") {
      std::string s = str_or_empty(value);
      if (s == "numba")
        o.abi = ir::Abi::Numba;
      else if (s == "c")
        o.abi = ir::Abi::C;
      else
        throw UserError(ErrorKind::NotImplementedError,
                        concat("Unsupported ABI: ", s.empty() ? python_type_name(value) : s));
    } else if (k == "abi_info") {
      if (value == Py_None) continue;
      if (!PyDict_Check(value)) throw UserError(ErrorKind::TypeError, "abi_info must be a dict");
      PyObject* name = PyDict_GetItemString(value, "abi_name");
      if (name) {
        if (!PyUnicode_Check(name)) throw UserError(ErrorKind::TypeError, "abi_info['abi_name'] must be a str");
        o.abi_name = str_or_empty(name);
      }
    } else {
      throw UserError(ErrorKind::TypeError,
                      concat("cuda.jit() got an unexpected option '", k, "' (known: ", known_options(), ")"));
    }
  }
  if (!o.device && o.abi == ir::Abi::C)
    throw UserError(ErrorKind::NotImplementedError, "The C ABI is not supported for kernels");
  return o;
}

int add_jit_options(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
