// Named tuple types (see named_tuples.h): the class information lives in a
// registry for the process, and the type points at its entry.
#include "ir/named_tuples.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace cuhost::ir {

namespace {

using InfoKey = std::tuple<std::string, std::vector<std::string>, const void*>;

const NamedTupleInfo* intern_info(const std::string& class_name, const std::vector<std::string>& fields,
                                  const void* identity) {
  static std::mutex mutex;
  static auto* infos = new std::map<InfoKey, std::unique_ptr<NamedTupleInfo>>();  // outlives static teardown
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = (*infos)[InfoKey(class_name, fields, identity)];
  if (!slot) slot = std::make_unique<NamedTupleInfo>(NamedTupleInfo{class_name, fields, identity});
  return slot.get();
}

}  // namespace

const Type* named_tuple(const std::string& class_name, const std::vector<std::string>& fields,
                        const std::vector<const Type*>& elements, const void* identity) {
  return detail::tuple_of_class(elements, class_name, intern_info(class_name, fields, identity));
}

const NamedTupleInfo* named_tuple_info(const Type* t) {
  if (!t || t->kind != TypeKind::Tuple || !t->object) return nullptr;
  return static_cast<const NamedTupleInfo*>(t->object);
}

int named_tuple_field(const Type* t, const std::string& name) {
  const NamedTupleInfo* info = named_tuple_info(t);
  if (!info) return -1;
  for (size_t i = 0; i < info->fields.size(); ++i)
    if (info->fields[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace cuhost::ir
