// How a python3-style run ends: as Py_FinalizeEx begins, without freeing
// the interpreter. The non-daemon threads are joined and the callbacks of
// threading._register_atexit run (concurrent.futures' executors: an executor
// left open does not hang the exit) through threading._shutdown, then the
// atexit handlers through atexit._run_exitfuncs, then the standard streams
// are flushed. These are CPython functions with a leading underscore: the
// two steps of Py_FinalizeEx that CPython offers no other way.
//
// Py_FinalizeEx itself was tried, and is not used: it frees the module
// globals in an order the engine does not control, and on a GPU a script
// holding streams, pinned and device arrays (memory/cuda_streams.py under
// --streams 2) then ended with a segmentation fault in 3 runs of 3 (in none
// without the finalization). Python objects are left to the ending process,
// as before; module-global finalizers (__del__) do not run (python3 runs
// them).
//
// The engine's own Python work ends first, in the last atexit handler: the
// live-reload thread stops (it takes the GIL) and loaded modules run their
// teardown callbacks (Python callables). Daemon threads may still run then;
// from that handler on, an engine thread that would take the GIL back waits
// until the process exits instead (restore_thread, ensure_gil), so nothing
// runs Python code beside the exit; the handler first lets through the
// threads already waiting for the GIL.
#include "python/interpreter_end.h"

#include <Python.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "cuda/module.h"
#include "python/live_reload.h"
#include "python/py_api.h"
#include "runtime/cpu_module_callbacks.h"

namespace cuhost::python {

namespace {

std::atomic<bool> g_ending{false};
std::thread::id g_ending_thread;  // written before g_ending is set
// Threads between deciding to take the GIL and having it.
std::atomic<int> g_taking_gil{0};

[[noreturn]] void wait_for_process_exit() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Counts the calling thread as taking the GIL, or never returns when the
// interpreter is ending and the thread is not the one ending it.
void begin_taking_gil() {
  g_taking_gil.fetch_add(1);
  if (g_ending.load() && std::this_thread::get_id() != g_ending_thread) {
    g_taking_gil.fetch_sub(1);
    wait_for_process_exit();
  }
}

// From now on other threads do not take the GIL again; those already on
// their way to it get it first (the GIL is given up until they have).
void close_the_gil_to_other_threads() {
  g_ending_thread = std::this_thread::get_id();
  g_ending.store(true);
  while (g_taking_gil.load() > 0) without_gil([] { std::this_thread::sleep_for(std::chrono::milliseconds(1)); });
}

// The engine's atexit handler: registered before the script runs, so it runs
// after the script's own handlers (atexit runs the last registered first).
PyObject* end_engine_python_work(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    live_stop();  // (the reload thread may be waiting for the GIL)
    // The unloads come before the GIL closes: a daemon thread that holds the
    // module cache's lock finishes with it. Both are no-ops where nothing was
    // loaded; neither starts a backend (a -c child may not have started one).
    cuda::unload_all_modules();
    runtime::unload_cpu_modules();
    close_the_gil_to_other_threads();
    Py_RETURN_NONE;
  });
}

PyMethodDef g_end_engine_python_work = {"_end_engine_python_work", end_engine_python_work, METH_NOARGS,
                                        "Stops cuhost's own Python work before the interpreter ends."};

// Whether a daemon thread the script started (threading.Thread, not a
// thread of the engine's that Python only saw) is still running.
bool daemon_threads_alive() {
  PyObject* modules = PySys_GetObject("modules");  // borrowed
  PyRef threading = borrowed(modules ? PyDict_GetItemString(modules, "threading") : nullptr);
  if (!threading) return false;
  PyRef threads(PyObject_CallMethod(threading.get(), "enumerate", nullptr));
  PyRef main(PyObject_CallMethod(threading.get(), "main_thread", nullptr));
  PyRef items(threads ? PySequence_Fast(threads.get(), "threads") : nullptr);
  if (!items || !main) {
    PyErr_Clear();
    return false;
  }
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(items.get()); ++i) {
    PyObject* t = PySequence_Fast_GET_ITEM(items.get(), i);  // borrowed
    if (t == main.get() || std::string(Py_TYPE(t)->tp_name) == "_DummyThread") continue;
    PyRef daemon(PyObject_GetAttrString(t, "daemon"));
    if (!daemon) {
      PyErr_Clear();
      continue;
    }
    if (PyObject_IsTrue(daemon.get()) == 1) return true;
  }
  return false;
}

}  // namespace

void restore_thread(PyThreadState* state) {
  begin_taking_gil();
  PyEval_RestoreThread(state);
  g_taking_gil.fetch_sub(1);
}

PyGILState_STATE ensure_gil() {
  if (PyGILState_Check()) return PyGILState_Ensure();  // held already: no wait
  begin_taking_gil();
  PyGILState_STATE state = PyGILState_Ensure();
  g_taking_gil.fetch_sub(1);
  return state;
}

void prepare_interpreter_end() {
  PyRef atexit(PyImport_ImportModule("atexit"));
  PyRef handler(atexit ? PyCFunction_New(&g_end_engine_python_work, nullptr) : nullptr);
  PyRef registered(handler ? PyObject_CallMethod(atexit.get(), "register", "O", handler.get()) : nullptr);
  if (!registered) PyErr_WriteUnraisable(nullptr);
}

int end_interpreter(int code) {
  PyObject* modules = PySys_GetObject("modules");  // borrowed
  if (PyRef threading = borrowed(modules ? PyDict_GetItemString(modules, "threading") : nullptr)) {
    PyRef r(PyObject_CallMethod(threading.get(), "_shutdown", nullptr));
    if (!r) PyErr_WriteUnraisable(threading.get());
  }
  if (PyRef atexit{PyImport_ImportModule("atexit")}) {
    PyRef r(PyObject_CallMethod(atexit.get(), "_run_exitfuncs", nullptr));
    if (!r) PyErr_Clear();  // each handler's own error was already printed
  } else {
    PyErr_Clear();
  }
  // As python3 does when it cannot flush them at its end: exit code 120 (a
  // stream the script closed is left alone, as python3 leaves it).
  bool flushed = true;
  for (const char* name : {"stderr", "stdout"}) {
    PyObject* stream = PySys_GetObject(name);  // borrowed
    if (!stream || stream == Py_None) continue;
    PyRef closed(PyObject_GetAttrString(stream, "closed"));
    if (!closed) PyErr_Clear();
    if (closed && PyObject_IsTrue(closed.get()) == 1) continue;
    PyRef r(PyObject_CallMethod(stream, "flush", nullptr));
    if (!r) {
      PyErr_Clear();
      flushed = false;
    }
  }
  int exit_code = flushed ? code : 120;
  // Daemon threads still running (python3's finalization would end them)
  // may be inside the engine, beside the process's C++ teardown: the
  // process ends here, without it, as their end would have it.
  if (daemon_threads_alive()) {
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }
  return exit_code;
}

}  // namespace cuhost::python
