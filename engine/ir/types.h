// The interned type system shared by typing, lowering and the launcher.
// Every type is created once and compared by pointer; names follow numba's
// spelling ("float32", "array(float32, 1d, C)", "UniTuple(int64 x 2)") so
// error messages and inspect_types() read like numba's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuhost::ir {

enum class TypeKind : std::uint8_t {
  Void,
  NoneType,
  Boolean,
  Integer,   // bits + is_signed
  Float,     // bits 16, 32 or 64; bits 16 with key "bfloat16" is bfloat16 (see half.h users)
  Complex,   // bits of the whole value: 64 or 128
  Array,     // dtype, ndim, layout, readonly
  Tuple,     // elements (homogeneous tuples print as UniTuple)
  CPointer,  // pointee
  Optional,  // pointee
  Range,     // range(...) iterator, pointee = index type (int64)
  StringLiteral,
  Module,      // key: "cuda", "math", "numpy", "cuda.atomic", "cuda.shared", ...
  Intrinsic,   // key: "math.sin", "cuda.syncthreads", "cuda.threadIdx", "builtins.range", ...
  Dispatcher,  // object: a JitFunction (another @cuda.jit function)
  Foreign,     // object: a ForeignFunction (cuda.declare_device)
  TypeRef,     // a type used as a value: float32(x), np.float32, a dtype argument; pointee = the type
  Ffi,         // a cffi.FFI() instance or cuda.ffi (only .from_buffer is usable)
  // A NumPy structured dtype: key = numba's spelling, object = its RecordLayout (ir/records.h).
  Record,
  // An array field of a record: dtype, ndim; key = its spelling, object = its shape (ir/records.h).
  NestedArray,
  // A type added through the extension API: key = its spelling, object = its
  // ExtensionTypeInfo (ir/extension_types.h).
  Extension,
  // A Python callable typed by the extension API: key = its name, object = its ExtensionObject.
  ExtensionFunction,
  // A method of the extension API bound to a value: key = the method, dtype = the receiver's type.
  ExtensionMethod,
  // NumPy's datetime64 and timedelta64: an int64 count of `key` units ("D",
  // "s", "ns", ...; "" generic), INT64_MIN being NaT (ir/datetime.h).
  NPDatetime,
  NPTimedelta,
  // A member of a Python Enum class, represented by its value (pointee =
  // the value's type); key = "<display>#<class identity>", is_signed = an
  // IntEnum (its members are integers wherever a number is needed).
  EnumMember,
  // A NumPy fixed-width string (numba's CharSeq, dtype S<n>, and
  // UnicodeCharSeq, dtype U<n>): ndim = its length in characters, bits = the
  // width of a character (8, or 32 for UCS-4 code points). Stored as
  // [n x iW], NUL-padded.
  CharSeq,
  // A bytes constant (b"..."): key = its bytes.
  BytesLiteral,
};

enum class Layout : std::uint8_t { C, F, A };

struct Type {
  TypeKind kind;
  int bits = 0;                   // Integer, Float, Complex
  bool is_signed = false;         // Integer
  const Type* dtype = nullptr;    // Array
  int ndim = 0;                   // Array
  Layout layout = Layout::A;      // Array
  bool readonly = false;          // Array
  bool unaligned = false;         // Array: elements at any byte (numba's aligned=False: packed records' nested arrays)
  const Type* pointee = nullptr;  // CPointer, Optional, Range, TypeRef
  std::vector<const Type*> elements;  // Tuple
  std::string key;                    // Module, Intrinsic, StringLiteral (the text)
  const void* object = nullptr;       // Dispatcher, Foreign

  std::string str() const;  // numba-style name
  bool is_scalar() const {
    return kind == TypeKind::Boolean || kind == TypeKind::Integer || kind == TypeKind::Float ||
           kind == TypeKind::Complex;
  }
  bool is_number() const { return kind == TypeKind::Integer || kind == TypeKind::Float || kind == TypeKind::Complex; }
  bool is_integer() const { return kind == TypeKind::Integer; }
  bool is_float() const { return kind == TypeKind::Float; }
  bool is_array() const { return kind == TypeKind::Array; }
  bool is_tuple() const { return kind == TypeKind::Tuple; }
  // Size in bytes of a scalar or pointer value (bool is 1 byte in memory).
  int byte_size() const;
};

// Factories: each returns the unique instance (thread-safe).
const Type* void_type();
const Type* none_type();
const Type* boolean();
const Type* integer(int bits, bool is_signed);
const Type* int8();
const Type* int16();
const Type* int32();
const Type* int64();
const Type* uint8();
const Type* uint16();
const Type* uint32();
const Type* uint64();
const Type* float32();
const Type* float64();
const Type* float16();   // IEEE half
const Type* bfloat16();  // Float, bits 16, key "bfloat16"
bool is_bfloat16(const Type* t);
// Storage-only floats (no arithmetic, conversions only): "fp8_e5m2",
// "fp8_e4m3", "fp8_e8m0" (bits 8) and "bfloat16_raw" (bits 16); Float
// types keyed by that name. nullptr for other names.
const Type* storage_float(const std::string& name);
bool is_storage_float(const Type* t);
const Type* complex64();
const Type* complex128();
// datetime64[unit] / timedelta64[unit]; nullptr for an unknown unit.
const Type* datetime64(const std::string& unit);
const Type* timedelta64(const std::string& unit);
// The member type of the enum class known as `identity` (unique per class
// object), shown as `display` ("Enum<int64>(Color)", numba's spelling).
const Type* enum_member(const std::string& identity, const std::string& display, bool is_int_enum,
                        const Type* value_type);
inline bool is_int_enum(const Type* t) { return t->kind == TypeKind::EnumMember && t->is_signed; }
inline bool is_datetime_like(const Type* t) {
  return t->kind == TypeKind::NPDatetime || t->kind == TypeKind::NPTimedelta;
}
const Type* array(const Type* dtype, int ndim, Layout layout, bool readonly = false, bool unaligned = false);
const Type* tuple(const std::vector<const Type*>& elements);
const Type* cpointer(const Type* pointee);
const Type* optional(const Type* pointee);
const Type* range(const Type* index_type);
const Type* string_literal(const std::string& text);
const Type* bytes_literal(const std::string& bytes);
// A fixed-width string of `length` characters: bytes (S) or UCS-4 code points (U).
const Type* char_seq(int length, bool unicode);
inline bool is_unicode_char_seq(const Type* t) { return t->kind == TypeKind::CharSeq && t->bits == 32; }
const Type* module(const std::string& key);
const Type* intrinsic(const std::string& key);
const Type* dispatcher(const void* jit_function);
const Type* foreign(const void* foreign_function);
const Type* type_ref(const Type* type);
const Type* ffi();
// Interns a type known by its spelling `key` and a descriptor `object` that
// is itself interned by that spelling (records: ir/records.cpp).
const Type* described(TypeKind kind, const std::string& key, const void* object, const Type* dtype = nullptr,
                      int ndim = 0);

// Looks up a scalar type by numba/NumPy name ("float32", "int64", "bool_",
// "boolean", "intp", "uint8", ...); nullptr when unknown.
const Type* scalar_by_name(const std::string& name);

// The NumPy dtype name of a scalar ("float32", "bool" for Boolean).
std::string numpy_name(const Type* scalar);

}  // namespace cuhost::ir
