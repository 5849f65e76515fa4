// `_cuhost._ufunc_call(entry)`: the `__call__` of CUDA ufuncs
// (cuda/np/ufunc/ufunc.py). A call like an earlier one with `out=` on the
// default stream is one fingerprint, one dictionary lookup and one launch;
// in Python the call's own frame, its keyword handling and the attribute
// reads around the lookup cost about as much as the launch (U2 in
// docs/BENCHMARKS.md). Every other call goes to `entry`, the Python method
// that resolves, converts and caches, with the arguments as given. The
// object is a method descriptor: `ufunc(...)` calls it with the ufunc first,
// without a bound method in between.
#include "python/call_key.h"
#include "python/dispatcher.h"
#include "python/py_api.h"
#include "python/type_object.h"

namespace cuhost::python {

namespace {

struct UfuncCall {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject* entry;  // the Python fallback: entry(ufunc, *args, out=..., stream=...)
};

// Attribute names, interned once (kept for the process).
PyObject* name_of(const char* text) { return PyUnicode_InternFromString(text); }

enum class Outcome { Launched, General, Failed };

// Launches the plan cached for exactly these arguments (Launched), or finds
// that the call must take the general path (General, no error set); Failed
// with the Python error of the launch.
Outcome launch_cached(PyObject* ufunc, PyObject* const* args, Py_ssize_t nargs, PyObject* out) {
  static PyObject* plans_name = name_of("_plans");
  static PyObject* convs_name = name_of("convs");
  static PyObject* launcher_name = name_of("launcher");
  static PyObject* n_name = name_of("n");
  if (!plans_name || !convs_name || !launcher_name || !n_name) return Outcome::General;
  PyRef plans(PyObject_GetAttr(ufunc, plans_name));
  if (!plans || !PyDict_Check(plans.get())) return Outcome::General;
  PyRef key(guarded<PyObject*>(nullptr, [&] { return call_key(args, nargs, out); }));
  if (!key || key.get() == Py_None) {
    PyErr_Clear();  // an argument without a kernel type: the general path says what is wrong
    return Outcome::General;
  }
  PyObject* plan = PyDict_GetItemWithError(plans.get(), key.get());  // borrowed
  if (!plan) return Outcome::General;
  PyRef convs(PyObject_GetAttr(plan, convs_name));
  if (!convs || convs.get() != Py_None) return Outcome::General;
  PyRef launcher(PyObject_GetAttr(plan, launcher_name));
  PyRef n(PyObject_GetAttr(plan, n_name));
  if (!launcher || !n) return Outcome::General;
  // launcher(n, *args, out)
  constexpr Py_ssize_t kMost = 32;
  if (nargs + 2 > kMost) return Outcome::General;
  PyObject* call[kMost + 1];
  call[0] = nullptr;  // PY_VECTORCALL_ARGUMENTS_OFFSET's slot
  call[1] = n.get();
  for (Py_ssize_t i = 0; i < nargs; ++i) call[2 + i] = args[i];
  call[2 + nargs] = out;
  PyRef done(
      PyObject_Vectorcall(launcher.get(), call + 1, size_t(nargs + 2) | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr));
  return done ? Outcome::Launched : Outcome::Failed;
}

// The keyword arguments of a call that can take the cached launch: `out=` an
// array and `stream=` absent or false (the default stream); false otherwise.
bool fast_keywords(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** out) {
  PyObject* stream = nullptr;
  *out = nullptr;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, i);
    if (PyUnicode_CompareWithASCIIString(name, "out") == 0)
      *out = args[nargs + i];
    else if (PyUnicode_CompareWithASCIIString(name, "stream") == 0)
      stream = args[nargs + i];
    else
      return false;
  }
  if (!*out || *out == Py_None) return false;
  if (!stream) return true;
  int truth = PyObject_IsTrue(stream);
  if (truth < 0) PyErr_Clear();
  return truth == 0;
}

PyObject* ufunc_call_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* self = reinterpret_cast<UfuncCall*>(callable);
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* out = nullptr;
  if (nargs >= 1 && fast_keywords(args, nargs, kwnames, &out)) {
    Outcome outcome =
        guarded<Outcome>(Outcome::Failed, [&] { return launch_cached(args[0], args + 1, nargs - 1, out); });
    if (outcome == Outcome::Launched) return Py_NewRef(out);
    if (outcome == Outcome::Failed) return nullptr;
    if (PyErr_Occurred()) PyErr_Clear();  // the general path reports what is wrong with the arguments
  }
  return PyObject_Vectorcall(self->entry, args, nargsf, kwnames);
}

PyObject* ufunc_call_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

void ufunc_call_dealloc(PyObject* obj) {
  Py_XDECREF(reinterpret_cast<UfuncCall*>(obj)->entry);
  Py_TYPE(obj)->tp_free(obj);
}

PyTypeObject make_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.UfuncCall";
  t.tp_basicsize = sizeof(UfuncCall);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR;
  t.tp_vectorcall_offset = offsetof(UfuncCall, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_descr_get = ufunc_call_get;
  t.tp_dealloc = ufunc_call_dealloc;
  t.tp_doc = "A CUDA ufunc's __call__: cached launches in C, every other call in Python.";
  return t;
}

PyTypeObject UfuncCallType = make_type();

PyObject* make_ufunc_call(PyObject*, PyObject* entry) {
  if (!PyCallable_Check(entry)) {
    PyErr_SetString(PyExc_TypeError, "_ufunc_call(entry): entry must be callable");
    return nullptr;
  }
  auto* self = PyObject_New(UfuncCall, &UfuncCallType);
  if (!self) return nullptr;
  self->vectorcall = ufunc_call_vectorcall;
  self->entry = Py_NewRef(entry);
  return reinterpret_cast<PyObject*>(self);
}

PyMethodDef g_methods[] = {{"_ufunc_call", make_ufunc_call, METH_O,
                            "_ufunc_call(entry): a ufunc's __call__ with a C fast path, falling back to entry."},
                           {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_ufunc_call(PyObject* module) {
  if (PyType_Ready(&UfuncCallType) < 0) return -1;
  return PyModule_AddFunctions(module, g_methods);
}

}  // namespace cuhost::python
