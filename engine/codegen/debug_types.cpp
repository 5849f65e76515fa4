// DWARF types of kernel values (see debug_types.h).
#include "codegen/debug_types.h"

#include <algorithm>
#include <string>

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>

#include "codegen/lowering/lowerer.h"
#include "ir/records.h"

namespace cuhost::codegen {

namespace {

std::uint64_t bits_of(const llvm::Module& m, llvm::Type* t) { return m.getDataLayout().getTypeAllocSizeInBits(t); }

}  // namespace

llvm::DIType* DebugTypes::type_of(const ir::Type* t) {
  auto it = cache_.find(t);
  if (it != cache_.end()) return it->second;
  llvm::DIType* d = build(t);
  cache_[t] = d;
  return d;
}

llvm::DIType* DebugTypes::union_of(const std::vector<const ir::Type*>& types) {
  std::map<std::string, const ir::Type*> by_name;  // sorted and distinct, like numba's members
  for (const ir::Type* t : types)
    if (type_of(t)) by_name.emplace("_" + t->str(), t);
  if (by_name.empty()) return nullptr;
  if (by_name.size() == 1) return type_of(by_name.begin()->second);
  std::vector<llvm::Metadata*> members;
  std::uint64_t bits = 0;
  std::string name = "union(";
  for (const auto& [member, t] : by_name) {
    std::uint64_t size = bits_of(module_, llvm_type_of(module_.getContext(), t));
    if (t->kind == ir::TypeKind::Boolean) size = 8;
    bits = std::max(bits, size);
    // Members name no scope or file, as numba-cuda's: they belong to the union.
    members.push_back(
        builder_.createMemberType(nullptr, member, nullptr, 0, size, 0, 0, llvm::DINode::FlagZero, type_of(t)));
    name += (name.back() == '(' ? "" : ", ") + t->str();
  }
  // Distinct, as numba-cuda's: the union is the type of one variable (its
  // versions'), not a type two variables could share by structure.
  llvm::DICompositeType* u = builder_.createUnionType(file_, name + ")", file_, 0, bits, 0, llvm::DINode::FlagZero,
                                                      builder_.getOrCreateArray(members));
  return llvm::MDNode::replaceWithDistinct(u->clone());
}

llvm::DIType* DebugTypes::build(const ir::Type* t) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::Boolean:
    case K::Integer:
    case K::Float:
    case K::Complex: return basic(t);
    case K::Array: return array(t);
    case K::Tuple: return tuple(t);
    case K::Record: return record(t);
    case K::Optional: return optional(t);
    case K::Range: return type_of(t->pointee);
    case K::CPointer: {
      llvm::DIType* pointee = type_of(t->pointee);
      return builder_.createPointerType(pointee, bits_of(module_, llvm::PointerType::get(module_.getContext(), 0)));
    }
    case K::Intrinsic:
      // The grid group of cuda.cg.this_grid(): a handle the size of a pointer, as numba describes it.
      if (t->key == "cuda.cg.GridGroup") return builder_.createBasicType("GridGroup", 64, llvm::dwarf::DW_ATE_unsigned);
      return nullptr;
    default: return nullptr;
  }
}

llvm::DIType* DebugTypes::basic(const ir::Type* t) {
  using K = ir::TypeKind;
  unsigned encoding = llvm::dwarf::DW_ATE_signed;
  std::uint64_t bits = std::uint64_t(t->bits);
  switch (t->kind) {
    case K::Boolean:
      encoding = llvm::dwarf::DW_ATE_boolean;
      bits = 8;
      break;
    case K::Integer: encoding = t->is_signed ? llvm::dwarf::DW_ATE_signed : llvm::dwarf::DW_ATE_unsigned; break;
    case K::Float:
      // fp8 and bfloat16_raw are stored as their bits.
      encoding = ir::is_storage_float(t) ? llvm::dwarf::DW_ATE_unsigned : llvm::dwarf::DW_ATE_float;
      break;
    case K::Complex:
      encoding = llvm::dwarf::DW_ATE_complex_float;
      bits = std::uint64_t(t->bits) * 2;
      break;
    default: break;
  }
  return builder_.createBasicType(t->str(), bits, encoding);
}

llvm::DIType* DebugTypes::array(const ir::Type* t) {
  llvm::LLVMContext& c = module_.getContext();
  auto* lt = llvm::cast<llvm::StructType>(llvm_type_of(c, t));
  const llvm::StructLayout* layout = module_.getDataLayout().getStructLayout(lt);
  llvm::DIType* i64 = type_of(ir::int64());
  llvm::DIType* element = t->dtype->kind == ir::TypeKind::Record ? nullptr : type_of(t->dtype);
  const std::uint64_t pointer_bits = bits_of(module_, llvm::PointerType::get(c, 0));
  llvm::DIType* data = builder_.createPointerType(element, pointer_bits);
  llvm::Metadata* range[] = {builder_.getOrCreateSubrange(0, std::int64_t(t->ndim))};
  llvm::DIType* dims = builder_.createArrayType(std::uint64_t(64 * t->ndim), 64, i64, builder_.getOrCreateArray(range));
  struct Member {
    const char* name;
    llvm::DIType* type;
    unsigned index;
  };
  std::vector<llvm::Metadata*> members;
  for (const Member& m : {Member{"data", data, 0}, Member{"shape", dims, 1}, Member{"strides", dims, 2}}) {
    std::uint64_t size = bits_of(module_, lt->getElementType(m.index));
    members.push_back(builder_.createMemberType(
        file_, m.name, file_, 0, size, 0, layout->getElementOffsetInBits(m.index), llvm::DINode::FlagZero, m.type));
  }
  return builder_.createStructType(file_, t->str(), file_, 0, layout->getSizeInBits(), 0, llvm::DINode::FlagZero,
                                   nullptr, builder_.getOrCreateArray(members));
}

llvm::DIType* DebugTypes::tuple(const ir::Type* t) {
  llvm::LLVMContext& c = module_.getContext();
  auto* lt = llvm::cast<llvm::StructType>(llvm_type_of(c, t));
  const llvm::StructLayout* layout = module_.getDataLayout().getStructLayout(lt);
  std::vector<llvm::Metadata*> members;
  for (unsigned i = 0; i < t->elements.size(); ++i) {
    llvm::DIType* et = type_of(t->elements[i]);
    if (!et) continue;
    members.push_back(builder_.createMemberType(file_, concat("f", i), file_, 0,
                                                bits_of(module_, lt->getElementType(i)), 0,
                                                layout->getElementOffsetInBits(i), llvm::DINode::FlagZero, et));
  }
  return builder_.createStructType(file_, t->str(), file_, 0, layout->getSizeInBits(), 0, llvm::DINode::FlagZero,
                                   nullptr, builder_.getOrCreateArray(members));
}

llvm::DIType* DebugTypes::record(const ir::Type* t) {
  const ir::RecordLayout& rl = ir::record_layout(t);
  std::vector<llvm::Metadata*> members;
  for (const ir::RecordField& f : rl.fields) {
    llvm::DIType* ft = nullptr;
    std::uint64_t bits = std::uint64_t(ir::described_byte_size(f.type)) * 8;
    if (f.type->kind == ir::TypeKind::NestedArray) {
      const auto& shape = ir::nested_shape(f.type);
      std::vector<llvm::Metadata*> ranges;
      for (std::int64_t n : shape) ranges.push_back(builder_.getOrCreateSubrange(0, n));
      llvm::DIType* et = f.type->dtype ? type_of(f.type->dtype) : nullptr;
      ft = builder_.createArrayType(bits, 0, et, builder_.getOrCreateArray(ranges));
    } else {
      ft = type_of(f.type);
      if (f.type->kind == ir::TypeKind::Boolean) bits = 8;
    }
    members.push_back(builder_.createMemberType(file_, f.name, file_, 0, bits, 0, std::uint64_t(f.offset) * 8,
                                                llvm::DINode::FlagZero, ft));
  }
  llvm::DIType* body = builder_.createStructType(file_, t->str(), file_, 0, std::uint64_t(rl.size) * 8, 0,
                                                 llvm::DINode::FlagZero, nullptr, builder_.getOrCreateArray(members));
  // A record value is the address of its bytes.
  return builder_.createPointerType(body, bits_of(module_, llvm::PointerType::get(module_.getContext(), 0)));
}

llvm::DIType* DebugTypes::optional(const ir::Type* t) {
  llvm::LLVMContext& c = module_.getContext();
  auto* lt = llvm::cast<llvm::StructType>(llvm_type_of(c, t));
  const llvm::StructLayout* layout = module_.getDataLayout().getStructLayout(lt);
  std::vector<llvm::Metadata*> members;
  members.push_back(
      builder_.createMemberType(file_, "valid", file_, 0, 8, 0, 0, llvm::DINode::FlagZero, type_of(ir::boolean())));
  if (llvm::DIType* vt = type_of(t->pointee))
    members.push_back(builder_.createMemberType(file_, "value", file_, 0, bits_of(module_, lt->getElementType(1)), 0,
                                                layout->getElementOffsetInBits(1), llvm::DINode::FlagZero, vt));
  return builder_.createStructType(file_, t->str(), file_, 0, layout->getSizeInBits(), 0, llvm::DINode::FlagZero,
                                   nullptr, builder_.getOrCreateArray(members));
}

}  // namespace cuhost::codegen
