// The registry of extension types (see extension_types.h): one descriptor per
// spelling for the life of the process, so the ir::Type that points at it is
// stable and spellings read back by the type parser find the same type.
#include "ir/extension_types.h"

#include <map>
#include <mutex>

#include "support/diagnostics.h"

namespace cuhost::ir {

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<ExtensionTypeInfo>> types;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed, like the type table
  return *r;
}

bool delimiter(char c) { return c == ' ' || c == ',' || c == ')' || c == ']' || c == ';' || c == '['; }

}  // namespace

int ExtensionTypeInfo::member_index(const std::string& name) const {
  for (size_t i = 0; i < members.size(); ++i)
    if (members[i].name == name) return static_cast<int>(i);
  return -1;
}

const Type* register_extension_type(ExtensionTypeInfo info) {
  const ExtensionTypeInfo* stored;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto& slot = r.types[info.spelling];
    if (!slot) slot = std::make_unique<ExtensionTypeInfo>(std::move(info));
    stored = slot.get();
  }
  return described(TypeKind::Extension, stored->spelling, stored);
}

const Type* extension_type_named(const std::string& spelling) {
  const ExtensionTypeInfo* stored = nullptr;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.types.find(spelling);
    if (it == r.types.end()) return nullptr;
    stored = it->second.get();
  }
  return described(TypeKind::Extension, stored->spelling, stored);
}

const ExtensionTypeInfo& extension_info(const Type* t) {
  CUHOST_CHECK(t && t->kind == TypeKind::Extension && t->object) << "not an extension type";
  return *static_cast<const ExtensionTypeInfo*>(t->object);
}

std::string extension_spelling_at(const std::string& text, std::size_t pos) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string best;
  for (const auto& [spelling, info] : r.types) {
    if (spelling.size() <= best.size() || text.compare(pos, spelling.size(), spelling) != 0) continue;
    std::size_t end = pos + spelling.size();
    if (end == text.size() || delimiter(text[end])) best = spelling;
  }
  return best;
}

bool contains_extension_type(const Type* t) {
  if (!t) return false;
  switch (t->kind) {
    case TypeKind::Extension:
    case TypeKind::ExtensionFunction:
    case TypeKind::ExtensionMethod: return true;
    case TypeKind::Array:
    case TypeKind::NestedArray: return contains_extension_type(t->dtype);
    case TypeKind::Optional:
    case TypeKind::CPointer:
    case TypeKind::TypeRef: return contains_extension_type(t->pointee);
    case TypeKind::Tuple:
      for (const Type* e : t->elements)
        if (contains_extension_type(e)) return true;
      return false;
    default: return false;
  }
}

const Type* extension_function(const ExtensionObject* object) {
  return described(TypeKind::ExtensionFunction, object->name, object);
}

const Type* extension_method(const Type* receiver, const std::string& name) {
  return described(TypeKind::ExtensionMethod, name, nullptr, receiver);
}

}  // namespace cuhost::ir
