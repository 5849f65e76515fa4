// cuda.declare_device: the `_cuhost.DeclaredDevice` type holding an
// ir::ForeignFunction (symbol, signature, ABI, link items). It is only
// callable inside kernels; sema reaches the declaration through the
// frontend::foreign_function_of hook. Errors follow FFI.md.
#include "cuda/module.h"
#include "ffi/clang_compile.h"
#include "ffi/device_compile.h"
#include "python/dispatcher.h"
#include "python/py_api.h"
#include "python/type_handle.h"
#include "python/type_object.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::python {
namespace {

struct DeclaredObject {
  PyObject_HEAD PyObject* dict;  // Python sets .sig (a cuda.types Signature) here
  std::shared_ptr<const ir::ForeignFunction>* foreign;
};

void declared_dealloc(PyObject* obj) {
  auto* self = reinterpret_cast<DeclaredObject*>(obj);
  Py_CLEAR(self->dict);
  delete self->foreign;
  Py_TYPE(obj)->tp_free(obj);
}

PyObject* declared_call(PyObject* obj, PyObject*, PyObject*) {
  auto* self = reinterpret_cast<DeclaredObject*>(obj);
  PyErr_Format(PyExc_TypeError, "'%s' is a device function and is not callable from the host",
               (*self->foreign)->python_name.c_str());
  return nullptr;
}

PyObject* declared_repr(PyObject* obj) {
  auto* self = reinterpret_cast<DeclaredObject*>(obj);
  const ir::ForeignFunction& f = **self->foreign;
  return PyUnicode_FromFormat("<declared device function '%s' %s>", f.name.c_str(), f.sig.str().c_str());
}

PyObject* get_name(PyObject* obj, void*) {
  return PyUnicode_FromString((*reinterpret_cast<DeclaredObject*>(obj)->foreign)->name.c_str());
}

// (return TypeHandle, argument TypeHandles) of the declared signature.
PyObject* get_signature_handles(PyObject* obj, void*) {
  const ir::Signature& sig = (*reinterpret_cast<DeclaredObject*>(obj)->foreign)->sig;
  PyRef args(new_type_handle_tuple(sig.args));
  PyRef ret(args ? new_type_handle(sig.return_type) : nullptr);
  if (!ret) return nullptr;
  return PyTuple_Pack(2, ret.get(), args.get());
}

PyObject* get_abi(PyObject* obj, void*) {
  return PyUnicode_FromString((*reinterpret_cast<DeclaredObject*>(obj)->foreign)->abi == ir::Abi::C ? "c" : "numba");
}

PyObject* get_link_count(PyObject* obj, void*) {
  return PyLong_FromSize_t((*reinterpret_cast<DeclaredObject*>(obj)->foreign)->link.size());
}

PyGetSetDef g_getset[] = {{"name", get_name, nullptr, "The linker symbol.", nullptr},
                          {"_sig_handles", get_signature_handles, nullptr, nullptr, nullptr},
                          {"abi", get_abi, nullptr, nullptr, nullptr},
                          {"_link_count", get_link_count, nullptr, nullptr, nullptr},
                          {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject make_type() {
  PyTypeObject t = blank_type_object();
  t.tp_name = "_cuhost.DeclaredDevice";
  t.tp_basicsize = sizeof(DeclaredObject);
  t.tp_dealloc = declared_dealloc;
  t.tp_repr = declared_repr;
  t.tp_call = declared_call;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "A foreign device function declared with cuda.declare_device.";
  t.tp_getset = g_getset;
  t.tp_dictoffset = offsetof(DeclaredObject, dict);
  return t;
}

PyTypeObject DeclaredType = make_type();

// A declaration's .cu sources start compiling for the GPU now, on a worker
// thread, while the script goes on (making its data, waiting for its
// context): the kernel's first call then finds the code, or waits for the
// compile already running, instead of starting clang only then (P6 in
// docs/BENCHMARKS.md). Only on the CUDA backend, for the session's device,
// once the session knows both; the first call reports every error, as before.
void compile_sources_ahead(const std::vector<ir::LinkItem>& items) {
  std::vector<ir::LinkItem> sources;
  for (const ir::LinkItem& item : items)
    if (ffi::device_inlinable_item(item)) sources.push_back(item);
  if (sources.empty()) return;
  ffi::run_ahead([sources = std::move(sources)] {
    runtime::Session& s = runtime::session();
    if (s.backend != Backend::Cuda) return;
    int major = 0, minor = 0;
    cuda::device_compute_capability(s.device, &major, &minor);
    for (const ir::LinkItem& item : sources) ffi::device_bitcode_ahead(item, major, minor);
  });
}

PyObject* py_declare_device(PyObject*, PyObject* args, PyObject* kwargs) {
  const char* name;
  PyObject* sig;
  PyObject* link = Py_None;
  int use_cooperative = 0;
  PyObject* abi = nullptr;
  PyObject* python_name = nullptr;
  PyObject* cpu_link = Py_None;
  static const char* kwlist[] = {"name", "sig", "link", "use_cooperative", "abi", "python_name", "cpu_link", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sO|OpOOO", const_cast<char**>(kwlist), &name, &sig, &link,
                                   &use_cooperative, &abi, &python_name, &cpu_link))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    auto f = std::make_shared<ir::ForeignFunction>();
    f->name = name;
    f->python_name = python_name && PyUnicode_Check(python_name) ? PyUnicode_AsUTF8(python_name) : name;
    std::string abi_s = "numba";
    if (abi && abi != Py_None) {
      PyRef s(PyObject_Str(abi));
      if (!s) return nullptr;
      abi_s = PyUnicode_AsUTF8(s.get());
    }
    if (abi_s == "numba")
      f->abi = ir::Abi::Numba;
    else if (abi_s == "c")
      f->abi = ir::Abi::C;
    else
      throw UserError(ErrorKind::NotImplementedError, "Unsupported ABI: " + abi_s);
    if (!signature_from_object(sig, &f->sig)) return nullptr;
    if (!f->sig.return_type)
      throw UserError(ErrorKind::TypeError, "Return type must be provided for device declarations");
    f->use_cooperative = use_cooperative;
    f->link = link_items_from_object(link);
    f->cpu_link = link_items_from_object(cpu_link);
    compile_sources_ahead(f->link);
    auto* obj = PyObject_New(DeclaredObject, &DeclaredType);
    if (!obj) return nullptr;
    obj->dict = nullptr;
    obj->foreign = new std::shared_ptr<const ir::ForeignFunction>(std::move(f));
    return reinterpret_cast<PyObject*>(obj);
  });
}

PyMethodDef g_methods[] = {
    {"_declare_device", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_declare_device)),
     METH_VARARGS | METH_KEYWORDS, "Declares a foreign device function (see cuda.declare_device)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

std::shared_ptr<const ir::ForeignFunction> declared_foreign_function(PyObject* obj) {
  if (!PyObject_TypeCheck(obj, &DeclaredType)) return nullptr;
  return *reinterpret_cast<DeclaredObject*>(obj)->foreign;
}

int add_declare_device(PyObject* module) {
  if (PyType_Ready(&DeclaredType) < 0) return -1;
  Py_INCREF(&DeclaredType);
  if (PyModule_AddObject(module, "DeclaredDevice", reinterpret_cast<PyObject*>(&DeclaredType)) < 0) return -1;
  return PyModule_AddFunctions(module, g_methods);
}

}  // namespace cuhost::python
