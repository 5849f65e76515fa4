// Finds the kernels to export in __main__ (see kernel_selection.h).
#include "aot_export/kernel_selection.h"

#include <Python.h>

#include "frontend/ast.h"
#include "frontend/captured.h"
#include "ir/type_parser.h"
#include "python/dispatcher.h"
#include "python/py_api.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost::aot_export {
namespace {

void check_parameter_types(const std::string& name, const std::vector<const ir::Type*>& types) {
  for (const ir::Type* t : types) {
    using K = ir::TypeKind;
    if (t->kind != K::Integer && t->kind != K::Float && t->kind != K::Boolean && t->kind != K::Array &&
        t->kind != K::CPointer)
      throw UserError(ErrorKind::TypeError,
                      concat("kernel '", name, "' cannot be exported: its parameter of type ", t->str(),
                             " has no C++ form (integers, floats, bools, arrays and pointers only)"));
  }
}

SelectedKernel make_selection(python::DispatcherObject* d, const std::string& name,
                              std::vector<const ir::Type*> types) {
  const std::shared_ptr<model::JitFunction>& fn = python::ensure_captured(d);
  if (fn->options.device)
    throw UserError(ErrorKind::TypeError, concat("'", name, "' is a device function; only kernels can be exported"));
  check_parameter_types(name, types);
  SelectedKernel k;
  k.name = name;
  k.fn = fn;
  k.arg_types = std::move(types);
  if (fn->captured && fn->captured->def)
    for (const auto& p : fn->captured->def->params) k.param_names.push_back(p.name);
  while (k.param_names.size() < k.arg_types.size()) k.param_names.push_back(concat("arg", k.param_names.size()));
  k.param_names.resize(k.arg_types.size());
  k.bounds_check = runtime::session().bounds_check || fn->options.debug;
  return k;
}

python::DispatcherObject* kernel_in_main(const std::string& name) {
  PyObject* main = PyImport_AddModule("__main__");  // borrowed
  PyObject* obj = main ? PyDict_GetItemString(PyModule_GetDict(main), name.c_str()) : nullptr;
  if (!obj)
    throw UserError(ErrorKind::NameError,
                    concat("no kernel named '", name, "' in the script's global namespace (__main__)"));
  if (!python::is_dispatcher(obj))
    throw UserError(ErrorKind::TypeError,
                    concat("'", name, "' is not a @cuda.jit kernel (its type is ", Py_TYPE(obj)->tp_name, ")"));
  return reinterpret_cast<python::DispatcherObject*>(obj);
}

}  // namespace

std::vector<SelectedKernel> select_kernels(const std::vector<std::string>& specs, bool all_compiled) {
  python::GilHold gil;
  std::vector<SelectedKernel> out;
  auto add = [&](SelectedKernel k) {
    for (const SelectedKernel& seen : out) {
      if (seen.name != k.name) continue;
      if (seen.arg_types == k.arg_types) return;
      throw UserError(
          ErrorKind::ValueError,
          concat("kernel '", k.name, "' is selected with two signatures (", python::types_str(seen.arg_types), " and ",
                 python::types_str(k.arg_types), "); an export holds one specialization per kernel name"));
    }
    out.push_back(std::move(k));
  };
  for (const std::string& spec : specs) {
    std::size_t colon = spec.find(':');
    if (colon == std::string::npos || colon == 0)
      throw UserError(ErrorKind::ValueError,
                      concat("--kernel '", spec, "' must be NAME:SIGNATURE, e.g. axpy:void(float32, float32[::1])"));
    std::string name = spec.substr(0, colon);
    ir::Signature sig = ir::parse_signature(spec.substr(colon + 1));
    if (sig.return_type && sig.return_type->kind != ir::TypeKind::Void &&
        sig.return_type->kind != ir::TypeKind::NoneType)
      throw UserError(ErrorKind::TypeError, concat("kernel '", name, "' must return void, but the signature '",
                                                   spec.substr(colon + 1), "' returns ", sig.return_type->str()));
    add(make_selection(kernel_in_main(name), name, sig.args));
  }
  if (all_compiled) {
    PyObject* main = PyImport_AddModule("__main__");
    PyObject* dict = main ? PyModule_GetDict(main) : nullptr;
    PyObject *key = nullptr, *value = nullptr;
    Py_ssize_t pos = 0;
    while (dict && PyDict_Next(dict, &pos, &key, &value)) {
      if (!python::is_dispatcher(value) || !PyUnicode_Check(key)) continue;
      auto* d = reinterpret_cast<python::DispatcherObject*>(value);
      if (python::ensure_captured(d)->options.device) continue;
      const char* name = PyUnicode_AsUTF8(key);
      for (auto& types : python::compiled_signatures(d)) add(make_selection(d, name, types));
    }
  }
  if (out.empty())
    throw UserError(ErrorKind::ValueError,
                    all_compiled ? "the script compiled no kernel: nothing to export"
                                 : "no kernel to export: name some with --kernel NAME:SIGNATURE or use --all-compiled");
  return out;
}

}  // namespace cuhost::aot_export
