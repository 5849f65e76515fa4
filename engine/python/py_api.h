// The three tools every file of engine/python uses at the CPython API, so
// that no file counts references or juggles the GIL by hand:
// - PyRef: the one owning reference (frontend/py_ref.h), released on scope exit;
// - GilRelease / without_gil(): the GIL released for a blocking call and taken
//   back on every exit, exceptions included; GilHold: the GIL taken on any
//   thread (PyGILState_Ensure) for a scope, the opposite guard;
// - guarded(): the one translation of C++ exceptions into Python errors at an
//   entry point from Python (python/errors.h).
#pragma once

#include <Python.h>

#include <utility>

#include "frontend/py_ref.h"
#include "python/errors.h"

namespace cuhost::python {

using frontend::fetch_python_error;
using frontend::py_attr;
using frontend::py_repr;
using frontend::py_str;
using frontend::PyRef;

// A new reference from a borrowed one (Py_XINCREF'd).
inline PyRef borrowed(PyObject* o) { return PyRef::borrow(o); }

// Appends `item`, a new reference, to `list`, which takes it over; false (with
// the Python error set) when `item` is null or the append fails.
inline bool list_append_new(PyObject* list, PyObject* item) {
  PyRef owned(item);
  return owned && PyList_Append(list, owned.get()) == 0;
}

// Take the GIL (back) like PyEval_RestoreThread and PyGILState_Ensure. Once
// a python3-style run is ending (interpreter_end.h), a thread other than the
// one ending it that would wait for the GIL waits instead until the process
// exits: the ending interpreter would end such a thread with pthread_exit,
// whose unwinding through the engine's C++ frames aborts the process.
void restore_thread(PyThreadState* state);
PyGILState_STATE ensure_gil();

// Releases the GIL for its lifetime; the destructor takes it back, also while
// an exception unwinds, so a C++ exception thrown inside reaches its handler
// with the GIL held.
class GilRelease {
 public:
  GilRelease() : state_(PyEval_SaveThread()) {}
  ~GilRelease() { restore_thread(state_); }
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;
};

// Holds the GIL for its lifetime on any thread, one that never had it
// included (PyGILState_Ensure / PyGILState_Release).
class GilHold {
 public:
  GilHold() : state_(ensure_gil()) {}
  ~GilHold() { PyGILState_Release(state_); }
  GilHold(const GilHold&) = delete;
  GilHold& operator=(const GilHold&) = delete;

 private:
  PyGILState_STATE state_;
};

// Runs `fn` with the GIL released and returns its result; an exception it
// throws propagates once the GIL is held again.
template <class Fn>
decltype(auto) without_gil(Fn&& fn) {
  GilRelease unlocked;
  return std::forward<Fn>(fn)();
}

}  // namespace cuhost::python
