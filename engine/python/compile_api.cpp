#define PY_SSIZE_T_CLEAN  // "s#" and "y#" formats take Py_ssize_t lengths
// The compile entry points of the `cuda` module: cuda.compile_ptx /
// compile_ptx_for_current_device / cuda.compile (their Python halves in
// cuda/compiler.py build the result type objects), plus a test helper that
// hands PTX to nvJitLink. Compilation runs with the GIL released, through
// the compile lookup like every other compile.
#include <cctype>
#include <cstdio>
#include <exception>

#include "codegen/ir_text_ptx.h"
#include "codegen/nvptx_backend.h"
#include "cpu/cancellation.h"
#include "cuda/linker.h"
#include "cuda/module.h"
#include "frontend/capture.h"
#include "python/compile_warnings.h"
#include "python/config_flags.h"
#include "python/dispatcher.h"
#include "python/errors.h"
#include "python/py_api.h"
#include "python/type_handle.h"
#include "runtime/compile_lookup.h"
#include "runtime/cpu_module_callbacks.h"
#include "runtime/session.h"
#include "sema/typing/libdevice_table.h"
#include "support/log.h"

namespace cuhost::python {
namespace {

PyObject* py_compile(PyObject*, PyObject* args, PyObject* kwargs) {
  PyObject *pyfunc, *sig, *cc = Py_None, *abi_info = Py_None, *fastmath = Py_False, *launch_bounds = Py_None;
  int device = 0, opt = 1, lineinfo = 0, debug = 0;
  const char* abi = "numba";
  const char* output = "ptx";
  static const char* kwlist[] = {"pyfunc",   "sig",    "device", "fastmath",      "cc",   "opt", "abi", "abi_info",
                                 "lineinfo", "output", "debug",  "launch_bounds", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|pOOpsOpspO", const_cast<char**>(kwlist), &pyfunc, &sig, &device,
                                   &fastmath, &cc, &opt, &abi, &abi_info, &lineinfo, &output, &debug, &launch_bounds))
    return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::string abi_s = abi;
    if (abi_s != "numba" && abi_s != "c") throw UserError(ErrorKind::NotImplementedError, "Unsupported ABI: " + abi_s);
    if (abi_s == "c" && !device)
      throw UserError(ErrorKind::NotImplementedError, "The C ABI is not supported for kernels");
    std::string out_s = output;
    if (out_s != "ptx" && out_s != "ltoir")
      throw UserError(ErrorKind::NotImplementedError, concat("Unsupported output type: ", out_s));
    PyObject* func = pyfunc;
    if (is_dispatcher(pyfunc)) func = reinterpret_cast<DispatcherObject*>(pyfunc)->py_func;
    auto fn = std::make_shared<model::JitFunction>();
    PyRef name(PyObject_GetAttrString(func, "__name__"));
    if (name && PyUnicode_Check(name.get())) fn->name = PyUnicode_AsUTF8(name.get());
    if (!name) PyErr_Clear();
    fn->options.device = device;
    {  // fastmath and launch_bounds as cuda.jit reads them
      PyRef o(Py_BuildValue("{s:O,s:O}", "fastmath", fastmath, "launch_bounds", launch_bounds));
      if (!o) return nullptr;
      model::JitOptions parsed = parse_jit_options(o.get());
      fn->options.fastmath = parsed.fastmath;
      fn->options.fastmath_flags = parsed.fastmath_flags;
      for (int i = 0; i < 3; ++i) fn->options.launch_bounds[i] = parsed.launch_bounds[i];
    }
    fn->options.opt = opt ? 3 : 0;
    fn->options.lineinfo = lineinfo;
    fn->options.debug = debug;
    fn->options.abi = abi_s == "c" ? ir::Abi::C : ir::Abi::Numba;
    if (abi_info != Py_None) {
      if (!PyDict_Check(abi_info)) throw UserError(ErrorKind::TypeError, "abi_info must be a dict");
      PyObject* n = PyDict_GetItemString(abi_info, "abi_name");
      if (n && PyUnicode_Check(n)) fn->options.abi_name = PyUnicode_AsUTF8(n);
    }
    ir::Signature signature;
    if (!signature_from_object(sig, &signature)) return nullptr;
    if (signature.return_type) fn->options.return_type = signature.return_type;
    runtime::TargetOptions target;
    target.target = runtime::Target::NVPTX;
    target.cancellation_points = cpu::current_deadline().seconds > 0;  // as this thread's launches would run it
    target.nrt = config_flag("CUDA_ENABLE_NRT");
    if (cc != Py_None) {
      const char* suffix = "";
      if (!PyArg_ParseTuple(cc, "ii|s", &target.cc_major, &target.cc_minor, &suffix)) return nullptr;
      target.arch_suffix = suffix;
    }
    {
      log::StageTimer timer(fn->name, "capture");
      fn->captured = frontend::capture(func);
    }
    runtime::CompiledText result;
    std::exception_ptr error;
    try {
      // The one cache path (runtime/compile_lookup.h): memory, the disk cache, then the pipeline.
      result = *without_gil([&] { return runtime::lookup_text(fn, signature.args, device, target, out_s).text; });
    } catch (...) {
      error = std::current_exception();  // raised after the compile warnings are issued
    }
    // A warning turned into an error keeps its Python exception (errors.cpp).
    if (!issue_compile_warnings() && !error) throw UserError(ErrorKind::RuntimeError, "compile warning raised");
    if (error) std::rethrow_exception(error);
    const ir::Type* resty = result.return_type ? result.return_type : ir::void_type();
    // LLVM prints ".func  (" with two spaces; numba's output (and scripts that grep it) have one.
    for (std::size_t pos = 0; (pos = result.text.find(".func  (", pos)) != std::string::npos;)
      result.text.erase(pos + 5, 1);
    PyRef ret(new_type_handle(resty));
    if (!ret) return nullptr;
    return Py_BuildValue("(y#N)", result.text.data(), static_cast<Py_ssize_t>(result.text.size()), ret.release());
  });
}

PyObject* py_link_ptx_for_test(PyObject*, PyObject* args) {
  const char* ptx;
  Py_ssize_t len;
  const char* arch;
  if (!PyArg_ParseTuple(args, "s#s", &ptx, &len, &arch)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    // "sm_XY": one digit each for the major and minor compute capability.
    const std::string a = arch;
    if (a.size() != 5 || a.compare(0, 3, "sm_") != 0 || !std::isdigit(static_cast<unsigned char>(a[3])) ||
        !std::isdigit(static_cast<unsigned char>(a[4])))
      throw UserError(ErrorKind::ValueError, concat("arch must look like sm_90, got '", arch, "'"));
    const int major = a[3] - '0', minor = a[4] - '0';
    cuda::LinkResult r =
        cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, "test.ptx", std::string(ptx, static_cast<size_t>(len))}},
                   major, minor, false);
    return PyLong_FromSize_t(r.cubin.size());
  });
}

PyObject* py_current_cc(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    model::JitOptions o;
    runtime::TargetOptions t = session_target(o);
    if (t.target != runtime::Target::NVPTX) return Py_BuildValue("(ii)", 9, 0);
    return Py_BuildValue("(ii)", t.cc_major, t.cc_minor);
  });
}

PyObject* py_unload_modules(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    if (runtime::session().backend == Backend::Cuda)
      cuda::unload_all_modules();
    else
      runtime::unload_cpu_modules();
    Py_RETURN_NONE;
  });
}

// The compute capabilities PTX can be emitted for, ascending ((major, minor) tuples).
// _compile_ir_to_ptx([text, ...], cc_major, cc_minor, opt, fastmath) -> str:
// LLVM IR texts linked and compiled to PTX by the NVPTX backend
// (numba.cuda.cudadrv.nvvm.compile_ir).
PyObject* py_compile_ir_to_ptx(PyObject*, PyObject* args) {
  PyObject* list = nullptr;
  int major = 0, minor = 0, opt = 3, fastmath = 0;
  if (!PyArg_ParseTuple(args, "O!iiip:_compile_ir_to_ptx", &PyList_Type, &list, &major, &minor, &opt, &fastmath))
    return nullptr;
  std::vector<std::string> texts;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); ++i) {
    Py_ssize_t length = 0;
    const char* text = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(list, i), &length);
    if (!text) return nullptr;
    texts.emplace_back(text, std::size_t(length));
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    std::string ptx =
        without_gil([&] { return codegen::compile_ir_text_to_ptx(texts, major, minor, opt, fastmath != 0); });
    return PyUnicode_FromStringAndSize(ptx.data(), Py_ssize_t(ptx.size()));
  });
}

PyObject* py_supported_ccs(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const auto& ccs = codegen::supported_ccs();
    PyRef out(PyList_New(Py_ssize_t(ccs.size())));
    if (!out) return nullptr;
    for (size_t i = 0; i < ccs.size(); ++i) {
      PyObject* cc = Py_BuildValue("(ii)", ccs[i].first, ccs[i].second);
      if (!cc) return nullptr;
      PyList_SET_ITEM(out.get(), Py_ssize_t(i), cc);
    }
    return out.release();
  });
}

// The libdevice table (sema/typing/libdevice_table.h) for
// numba.cuda.libdevicefuncs, types as handles: a list of (name, result,
// ((parameter name, type, is an out-pointer), ...)).
PyObject* py_libdevice_table(PyObject*, PyObject*) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    const std::vector<sema::LibdeviceFunction>& functions = sema::libdevice_functions();
    PyRef out(PyList_New(0));
    if (!out) return nullptr;
    for (const sema::LibdeviceFunction& f : functions) {
      PyRef params(PyTuple_New(static_cast<Py_ssize_t>(f.params.size())));
      if (!params) return nullptr;
      for (std::size_t i = 0; i < f.params.size(); ++i) {
        const sema::LibdeviceParam& p = f.params[i];
        PyRef type(new_type_handle(p.type));
        PyObject* entry =
            type ? Py_BuildValue("(sOO)", p.name.c_str(), type.get(), p.out ? Py_True : Py_False) : nullptr;
        if (!entry) return nullptr;
        PyTuple_SET_ITEM(params.get(), static_cast<Py_ssize_t>(i), entry);
      }
      PyRef result(new_type_handle(f.result));
      if (!result || !list_append_new(out.get(), Py_BuildValue("(sOO)", f.name.c_str(), result.get(), params.get())))
        return nullptr;
    }
    return out.release();
  });
}

PyMethodDef g_methods[] = {
    {"_libdevice_table", py_libdevice_table, METH_NOARGS,
     "The libdevice functions kernels may call: (name, result, params) with TypeHandles."},
    {"_unload_modules", py_unload_modules, METH_NOARGS,
     "Runs LinkableCode teardown callbacks and unloads every kernel module (at exit)."},
    {"_compile", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(py_compile)), METH_VARARGS | METH_KEYWORDS,
     "Compiles a Python function for a signature to PTX: (bytes, the return type's TypeHandle)."},
    {"_link_ptx_for_test", py_link_ptx_for_test, METH_VARARGS,
     "Links PTX text with nvJitLink for an sm_XX architecture; returns the cubin size."},
    {"_compile_ir_to_ptx", py_compile_ir_to_ptx, METH_VARARGS,
     "LLVM IR text to PTX through LLVM's NVPTX backend (numba.cuda.cudadrv.nvvm.compile_ir)."},
    {"_supported_ccs", py_supported_ccs, METH_NOARGS, "Compute capabilities LLVM's NVPTX backend emits PTX for."},
    {"_current_cc", py_current_cc, METH_NOARGS, "Compute capability PTX is emitted for on this session's device."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_compile_api(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
