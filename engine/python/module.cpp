// Definition and registration of the built-in `_cuhost` module. Each concern
// (errors, host API, dispatchers, arrays, streams, ...) lives in its own file
// and contributes through an add_* function listed here.
#include "python/module.h"

#include "python/py_api.h"
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
  if (!Py_IsInitialized() || !PyGILState_Check()) {  // (a C exit handler after the interpreter ended)
    fn(arg);
    return;
  }
  without_gil([&] { fn(arg); });
}

PyObject* init_module() {
  support::set_blocking_hook(&wait_without_gil);
  PyRef m(PyModule_Create(&g_module_def));
  if (!m) return nullptr;
  PyObject* module = m.get();
  if (add_errors(module) < 0 || add_host_api(module) < 0 || add_memory(module) < 0 || add_dispatcher(module) < 0 ||
      add_plugins_api(module) < 0 || add_collectives(module) < 0 || add_driver_calls(module) < 0 ||
      add_toolkit_api(module) < 0 || add_graphs(module) < 0 || add_array_layout(module) < 0 ||
      add_llvm_layout(module) < 0 || add_kernel_deadline_api(module) < 0)
    return nullptr;
  return m.release();
}

}  // namespace

void register_builtin_module() { PyImport_AppendInittab("_cuhost", &init_module); }

}  // namespace cuhost::python
