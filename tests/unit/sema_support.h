// Helpers for the typing and capture unit tests: an embedded interpreter,
// Python sources written to real files (so inspect.getsource finds them),
// capture of a named function and inference with chosen argument types.
#pragma once

#include <Python.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "frontend/capture.h"
#include "ir/type_parser.h"
#include "python/interpreter.h"
#include "sema/infer.h"
#include "support/install_layout.h"

namespace cuhost::testing {

inline void ensure_python() {
  static bool done = [] {
    python::initialize_interpreter({support::python_dir(), {}, {}});
    return true;
  }();
  (void)done;
}

// Holds the GIL for a scope.
struct Gil {
  Gil() : state((ensure_python(), PyGILState_Ensure())) {}
  ~Gil() { PyGILState_Release(state); }
  PyGILState_STATE state;
};

inline std::string python_error() {
  PyObject *t, *v, *tb;
  PyErr_Fetch(&t, &v, &tb);
  std::string out = "python error";
  if (v) {
    PyObject* s = PyObject_Str(v);
    if (s) {
      out = PyUnicode_AsUTF8(s);
      Py_DECREF(s);
    }
  }
  Py_XDECREF(t);
  Py_XDECREF(v);
  Py_XDECREF(tb);
  return out;
}

// Executes `source` as a module stored in a fresh file; returns its globals
// (a new reference, kept alive for the process: captured functions point
// into them) and the file path in *path.
inline PyObject* load_module(const std::string& source, std::string* path_out = nullptr) {
  ensure_python();
  static int counter = 0;
  std::string path = "/tmp/cuhost_sema_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".py";
  {
    std::ofstream out(path);
    out << source;
  }
  if (path_out) *path_out = path;
  PyObject* globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  PyObject* name = PyUnicode_FromString("cuhost_sema_test");
  PyDict_SetItemString(globals, "__name__", name);
  Py_DECREF(name);
  PyObject* code = Py_CompileString(source.c_str(), path.c_str(), Py_file_input);
  if (!code) FAIL("compile failed: " << python_error());
  PyObject* r = PyEval_EvalCode(code, globals, globals);
  Py_DECREF(code);
  if (!r) FAIL("exec failed: " << python_error());
  Py_DECREF(r);
  return globals;
}

inline std::shared_ptr<model::JitFunction> jit_of(PyObject* globals, const std::string& fname) {
  PyObject* obj = PyDict_GetItemString(globals, fname.c_str());
  REQUIRE(obj != nullptr);
  if (auto fn = frontend::jit_function_of(obj)) return fn;
  auto fn = std::make_shared<model::JitFunction>();
  fn->name = fname;
  fn->captured = frontend::capture(obj);
  return fn;
}

inline std::vector<const ir::Type*> types_of(const std::vector<std::string>& spellings) {
  std::vector<const ir::Type*> out;
  for (const auto& s : spellings) out.push_back(ir::parse_type(s));
  return out;
}

// Captures `fname` from `source` and infers it for `args` (type spellings).
inline std::shared_ptr<const sema::TypedFunction> infer_source(const std::string& source, const std::string& fname,
                                                               const std::vector<std::string>& args,
                                                               bool kernel = false) {
  Gil gil;
  PyObject* globals = load_module(source);
  auto fn = jit_of(globals, fname);
  auto types = types_of(args);
  return kernel ? sema::infer_kernel(fn, types) : sema::infer_device(fn, types);
}

inline std::string local_type(const sema::TypedFunction& tf, const std::string& name) {
  auto it = tf.locals.find(name);
  return it == tf.locals.end() ? std::string("<missing>") : it->second->str();
}

}  // namespace cuhost::testing
