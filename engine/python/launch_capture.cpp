// Script launches meeting graph captures, and CPU kernels' printed text (see
// launch_capture.h).
#include "python/launch_capture.h"

#include <cstdio>
#include <new>
#include <string>

#include "cpu/print_output.h"
#include "python/array_order.h"
#include "python/py_api.h"
#include "runtime/graph_capture.h"
#include "support/diagnostics.h"

namespace cuhost::python {

void write_kernel_output() {
  std::string text = cpu::take_printed_output();
  if (text.empty()) return;
  PyObject* out = PySys_GetObject("stdout");  // borrowed
  if (out && out != Py_None) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    bool ok = PyFile_WriteString(text.c_str(), out) == 0;
    if (!ok) PyErr_Clear();
    PyErr_Restore(type, value, tb);
    if (ok) return;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void refuse_host_arguments_in_capture(const char* kernel, const ArgInfo* infos, Py_ssize_t n, std::uintptr_t stream) {
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (infos[i].kind != ArgKind::HostArray && infos[i].kind != ArgKind::HostRecord) continue;
    runtime::refuse_on_captured_stream(
        stream,
        concat("launch kernel '", kernel, "' with a host NumPy ",
               infos[i].kind == ArgKind::HostArray ? "array" : "record", " as argument ", i),
        "its copy to the device and back would be synchronous copies of pageable memory, which a graph cannot "
        "replay; pass device arrays (cuda.to_device before the capture)");
    return;
  }
}

std::shared_ptr<void> script_launch_owner(DispatcherObject* d, PyObject* const* args, Py_ssize_t n) {
  PyRef values(PyTuple_New(n));
  if (!values) throw std::bad_alloc();
  for (Py_ssize_t i = 0; i < n; ++i) PyTuple_SET_ITEM(values.get(), i, Py_NewRef(args[i]));
  PyObject* owner = PyTuple_Pack(2, reinterpret_cast<PyObject*>(d), values.get());
  if (!owner) throw std::bad_alloc();
  // The graph may drop the owner on any thread: the deleter takes the GIL.
  return std::shared_ptr<void>(owner, [](void* p) {
    if (!Py_IsInitialized()) return;  // the interpreter has ended: nothing to release
    GilHold gil;
    PyRef dropped(static_cast<PyObject*>(p));
  });
}

std::vector<runtime::GraphTouch> graph_touches(const ArgInfo* infos, Py_ssize_t n) {
  std::vector<runtime::GraphTouch> out;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!infos[i].view.order) continue;
    const ArrayBytes b = array_bytes(infos[i].view);
    if (b.order) out.push_back({b.order, b.lo, b.hi, nullptr});  // the launch's owner keeps the array alive
  }
  return out;
}

}  // namespace cuhost::python
