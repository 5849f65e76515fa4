// How a python3-style run ends: the interpreter is finalized with the public
// Py_FinalizeEx, which does what python3 does at its end, in its order: it
// waits for the non-daemon threads, runs the callbacks of
// threading._register_atexit (concurrent.futures' executors: an executor
// left open does not hang the exit), then the atexit handlers, flushes the
// standard streams and frees the interpreter.
//
// The engine outlives the interpreter (its objects live for the process), so
// its own Python work ends first, in the last atexit handler: the
// live-reload thread stops (it takes the GIL) and loaded modules run their
// teardown callbacks (Python callables, which C exit handlers would
// otherwise call). What holds a Python reference past that point checks
// Py_IsInitialized() and leaves the reference to the ending process.
//
// Daemon threads may still run then. CPython ends one that takes the GIL
// after finalization began with pthread_exit, whose unwinding through the
// engine's C++ frames (a launch that gave the GIL up) reaches a noexcept
// frame and aborts the process. So from the last handler on, an engine
// thread that would take the GIL back waits until the process exits instead
// (restore_thread, ensure_gil); the handler first lets through the threads
// already waiting for the GIL. When daemon threads were still running, the
// process ends right after the finalization (_Exit), without C++ teardown
// beside them.
//
// An earlier ending without Py_FinalizeEx (threading._shutdown and
// atexit._run_exitfuncs, private) was used while a finalization crash on the
// GPU stood unexplained: the cross-stream ordering of a device array freed
// by the finalization asked the driver about a stream freed just before it
// (runtime/access_order.cpp now treats such a stream's writes as finished).
#include "python/interpreter_end.h"

#include <Python.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "cuda/module.h"
#include "python/exec_sources.h"
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
    release_exec_sources();
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
  // Asked while Python can still answer.
  const bool daemons = daemon_threads_alive();
  const int exit_code = Py_FinalizeEx() < 0 ? 120 : code;
  // Daemon threads still running (parked at the GIL, or inside engine code
  // that gave it up, such as a launch) would run beside the process's C++
  // teardown: the process ends here, as their end at python3's exit has it.
  if (daemons) {
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }
  return exit_code;
}

}  // namespace cuhost::python
