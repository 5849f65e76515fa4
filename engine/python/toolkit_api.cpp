// The CUDA toolkit's compilers as numba-cuda's driver layer uses them:
// `_nvrtc_compile` (CUDA C++ to PTX or LTO-IR with cuhost's NVRTC,
// cuda/nvrtc.h: the include paths and cache of `.cu` link items), behind
// numba.cuda.cudadrv.nvrtc.compile; and `_nvjitlink` (cuhost's nvJitLink
// linker, cuda/linker.h), behind numba's _Linker.
#include "cuda/linker.h"
#include "cuda/nvrtc.h"
#include "python/module.h"
#include "python/py_api.h"

namespace cuhost::python {

namespace {

bool link_kind(const std::string& name, ir::LinkKind* kind) {
  static const std::pair<const char*, ir::LinkKind> kinds[] = {
      {"ptx", ir::LinkKind::PTXSource}, {"cubin", ir::LinkKind::Cubin}, {"fatbin", ir::LinkKind::Fatbin},
      {"a", ir::LinkKind::Archive},     {"o", ir::LinkKind::Object},    {"ltoir", ir::LinkKind::LTOIR}};
  for (const auto& k : kinds)
    if (name == k.first) {
      *kind = k.second;
      return true;
    }
  return false;
}

bool string_list(PyObject* obj, std::vector<std::string>* out) {
  PyRef seq(PySequence_Fast(obj, "options must be a sequence of str"));
  if (!seq) return false;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    PyObject* o = PySequence_Fast_GET_ITEM(seq.get(), i);
    if (!PyUnicode_Check(o)) {
      PyErr_SetString(PyExc_TypeError, "options must be a sequence of str");
      return false;
    }
    out->push_back(PyUnicode_AsUTF8(o));
  }
  return true;
}

// _nvrtc_compile(source, name, cc_major, cc_minor, suffix, ltoir, options) -> (bytes, log):
// compiled for exactly sm_<major><minor><suffix> ("", "a" or "f").
PyObject* py_nvrtc_compile(PyObject*, PyObject* args) {
  const char* source = nullptr;
  const char* name = nullptr;
  const char* suffix = nullptr;
  int major = 0, minor = 0, ltoir = 0;
  PyObject* extra = nullptr;
  if (!PyArg_ParseTuple(args, "ssiispO:_nvrtc_compile", &source, &name, &major, &minor, &suffix, &ltoir, &extra))
    return nullptr;
  cuda::NvrtcOptions options;
  options.cc_major = major;
  options.cc_minor = minor;
  options.arch = concat("sm_", major, minor, suffix);
  options.lto = ltoir != 0;
  options.include_dirs = cuda::extra_search_paths_from_environment();
  if (!string_list(extra, &options.extra_options)) return nullptr;
  std::string text = source, program = name;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    cuda::NvrtcOutput out;
    without_gil([&] { out = cuda::compile_cuda_source(text, program, "", options); });
    PyObject* code = PyBytes_FromStringAndSize(out.code.data(), static_cast<Py_ssize_t>(out.code.size()));
    if (!code) return nullptr;
    return Py_BuildValue("(Ns)", code, out.log.c_str());
  });
}

// _nvjitlink(items, cc_major, cc_minor, lto, options) -> (cubin or PTX bytes, info log);
// items: (kind, name, bytes) with kind one of ptx cubin fatbin a o ltoir.
PyObject* py_nvjitlink(PyObject*, PyObject* args) {
  PyObject* items = nullptr;
  PyObject* extra = nullptr;
  int major = 0, minor = 0, lto = 0;
  if (!PyArg_ParseTuple(args, "OiipO:_nvjitlink", &items, &major, &minor, &lto, &extra)) return nullptr;
  std::vector<cuda::LinkInput> inputs;
  PyRef seq(PySequence_Fast(items, "items must be a sequence of (kind, name, bytes)"));
  if (!seq) return nullptr;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.get()); ++i) {
    const char* kind = nullptr;
    const char* name = nullptr;
    PyObject* blob = nullptr;
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq.get(), i), "ssS:link item", &kind, &name, &blob) ||
        PyBytes_AsStringAndSize(blob, &data, &size) < 0) {
      return nullptr;
    }
    cuda::LinkInput in;
    if (!link_kind(kind, &in.kind)) {
      PyErr_Format(PyExc_ValueError, "unknown link item kind '%s'", kind);
      return nullptr;
    }
    in.name = name;
    in.data.assign(data, static_cast<std::size_t>(size));
    inputs.push_back(std::move(in));
  }
  std::vector<std::string> options;
  if (!string_list(extra, &options)) return nullptr;
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    cuda::LinkResult result;
    without_gil([&] { result = cuda::link(inputs, major, minor, lto != 0, options); });
    const std::string& out = result.ptx.empty() ? result.cubin : result.ptx;
    PyObject* code = PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size()));
    if (!code) return nullptr;
    return Py_BuildValue("(Ns)", code, result.info_log.c_str());
  });
}

PyMethodDef g_functions[] = {
    {"_nvjitlink", py_nvjitlink, METH_VARARGS,
     "_nvjitlink(items, cc_major, cc_minor, lto, options) -> (cubin or PTX, info log)."},
    {"_nvrtc_compile", py_nvrtc_compile, METH_VARARGS,
     "_nvrtc_compile(source, name, cc_major, cc_minor, suffix, ltoir, options) -> (code, log)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_toolkit_api(PyObject* module) { return PyModule_AddFunctions(module, g_functions); }

}  // namespace cuhost::python
