// Source text of code that exec() and compile() were given as a string.
// cuhost compiles a kernel from its source, and a function made by
// exec("def k(a): ...") has no file that holds it ("<string>"), where
// numba-cuda, working from bytecode, compiles it all the same. Once `cuda` is
// imported, builtins.exec and builtins.compile are wrapped: given source
// text, they remember it for every code object compiled from it (nested
// functions included), and capture (frontend/capture.cpp) reads it back by
// code object. The wrappers are C functions, so the calling Python frame
// stays the caller's: exec() with no namespace and compile()'s inherited
// __future__ flags behave exactly as before.
//
// The text is remembered by the code object's identity for as long as the
// code object lives (a weak reference whose callback forgets it): a script
// that execs source in a loop, or a library that execs (namedtuple,
// dataclasses), must not keep every code object and text for the process.
#include "python/exec_sources.h"

#include <Python.h>

#include <string>

#include "frontend/capture.h"
#include "python/dispatcher.h"
#include "python/py_api.h"

namespace cuhost::python {
namespace {

// dict: the code object's address (int) -> (weak reference to it, source text)
PyObject* g_sources = nullptr;
PyObject* g_exec = nullptr;  // the original builtins
PyObject* g_compile = nullptr;

// A code object died: its entry goes, unless a newer code object at the same
// address replaced it (the entry's weak reference is then another one).
PyObject* forget(PyObject* key, PyObject* weak) {
  if (!g_sources) Py_RETURN_NONE;                             // released at the interpreter's end
  PyObject* entry = PyDict_GetItemWithError(g_sources, key);  // borrowed
  if (entry && PyTuple_GET_ITEM(entry, 0) == weak && PyDict_DelItem(g_sources, key) < 0) return nullptr;
  if (!entry && PyErr_Occurred()) return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef g_forget_def = {"_forget_exec_source", forget, METH_O, nullptr};

// Maps `code` and every code object nested in its constants to `source`.
int remember(PyObject* code, PyObject* source) {
  if (!g_sources || !PyCode_Check(code)) return 0;
  PyRef key(PyLong_FromVoidPtr(code));
  PyRef callback(key ? PyCFunction_New(&g_forget_def, key.get()) : nullptr);
  PyRef weak(callback ? PyWeakref_NewRef(code, callback.get()) : nullptr);
  PyRef entry(weak ? PyTuple_Pack(2, weak.get(), source) : nullptr);
  if (!entry || PyDict_SetItem(g_sources, key.get(), entry.get()) < 0) return -1;
  PyObject* consts = reinterpret_cast<PyCodeObject*>(code)->co_consts;
  for (Py_ssize_t i = 0; consts && i < PyTuple_GET_SIZE(consts); ++i)
    if (remember(PyTuple_GET_ITEM(consts, i), source) < 0) return -1;
  return 0;
}

PyObject* source_argument(PyObject* args, PyObject* kwargs) {
  PyObject* source = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : nullptr;
  if (!source && kwargs) source = PyDict_GetItemString(kwargs, "source");
  return source && PyUnicode_Check(source) ? source : nullptr;
}

PyObject* recording_compile(PyObject*, PyObject* args, PyObject* kwargs) {
  PyRef result(PyObject_Call(g_compile, args, kwargs));
  PyObject* source = result ? source_argument(args, kwargs) : nullptr;
  if (source && remember(result.get(), source) < 0) return nullptr;
  return result.release();
}

PyObject* recording_exec(PyObject*, PyObject* args, PyObject* kwargs) {
  PyObject* source = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : nullptr;
  if (!source || !PyUnicode_Check(source)) return PyObject_Call(g_exec, args, kwargs);
  // exec(text) compiles as "<string>" with the caller's __future__ flags;
  // compile() called from here inherits the same flags (this frame is the
  // caller's), so the code is the one exec would have made.
  PyRef code(PyObject_CallFunction(g_compile, "Oss", source, "<string>", "exec"));
  if (!code || remember(code.get(), source) < 0) return nullptr;
  PyRef head(PyTuple_Pack(1, code.get()));
  PyRef rest(PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args)));
  PyRef call_args(head && rest ? PySequence_Concat(head.get(), rest.get()) : nullptr);
  if (!call_args) return nullptr;
  return PyObject_Call(g_exec, call_args.get(), kwargs);
}

PyMethodDef g_exec_def = {"exec", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(recording_exec)),
                          METH_VARARGS | METH_KEYWORDS,
                          "exec(source, globals=None, locals=None, /, *, closure=None): Python's exec; source text "
                          "is remembered so that kernels it defines can be compiled by cuhost."};
PyMethodDef g_compile_def = {"compile", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(recording_compile)),
                             METH_VARARGS | METH_KEYWORDS,
                             "compile(source, filename, mode, ...): Python's compile; source text is remembered so "
                             "that kernels it defines can be compiled by cuhost."};

// Wraps builtins.exec and builtins.compile once per process.
PyObject* install(PyObject*, PyObject*) {
  if (g_exec) Py_RETURN_NONE;                 // once per process (the table itself is released at the end)
  PyObject* builtins = PyEval_GetBuiltins();  // borrowed
  g_exec = PyDict_GetItemString(builtins, "exec");
  g_compile = PyDict_GetItemString(builtins, "compile");
  if (!g_exec || !g_compile) return PyErr_Format(PyExc_RuntimeError, "builtins.exec or builtins.compile missing");
  Py_INCREF(g_exec);
  Py_INCREF(g_compile);
  g_sources = PyDict_New();
  PyRef exec(PyCFunction_New(&g_exec_def, nullptr));
  PyRef compile(PyCFunction_New(&g_compile_def, nullptr));
  if (!exec || !compile || PyDict_SetItemString(builtins, "exec", exec.get()) < 0 ||
      PyDict_SetItemString(builtins, "compile", compile.get()) < 0)
    return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef g_methods[] = {
    {"_record_exec_sources", install, METH_NOARGS,
     "Wraps builtins.exec and builtins.compile so that kernels defined in source text can be compiled."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_exec_sources(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

void release_exec_sources() { Py_CLEAR(g_sources); }

}  // namespace cuhost::python

namespace cuhost::frontend {

std::string exec_source_of(PyObject* code) {
  if (!python::g_sources || !code) return {};
  python::PyRef key(PyLong_FromVoidPtr(code));
  PyObject* entry = key ? PyDict_GetItemWithError(python::g_sources, key.get()) : nullptr;  // borrowed
  if (!entry || PyWeakref_GetObject(PyTuple_GET_ITEM(entry, 0)) != code) {
    PyErr_Clear();
    return {};
  }
  PyObject* text = PyTuple_GET_ITEM(entry, 1);
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(text, &size);
  if (!utf8) {
    PyErr_Clear();
    return {};
  }
  return std::string(utf8, static_cast<size_t>(size));
}

}  // namespace cuhost::frontend
