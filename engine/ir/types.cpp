// Interning of ir::Type: every distinct type is built once and handed out by
// pointer, so typing and lowering compare types with ==. The table is guarded
// by one mutex; array types, which every launch asks for, also go through a
// small lock-free cache in front of it.
#include "ir/types.h"

#include "ir/extension_types.h"
#include "ir/named_tuples.h"
#include "ir/records.h"
#include "ir/vector_types.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace cuhost::ir {

namespace {

// A structural key of a type: everything that distinguishes two types.
using Key = std::tuple<int, int, bool, const Type*, int, int, int, const Type*, std::vector<const Type*>, std::string,
                       const void*>;

Key key_of(const Type& t) {
  return Key(static_cast<int>(t.kind), t.bits, t.is_signed, t.dtype, t.ndim, static_cast<int>(t.layout),
             int(t.readonly) | int(t.unaligned) << 1, t.pointee, t.elements, t.key, t.object);
}

struct Table {
  std::mutex mutex;
  std::map<Key, std::unique_ptr<Type>> types;
};

Table& table() {
  static Table* t = new Table();  // never destroyed: types outlive static teardown
  return *t;
}

const Type* intern(Type proto) {
  Table& t = table();
  Key k = key_of(proto);
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.types.find(k);
  if (it != t.types.end()) return it->second.get();
  auto owned = std::make_unique<Type>(std::move(proto));
  const Type* p = owned.get();
  t.types.emplace(std::move(k), std::move(owned));
  return p;
}

Type make(TypeKind kind) {
  Type t;
  t.kind = kind;
  return t;
}

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::C: return "C";
    case Layout::F: return "F";
    case Layout::A: return "A";
  }
  return "A";
}

std::string concat_int_name(const Type& t) {
  return std::string(t.is_signed ? "int" : "uint") + std::to_string(t.bits);
}

}  // namespace

std::string Type::str() const {
  switch (kind) {
    case TypeKind::Void: return "none";
    case TypeKind::NoneType: return "none";
    case TypeKind::Boolean: return "bool";
    case TypeKind::Integer: return concat_int_name(*this);
    case TypeKind::Float: return key.empty() ? "float" + std::to_string(bits) : key;
    case TypeKind::Complex: return "complex" + std::to_string(bits);
    case TypeKind::Array: {
      std::ostringstream o;
      if (unaligned) o << "unaligned ";  // numba's spelling order
      if (readonly) o << "readonly ";
      o << "array(" << dtype->str() << ", " << ndim << "d, " << layout_name(layout) << ")";
      return o.str();
    }
    case TypeKind::Tuple: {
      if (!key.empty() && !object) return key;  // a vector type (ir/vector_types.h)
      std::ostringstream o;
      bool uniform = !elements.empty();
      for (const Type* e : elements) uniform = uniform && e == elements[0];
      if (object) {  // a named tuple (ir/named_tuples.h), spelled as numba's: Point(int64 x 2)
        o << key << "(";
        if (uniform) {
          o << elements[0]->str() << " x " << elements.size();
        } else {
          for (size_t i = 0; i < elements.size(); ++i) o << (i ? ", " : "") << elements[i]->str();
        }
        o << ")";
      } else if (uniform) {
        o << "UniTuple(" << elements[0]->str() << " x " << elements.size() << ")";
      } else {
        o << "Tuple(";
        for (size_t i = 0; i < elements.size(); ++i) o << (i ? ", " : "") << elements[i]->str();
        o << ")";
      }
      return o.str();
    }
    case TypeKind::CPointer:
      // A pointer to void is numba's voidptr (RawPointer "void*").
      if (pointee->kind == TypeKind::Void) return "void*";
      return "CPointer(" + pointee->str() + ")";
    case TypeKind::Optional: return "OptionalType(" + pointee->str() + ")";
    case TypeKind::Range: return "range_state_" + pointee->str();
    case TypeKind::StringLiteral: return "Literal[str](" + key + ")";
    case TypeKind::BytesLiteral: return "Literal[bytes](" + key + ")";
    case TypeKind::CharSeq:
      return std::string("[") + (bits == 32 ? "unichr" : "char") + " x " + std::to_string(ndim) + "]";
    case TypeKind::Module: return "Module(" + key + ")";
    case TypeKind::Intrinsic: return "Function(" + key + ")";
    case TypeKind::Dispatcher: return "Dispatcher";
    case TypeKind::Foreign: return "ExternFunction";
    case TypeKind::TypeRef: return "class(" + pointee->str() + ")";
    case TypeKind::Ffi: return "FFI";
    case TypeKind::Record:
    case TypeKind::NestedArray:
    case TypeKind::Extension: return key;
    case TypeKind::ExtensionFunction: return "Function(" + key + ")";
    case TypeKind::ExtensionMethod: return "BoundFunction(" + dtype->str() + "." + key + ")";
    case TypeKind::NPDatetime: return key.empty() ? "datetime64" : "datetime64[" + key + "]";
    case TypeKind::NPTimedelta: return key.empty() ? "timedelta64" : "timedelta64[" + key + "]";
    case TypeKind::EnumMember: return key.substr(0, key.find('#'));
  }
  return "?";
}

int Type::byte_size() const {
  switch (kind) {
    case TypeKind::Boolean: return 1;
    case TypeKind::Integer:
    case TypeKind::Float:
    case TypeKind::Complex: return bits / 8;
    case TypeKind::CPointer:
    case TypeKind::NPDatetime:
    case TypeKind::NPTimedelta:
    case TypeKind::Array: return 8;
    case TypeKind::Tuple: {
      int n = 0;
      for (const Type* e : elements) n += e->byte_size();
      return n;
    }
    case TypeKind::Record:
    case TypeKind::NestedArray: return static_cast<int>(described_byte_size(this));
    case TypeKind::Extension: return static_cast<int>(extension_info(this).size);
    case TypeKind::EnumMember: return pointee->byte_size();
    case TypeKind::CharSeq: return ndim * bits / 8;
    default: return 0;
  }
}

const Type* void_type() {
  static const Type* t = intern(make(TypeKind::Void));
  return t;
}
const Type* none_type() {
  static const Type* t = intern(make(TypeKind::NoneType));
  return t;
}
const Type* boolean() {
  static const Type* t = intern(make(TypeKind::Boolean));
  return t;
}
const Type* integer(int bits, bool is_signed) {
  Type t = make(TypeKind::Integer);
  t.bits = bits;
  t.is_signed = is_signed;
  return intern(std::move(t));
}
const Type* int8() {
  static const Type* t = integer(8, true);
  return t;
}
const Type* int16() {
  static const Type* t = integer(16, true);
  return t;
}
const Type* int32() {
  static const Type* t = integer(32, true);
  return t;
}
const Type* int64() {
  static const Type* t = integer(64, true);
  return t;
}
const Type* uint8() {
  static const Type* t = integer(8, false);
  return t;
}
const Type* uint16() {
  static const Type* t = integer(16, false);
  return t;
}
const Type* uint32() {
  static const Type* t = integer(32, false);
  return t;
}
const Type* uint64() {
  static const Type* t = integer(64, false);
  return t;
}
const Type* float32() {
  static const Type* t = [] {
    Type x = make(TypeKind::Float);
    x.bits = 32;
    return intern(std::move(x));
  }();
  return t;
}
const Type* float64() {
  static const Type* t = [] {
    Type x = make(TypeKind::Float);
    x.bits = 64;
    return intern(std::move(x));
  }();
  return t;
}
const Type* float16() {
  static const Type* t = [] {
    Type x = make(TypeKind::Float);
    x.bits = 16;
    return intern(std::move(x));
  }();
  return t;
}
const Type* bfloat16() {
  static const Type* t = [] {
    Type x = make(TypeKind::Float);
    x.bits = 16;
    x.key = "bfloat16";
    return intern(std::move(x));
  }();
  return t;
}
bool is_bfloat16(const Type* t) { return t == bfloat16(); }
const Type* storage_float(const std::string& name) {
  int bits = name == "bfloat16_raw" ? 16 : (name == "fp8_e5m2" || name == "fp8_e4m3" || name == "fp8_e8m0") ? 8 : 0;
  if (!bits) return nullptr;
  Type x = make(TypeKind::Float);
  x.bits = bits;
  x.key = name;
  return intern(std::move(x));
}
bool is_storage_float(const Type* t) { return t->kind == TypeKind::Float && !t->key.empty() && t->key != "bfloat16"; }
const Type* complex64() {
  static const Type* t = [] {
    Type x = make(TypeKind::Complex);
    x.bits = 64;
    return intern(std::move(x));
  }();
  return t;
}
const Type* complex128() {
  static const Type* t = [] {
    Type x = make(TypeKind::Complex);
    x.bits = 128;
    return intern(std::move(x));
  }();
  return t;
}
namespace {
const Type* datetime_kind(TypeKind kind, const std::string& unit) {
  static const char* units[] = {"", "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"};
  bool known = false;
  for (const char* u : units) known = known || unit == u;
  if (!known) return nullptr;
  Type t = make(kind);
  t.key = unit;
  return intern(std::move(t));
}
}  // namespace
const Type* enum_member(const std::string& identity, const std::string& display, bool is_int_enum,
                        const Type* value_type) {
  Type t = make(TypeKind::EnumMember);
  t.key = display + "#" + identity;
  t.is_signed = is_int_enum;
  t.pointee = value_type;
  return intern(std::move(t));
}
const Type* datetime64(const std::string& unit) { return datetime_kind(TypeKind::NPDatetime, unit); }
const Type* timedelta64(const std::string& unit) { return datetime_kind(TypeKind::NPTimedelta, unit); }
const Type* array(const Type* dtype, int ndim, Layout layout, bool readonly, bool unaligned) {
  // Launches type every array argument, so array types skip the interning
  // table through a small lock-free cache of the types already built.
  if (ndim <= 1 && layout == Layout::F) layout = Layout::C;
  static std::atomic<const Type*> recent[256];
  const std::size_t slot = (reinterpret_cast<std::uintptr_t>(dtype) / alignof(Type) * 31u +
                            static_cast<std::size_t>(ndim) * 7u + static_cast<std::size_t>(layout) * 3u + readonly) %
                           256u;
  const Type* hit = recent[slot].load(std::memory_order_acquire);
  if (hit && hit->dtype == dtype && hit->ndim == ndim && hit->layout == layout && hit->readonly == readonly &&
      hit->unaligned == unaligned)
    return hit;
  Type t = make(TypeKind::Array);
  t.dtype = dtype;
  t.ndim = ndim;
  t.layout = layout;
  t.readonly = readonly;
  t.unaligned = unaligned;
  const Type* made = intern(std::move(t));
  recent[slot].store(made, std::memory_order_release);
  return made;
}
const Type* tuple(const std::vector<const Type*>& elements) {
  Type t = make(TypeKind::Tuple);
  t.elements = elements;
  return intern(std::move(t));
}
const Type* cpointer(const Type* pointee) {
  Type t = make(TypeKind::CPointer);
  t.pointee = pointee;
  return intern(std::move(t));
}
const Type* optional(const Type* pointee) {
  Type t = make(TypeKind::Optional);
  t.pointee = pointee;
  return intern(std::move(t));
}
const Type* range(const Type* index_type) {
  Type t = make(TypeKind::Range);
  t.pointee = index_type;
  return intern(std::move(t));
}
const Type* string_literal(const std::string& text) {
  Type t = make(TypeKind::StringLiteral);
  t.key = text;
  return intern(std::move(t));
}
const Type* bytes_literal(const std::string& bytes) {
  Type t = make(TypeKind::BytesLiteral);
  t.key = bytes;
  return intern(std::move(t));
}
const Type* char_seq(int length, bool unicode) {
  Type t = make(TypeKind::CharSeq);
  t.ndim = length;
  t.bits = unicode ? 32 : 8;
  return intern(std::move(t));
}
const Type* module(const std::string& key) {
  Type t = make(TypeKind::Module);
  t.key = key;
  return intern(std::move(t));
}
const Type* intrinsic(const std::string& key) {
  Type t = make(TypeKind::Intrinsic);
  t.key = key;
  return intern(std::move(t));
}
const Type* dispatcher(const void* jit_function) {
  Type t = make(TypeKind::Dispatcher);
  t.object = jit_function;
  return intern(std::move(t));
}
const Type* foreign(const void* foreign_function) {
  Type t = make(TypeKind::Foreign);
  t.object = foreign_function;
  return intern(std::move(t));
}
const Type* type_ref(const Type* type) {
  Type t = make(TypeKind::TypeRef);
  t.pointee = type;
  return intern(std::move(t));
}
const Type* ffi() {
  static const Type* t = intern(make(TypeKind::Ffi));
  return t;
}

const Type* described(TypeKind kind, const std::string& key, const void* object, const Type* dtype, int ndim) {
  Type t = make(kind);
  t.key = key;
  t.object = object;
  t.dtype = dtype;
  t.ndim = ndim;
  return intern(std::move(t));
}

// A tuple type that carries a class: key its name, object its registry entry
// (ir/named_tuples.cpp).
const Type* detail::tuple_of_class(const std::vector<const Type*>& elements, const std::string& key,
                                   const void* object) {
  Type t = make(TypeKind::Tuple);
  t.elements = elements;
  t.key = key;
  t.object = object;
  return intern(std::move(t));
}

const Type* vector_type(const Type* base, int n) {
  if (!base || !(base->is_integer() || base->is_float()) || n < 1 || n > 4) return nullptr;
  if (base->is_float() && base->bits != 32 && base->bits != 64) return nullptr;
  Type t = make(TypeKind::Tuple);
  t.elements.assign(static_cast<size_t>(n), base);
  t.key = base->str() + "x" + std::to_string(n);
  return intern(std::move(t));
}

const Type* vector_type_by_name(const std::string& name) {
  size_t x = name.rfind('x');
  if (x == std::string::npos || x + 2 != name.size() || name[x + 1] < '1' || name[x + 1] > '4') return nullptr;
  std::string base = name.substr(0, x);
  static const char* bases[] = {"int8",   "int16",  "int32",  "int64",   "uint8",
                                "uint16", "uint32", "uint64", "float32", "float64"};
  for (const char* b : bases)
    if (base == b) return vector_type(scalar_by_name(base), name[x + 1] - '0');
  return nullptr;
}

const Type* scalar_by_name(const std::string& name) {
  static const std::unordered_map<std::string, const Type* (*)()> names = {
      {"bool", boolean},
      {"bool_", boolean},
      {"boolean", boolean},
      {"b1", boolean},
      {"int8", int8},
      {"i1", int8},
      {"byte", int8},
      {"char", int8},
      {"int16", int16},
      {"i2", int16},
      {"short", int16},
      {"int32", int32},
      {"i4", int32},
      {"intc", int32},
      {"int64", int64},
      {"i8", int64},
      {"intp", int64},
      {"int_", int64},
      {"long", int64},
      {"longlong", int64},
      {"ssize_t", int64},
      {"uint8", uint8},
      {"u1", uint8},
      {"ubyte", uint8},
      {"uchar", uint8},
      {"uint16", uint16},
      {"u2", uint16},
      {"ushort", uint16},
      {"uint32", uint32},
      {"u4", uint32},
      {"uintc", uint32},
      {"uint64", uint64},
      {"u8", uint64},
      {"uintp", uint64},
      {"uint", uint64},
      {"ulong", uint64},
      {"ulonglong", uint64},
      {"size_t", uint64},
      {"float16", float16},
      {"f2", float16},
      {"half", float16},
      {"bfloat16", bfloat16},
      {"float32", float32},
      {"f4", float32},
      {"single", float32},
      {"float_", float32},
      {"float64", float64},
      {"f8", float64},
      {"double", float64},
      {"complex64", complex64},
      {"c8", complex64},
      {"csingle", complex64},
      {"complex128", complex128},
      {"c16", complex128},
      {"cdouble", complex128},
      {"complex_", complex128},
      {"void", void_type},
      {"none", none_type},
  };
  auto it = names.find(name);
  if (it != names.end()) return it->second();
  // NumPy's dtype names "datetime64[D]", "timedelta64[ns]", "datetime64".
  for (const char* prefix : {"datetime64", "timedelta64"}) {
    std::string p(prefix);
    if (name.rfind(p, 0) != 0) continue;
    std::string rest = name.substr(p.size());
    std::string unit;
    if (!rest.empty()) {
      if (rest.size() < 3 || rest.front() != '[' || rest.back() != ']') return nullptr;
      unit = rest.substr(1, rest.size() - 2);
    }
    return p[0] == 'd' ? datetime64(unit) : timedelta64(unit);
  }
  return storage_float(name);
}

std::string numpy_name(const Type* scalar) {
  if (scalar->kind == TypeKind::Boolean) return "bool";
  return scalar->str();
}

}  // namespace cuhost::ir
