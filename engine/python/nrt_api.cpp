// numba.cuda.memory_management.nrt's window on the kernels' NRT allocation
// counters: `_cuhost._nrt_set_counting(flag)` switches counting on the
// backend kernels run on, `_cuhost._nrt_counts()` returns (alloc, free,
// mi_alloc, mi_free) so far (CPU kernels' counters plus, on the GPU backend,
// the device blocks of every context, read after their work finished).
#include "cpu/nrt_runtime.h"
#include "cuda/nrt_stats.h"
#include "python/dispatcher.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

bool on_gpu() { return runtime::session().backend == Backend::Cuda; }

PyObject* py_nrt_set_counting(PyObject*, PyObject* arg) {
  int flag = PyObject_IsTrue(arg);
  if (flag < 0) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    cpu::nrt_set_counting(flag != 0);
    if (on_gpu()) cuda::nrt_set_device_counting(flag != 0);
    Py_RETURN_NONE;
  });
}

PyObject* py_nrt_counts(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    cpu::NrtCounts c = cpu::nrt_counts();
    std::int64_t device[4] = {0, 0, 0, 0};
    if (on_gpu()) cuda::nrt_device_counts(device);
    return Py_BuildValue("(LLLL)", static_cast<long long>(c.alloc + device[0]),
                         static_cast<long long>(c.free + device[1]), static_cast<long long>(c.mi_alloc + device[2]),
                         static_cast<long long>(c.mi_free + device[3]));
  });
}

PyMethodDef g_methods[] = {
    {"_nrt_set_counting", py_nrt_set_counting, METH_O, "_nrt_set_counting(flag): count kernels' NRT allocations."},
    {"_nrt_counts", py_nrt_counts, METH_NOARGS, "_nrt_counts() -> (alloc, free, mi_alloc, mi_free)"},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_nrt_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
