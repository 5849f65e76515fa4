// C++ spellings and ABI slots of exported parameters (see parameter_abi.h).
#include "aot_export/parameter_abi.h"

#include "codegen/kernel_abi.h"
#include "support/diagnostics.h"

namespace cuhost::aot_export {
namespace {

// The C++ type of a scalar element; empty when there is none.
std::string scalar_cpp(const ir::Type* t) {
  switch (t->kind) {
    case ir::TypeKind::Boolean: return "bool";
    case ir::TypeKind::Integer: return concat(t->is_signed ? "std::int" : "std::uint", t->bits, "_t");
    case ir::TypeKind::Float:
      if (t->bits == 32) return "float";
      if (t->bits == 64) return "double";
      return {};
    case ir::TypeKind::Complex:
      if (t->bits == 64) return "std::complex<float>";
      if (t->bits == 128) return "std::complex<double>";
      return {};
    default: return {};
  }
}

}  // namespace

ParameterAbi parameter_abi(const std::string& kernel, const std::string& name, const ir::Type* t) {
  ParameterAbi p;
  p.name = name;
  p.type = t->str();
  p.slots = codegen::param_slot_sizes(t);
  auto refuse = [&](const std::string& why) -> UserError {
    return UserError(ErrorKind::TypeError, concat("kernel '", kernel, "' cannot be exported: parameter '", name,
                                                  "' of type ", p.type, " ", why));
  };
  switch (t->kind) {
    case ir::TypeKind::Boolean:
      p.kind = "bool";
      p.cpp_type = "bool";
      break;
    case ir::TypeKind::Integer:
      p.kind = t->is_signed ? "int" : "uint";
      p.cpp_type = scalar_cpp(t);
      break;
    case ir::TypeKind::Float:
      p.kind = "float";
      p.cpp_type = scalar_cpp(t);
      if (p.cpp_type.empty()) throw refuse("has no C++ scalar type (float32 and float64 only)");
      break;
    case ir::TypeKind::Array: {
      p.kind = "array";
      p.element = scalar_cpp(t->dtype);
      if (p.element.empty()) throw refuse("has elements with no C++ type (numbers and bools only)");
      p.ndim = t->ndim;
      p.layout = t->layout == ir::Layout::C ? "C" : t->layout == ir::Layout::F ? "F" : "A";
      p.cpp_type = concat("cuhost::aot::Array<", t->readonly ? "const " : "", p.element, ", ", t->ndim, ">");
      break;
    }
    case ir::TypeKind::CPointer:
      p.kind = "pointer";
      p.element = t->pointee ? scalar_cpp(t->pointee) : std::string();
      p.cpp_type = (p.element.empty() ? std::string("void") : p.element) + "*";
      break;
    default: throw refuse("has no C++ form (numbers, bools, arrays and pointers only)");
  }
  return p;
}

}  // namespace cuhost::aot_export
