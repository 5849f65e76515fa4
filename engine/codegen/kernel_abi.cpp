// Slot layout of kernel parameters (see kernel_abi.h); shared by lowering and
// both launchers so the two sides can never disagree.
#include "codegen/kernel_abi.h"

#include "ir/extension_types.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

static void append_slots(const ir::Type* t, std::vector<int>& out) {
  switch (t->kind) {
    case ir::TypeKind::Boolean: out.push_back(1); return;
    case ir::TypeKind::Integer:
    case ir::TypeKind::Float: out.push_back(t->bits / 8); return;
    case ir::TypeKind::Complex:
      out.push_back(t->bits / 16);
      out.push_back(t->bits / 16);
      return;
    case ir::TypeKind::CPointer:
    case ir::TypeKind::NPDatetime:
    case ir::TypeKind::NPTimedelta:
    case ir::TypeKind::Record: out.push_back(8); return;  // records pass by reference
    case ir::TypeKind::Array:
      out.push_back(8);
      for (int i = 0; i < 2 * t->ndim; ++i) out.push_back(8);
      return;
    case ir::TypeKind::TypeRef: return;  // a type argument is a compile-time constant
    case ir::TypeKind::Tuple:
      for (const ir::Type* e : t->elements) append_slots(e, out);
      return;
    case ir::TypeKind::Extension: {
      // A StructModel value passes as its members (like a tuple), any other as its one LLVM value.
      const ir::ExtensionTypeInfo& info = ir::extension_info(t);
      if (info.model == ir::DataModel::Struct) {
        for (const auto& m : info.members) append_slots(m.type, out);
      } else {
        out.push_back(static_cast<int>(info.size));
      }
      return;
    }
    case ir::TypeKind::EnumMember: append_slots(t->pointee, out); return;  // its value
    default: CUHOST_CHECK(false) << "type " << t->str() << " cannot be a kernel parameter";
  }
}

std::vector<int> param_slot_sizes(const ir::Type* t) {
  std::vector<int> out;
  append_slots(t, out);
  return out;
}

}  // namespace cuhost::codegen
