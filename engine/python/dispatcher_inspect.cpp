#define PY_SSIZE_T_CLEAN  // "s#" formats take Py_ssize_t lengths
// Inspection and resource queries of a dispatcher's specializations: the
// NVPTX compilation of each (what inspect_llvm/inspect_asm/inspect_sass and
// the get_* kernel properties of cuda/dispatcher.py read), and
// inspect_types. On the CPU backend the PTX a GPU would run is compiled on
// request; device functions are compiled on their own, as cuda.compile does.
#include <exception>

#include "cpu/launcher.h"
#include "cuda/driver.h"
#include "cuda/linker.h"
#include "cuda/module.h"
#include "frontend/captured.h"
#include "python/dispatcher.h"
#include "python/py_api.h"
#include "python/stream_view.h"
#include "python/type_handle.h"
#include "runtime/compile_lookup.h"
#include "runtime/devices.h"
#include "runtime/kernel_resources.h"
#include "runtime/session.h"
#include "sema/typed_function.h"

namespace cuhost::python {
namespace {

std::vector<const ir::Type*> types_for(DispatcherObject* self, PyObject* signature) {
  if (signature && signature != Py_None) return signature_types(signature);
  auto all = compiled_signatures(self);
  if (all.size() != 1)
    throw UserError(ErrorKind::TypeError, concat("'", self->state->fn->name, "' has ", all.size(),
                                                 " compiled signatures: pass the one to inspect"));
  return all[0];
}

// _nvptx(signature) -> {"ptx", "llvm", "llvm_optimized", "symbol", "args", "return", "link"}; the
// argument and return types as TypeHandles.
PyObject* dispatcher_nvptx(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_for(self, signature);
    auto k = nvptx_specialization(self, types);
    const ir::Type* ret = k->return_type ? k->return_type : ir::none_type();
    PyRef args(new_type_handle_tuple(types));
    PyRef ret_handle(new_type_handle(ret));
    PyRef links(PyList_New(0));
    if (!args || !ret_handle || !links) return nullptr;
    for (const ir::LinkItem& item : k->link) {
      PyRef name(PyUnicode_FromString((item.from_path() ? item.path : item.name).c_str()));
      if (!name || PyList_Append(links.get(), name.get()) < 0) return nullptr;
    }
    return Py_BuildValue("{s:N,s:s#,s:s#,s:s#,s:s,s:N,s:N}", "link", links.release(), "ptx", k->ptx.data(),
                         static_cast<Py_ssize_t>(k->ptx.size()), "llvm", k->llvm_ir_unoptimized.data(),
                         static_cast<Py_ssize_t>(k->llvm_ir_unoptimized.size()), "llvm_optimized", k->llvm_ir.data(),
                         static_cast<Py_ssize_t>(k->llvm_ir.size()), "symbol", k->symbol.c_str(), "args",
                         args.release(), "return", ret_handle.release());
  });
}

// _resources(signature) -> {"regs", "local", "shared", "const", "max_threads"}
PyObject* dispatcher_resources(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_for(self, signature);
    auto k = nvptx_specialization(self, types);
    runtime::Session& s = runtime::session();
    bool gpu = s.backend == Backend::Cuda;
    if (gpu) ensure_context();
    runtime::KernelResources r =
        without_gil([&] { return runtime::kernel_resources(k, gpu, runtime::current_device()); });
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i}", "regs", r.registers, "local", r.local_bytes, "shared", r.shared_bytes,
                         "const", r.const_bytes, "max_threads", r.max_threads);
  });
}

// _cubin(signature) -> bytes: the kernel assembled for sm_90 (or the device's
// architecture) by nvJitLink, for inspect_sass.
PyObject* dispatcher_cubin(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_for(self, signature);
    auto k = nvptx_specialization(self, types);
    if (!k->link.empty())
      throw UserError(
          ErrorKind::NotImplementedError,
          concat("inspect_sass() of kernel '", k->name, "' is not implemented in cuhost yet: it links foreign code"));
    runtime::TargetOptions t = session_target(self->state->fn->options);
    int major = t.target == runtime::Target::NVPTX ? t.cc_major : 9;
    int minor = t.target == runtime::Target::NVPTX ? t.cc_minor : 0;
    cuda::LinkResult r = without_gil([&] {
      return cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, k->name + ".ptx", k->ptx}}, major, minor, false);
    });
    return PyBytes_FromStringAndSize(r.cubin.data(), static_cast<Py_ssize_t>(r.cubin.size()));
  });
}

// _host_llvm(signature) -> str: the optimized module the session's backend
// runs (the CPU backend's host code; tests of its code generation read it).
PyObject* dispatcher_host_llvm(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    auto k = compile_specialization(self, types_for(self, signature));
    return PyUnicode_FromStringAndSize(k->llvm_ir.data(), static_cast<Py_ssize_t>(k->llvm_ir.size()));
  });
}

PyObject* dispatcher_compiled_signatures(PyObject* obj, PyObject*) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    PyRef list(PyList_New(0));
    if (!list) return nullptr;
    for (const auto& types : compiled_signatures(self)) {
      PyRef t(new_type_handle_tuple(types));
      if (!t || PyList_Append(list.get(), t.get()) < 0) return nullptr;
    }
    return list.release();
  });
}

}  // namespace

std::string describe_typed(const std::string& name, const sema::TypedFunction* typed,
                           const std::vector<const ir::Type*>& arg_types) {
  std::string out;
  if (!typed) return name + " " + types_str(arg_types) + "\n";
  const sema::TypedFunction& t = *typed;
  out += concat(name, " ", t.signature(), "\n");
  out += std::string(80, '-') + "\n";
  if (t.captured) {
    out += concat("# File: ", t.captured->filename, "\n");
    int line = t.captured->first_line;
    std::size_t pos = 0;
    const std::string& src = t.captured->source;
    while (pos < src.size()) {
      std::size_t end = src.find('\n', pos);
      if (end == std::string::npos) end = src.size();
      out += concat("# --- LINE ", line++, " --- \n", src.substr(pos, end - pos), "\n");
      pos = end + 1;
    }
  }
  out += "# locals:\n";
  for (const auto& [name, type] : t.locals) out += concat("#   ", name, " = ", type ? type->str() : "?", "\n");
  out += concat("# return type: ", t.return_type ? t.return_type->str() : "none", "\n");
  return out + std::string(80, '=') + "\n";
}

namespace {

std::string describe_types(const runtime::CompiledKernel& k) {
  return describe_typed(k.name, runtime::kernel_typing(k).get(), k.arg_types);
}

PyObject* dispatcher_inspect_types(PyObject* obj, PyObject* args, PyObject* kwargs) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  PyObject* file = nullptr;
  PyObject* signature = nullptr;
  static const char* kwlist[] = {"file", "signature", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", const_cast<char**>(kwlist), &file, &signature)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::string text;
    std::vector<std::vector<const ir::Type*>> all;
    if (signature && signature != Py_None)
      all.push_back(signature_types(signature));
    else
      all = compiled_signatures(self);
    // The session's own compilation carries the typing (a PTX-only compile may come from the disk cache).
    for (const auto& types : all)
      text += describe_types(self->state->fn->options.device ? *nvptx_specialization(self, types)
                                                             : *compile_specialization(self, types));
    PyRef s(PyUnicode_FromString(text.c_str()));
    if (!s) return nullptr;
    if (file && file != Py_None) {
      if (!PyRef(PyObject_CallMethod(file, "write", "O", s.get()))) return nullptr;
      Py_RETURN_NONE;
    }
    return s.release();
  });
}

// _typemap(signature) -> {local name: TypeHandle} of one specialization
// (numba's type annotation typemap, for the locals and parameters).
PyObject* dispatcher_typemap(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = signature_types(signature);
    auto k = self->state->fn->options.device ? nvptx_specialization(self, types) : compile_specialization(self, types);
    PyRef out(PyDict_New());
    if (!out) return nullptr;
    if (std::shared_ptr<const sema::TypedFunction> typed = runtime::kernel_typing(*k)) {
      for (const auto& [name, type] : typed->locals) {
        if (!type) continue;
        PyRef h(new_type_handle(type));
        if (!h || PyDict_SetItemString(out.get(), name.c_str(), h.get()) < 0) return nullptr;
      }
    }
    return out.release();
  });
}

// _cooperative(signature, threads, dynamic_shared) -> (cooperative, max_blocks):
// whether the kernel is launched cooperatively (it syncs the grid) and the
// largest grid such a launch may use (numba's max_cooperative_grid_blocks):
// on a GPU the driver's occupancy times the multiprocessors, on the CPU
// backend the launcher's limit (cpu::max_cooperative_blocks).
PyObject* dispatcher_cooperative(PyObject* obj, PyObject* args) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  PyObject* signature = nullptr;
  unsigned threads = 0, dynamic_shared = 0;
  if (!PyArg_ParseTuple(args, "OII", &signature, &threads, &dynamic_shared)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_for(self, signature);
    auto k = nvptx_specialization(self, types);
    runtime::Session& s = runtime::session();
    long blocks = 0;
    if (s.backend == Backend::Cuda) {
      ensure_context();
      CUfunction f = cuda::kernel_function(k, runtime::current_device());
      int per_sm = 0, sms = 0;
      CUdevice dev = 0;
      cuda::check(cuda::driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, static_cast<int>(threads),
                                                                             dynamic_shared),
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor", k->name);
      cuda::check(cuda::driver().cuDeviceGet(&dev, runtime::current_device()), "cuDeviceGet", k->name);
      cuda::check(cuda::driver().cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
                  "cuDeviceGetAttribute", k->name);
      blocks = long(per_sm) * sms;
    } else {
      blocks = cpu::max_cooperative_blocks(threads);
    }
    return Py_BuildValue("(Nl)", PyBool_FromLong(k->use_cooperative), blocks);
  });
}

// _cufunc(signature) -> the CUfunction (an int) the launcher uses for one
// signature, loaded now; None on the CPU backend (no driver function).
PyObject* dispatcher_cufunc(PyObject* obj, PyObject* signature) {
  auto* self = reinterpret_cast<DispatcherObject*>(obj);
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::vector<const ir::Type*> types = types_for(self, signature);
    runtime::Session& s = runtime::session();
    if (s.backend != Backend::Cuda) {
      compile_specialization(self, types);
      Py_RETURN_NONE;
    }
    auto k = nvptx_specialization(self, types);
    ensure_context();
    return PyLong_FromUnsignedLongLong(reinterpret_cast<std::uintptr_t>(cuda::kernel_function(k, s.device)));
  });
}

PyMethodDef g_methods[] = {
    {"_cufunc", dispatcher_cufunc, METH_O, "The loaded CUfunction of one signature (None on the CPU backend)."},
    {"_typemap", dispatcher_typemap, METH_O, "{local: type spelling} of one specialization."},
    {"inspect_types", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(dispatcher_inspect_types)),
     METH_VARARGS | METH_KEYWORDS, "Typed signature, source and locals of each specialization."},
    {"_nvptx", dispatcher_nvptx, METH_O, "The NVPTX compilation of one signature (a dict)."},
    {"_resources", dispatcher_resources, METH_O, "Registers, local/shared/const memory, max threads (a dict)."},
    {"_cooperative", dispatcher_cooperative, METH_VARARGS,
     "Whether one signature launches cooperatively, and its largest cooperative grid (a tuple)."},
    {"_cubin", dispatcher_cubin, METH_O, "The kernel of one signature assembled by nvJitLink (bytes)."},
    {"_host_llvm", dispatcher_host_llvm, METH_O, "The optimized module the session's backend runs (str)."},
    {"_compiled_signatures", dispatcher_compiled_signatures, METH_NOARGS,
     "Argument-type spellings of every compiled specialization, in order."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyMethodDef* dispatcher_inspect_methods() { return g_methods; }

}  // namespace cuhost::python
