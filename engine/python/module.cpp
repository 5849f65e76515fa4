// Definition and registration of the built-in `_cuhost` module. Each concern
// (errors, host API, dispatchers, arrays, streams, ...) lives in its own file
// and contributes through an add_* function listed here.
#include "python/module.h"

#include "support/blocking_wait.h"

namespace cuhost::python {

namespace {

PyModuleDef g_module_def = {PyModuleDef_HEAD_INIT,
                            "_cuhost",
                            "cuhost's built-in CUDA module (C++ half of `cuda`).",
                            -1,
                            nullptr,
                            nullptr,
                            nullptr,
                            nullptr,
                            nullptr};

// Engine waits that another thread's Python callback may be holding up
// (support/blocking_wait.h) give up the GIL while they wait.
void wait_without_gil(void (*fn)(void* arg), void* arg) {
  if (!PyGILState_Check()) {
    fn(arg);
    return;
  }
  PyThreadState* state = PyEval_SaveThread();
  fn(arg);
  PyEval_RestoreThread(state);
}

PyObject* init_module() {
  support::set_blocking_hook(&wait_without_gil);
  PyObject* m = PyModule_Create(&g_module_def);
  if (!m) return nullptr;
  if (add_errors(m) < 0 || add_host_api(m) < 0 || add_memory(m) < 0 || add_dispatcher(m) < 0 ||
      add_plugins_api(m) < 0 || add_collectives(m) < 0 || add_driver_calls(m) < 0 || add_toolkit_api(m) < 0 ||
      add_graphs(m) < 0) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}

}  // namespace

void register_builtin_module() { PyImport_AppendInittab("_cuhost", &init_module); }

}  // namespace cuhost::python
