// Interning of record layouts and nested-array shapes (see records.h): each
// distinct spelling owns one descriptor for the life of the process, and the
// ir::Type points at it, so types compare by pointer like every other type.
#include "ir/records.h"

#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "ir/extension_types.h"
#include "support/diagnostics.h"

namespace cuhost::ir {

namespace {

struct Descriptors {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<RecordLayout>> records;
  std::map<std::string, std::unique_ptr<std::vector<std::int64_t>>> shapes;
};

Descriptors& descriptors() {
  static Descriptors* d = new Descriptors();  // never destroyed, like the type table
  return *d;
}

}  // namespace

const RecordField* RecordLayout::find(const std::string& name) const {
  for (const RecordField& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

const Type* record(std::vector<RecordField> fields, std::int64_t size, bool aligned) {
  std::ostringstream o;
  o << "Record(";
  for (size_t i = 0; i < fields.size(); ++i)
    o << (i ? "," : "") << fields[i].name << "[type=" << fields[i].type->str() << ";offset=" << fields[i].offset << "]";
  o << ";" << size << ";" << (aligned ? "True" : "False") << ")";
  std::string key = o.str();
  const RecordLayout* layout;
  {
    Descriptors& d = descriptors();
    std::lock_guard<std::mutex> lock(d.mutex);
    auto& slot = d.records[key];
    if (!slot) {
      slot = std::make_unique<RecordLayout>();
      slot->fields = std::move(fields);
      slot->size = size;
      slot->aligned = aligned;
    }
    layout = slot.get();
  }
  return described(TypeKind::Record, key, layout);
}

const RecordLayout& record_layout(const Type* t) {
  CUHOST_CHECK(t->kind == TypeKind::Record && t->object) << "not a record type: " << t->str();
  return *static_cast<const RecordLayout*>(t->object);
}

const Type* nested_array(const Type* dtype, const std::vector<std::int64_t>& shape) {
  std::ostringstream o;
  o << "nestedarray(" << dtype->str() << ", (";
  for (size_t i = 0; i < shape.size(); ++i) o << (i ? ", " : "") << shape[i];
  o << (shape.size() == 1 ? ",))" : "))");
  std::string key = o.str();
  const std::vector<std::int64_t>* stored;
  {
    Descriptors& d = descriptors();
    std::lock_guard<std::mutex> lock(d.mutex);
    auto& slot = d.shapes[key];
    if (!slot) slot = std::make_unique<std::vector<std::int64_t>>(shape);
    stored = slot.get();
  }
  return described(TypeKind::NestedArray, key, stored, dtype, static_cast<int>(shape.size()));
}

const std::vector<std::int64_t>& nested_shape(const Type* t) {
  CUHOST_CHECK(t->kind == TypeKind::NestedArray && t->object) << "not a nested array type: " << t->str();
  return *static_cast<const std::vector<std::int64_t>*>(t->object);
}

std::int64_t described_byte_size(const Type* t) {
  if (t->kind == TypeKind::Record) return record_layout(t).size;
  if (t->kind == TypeKind::NestedArray) {
    std::int64_t n = t->dtype->byte_size();
    for (std::int64_t e : nested_shape(t)) n *= e;
    return n;
  }
  return t->byte_size();
}

int abi_alignment(const Type* t) {
  switch (t->kind) {
    case TypeKind::Complex: return t->bits / 16;
    case TypeKind::NestedArray: return abi_alignment(t->dtype);
    case TypeKind::CharSeq: return t->bits / 8;  // its characters'
    case TypeKind::Extension: return static_cast<int>(extension_info(t).align);
    case TypeKind::Record: {
      int a = 1;
      for (const RecordField& f : record_layout(t).fields) a = std::max(a, abi_alignment(f.type));
      return a;
    }
    default: return std::max(1, t->byte_size());
  }
}

}  // namespace cuhost::ir
