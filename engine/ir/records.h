// Record types: NumPy structured dtypes as kernel types (numba's Record and
// NestedArray). A record is a byte layout of named fields at fixed offsets;
// each field is a scalar, another record or a nested array (a fixed-shape,
// C-ordered array stored inline). Layouts are interned by their numba
// spelling, "Record(a[type=float64;offset=0],b[type=int32;offset=8];16;True)",
// so two dtypes with the same layout are one type, as in numba.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::ir {

struct RecordField {
  std::string name;
  const Type* type = nullptr;  // scalar, Record or NestedArray
  std::int64_t offset = 0;     // bytes from the start of the record
};

struct RecordLayout {
  std::vector<RecordField> fields;  // in dtype order
  std::int64_t size = 0;            // the dtype's itemsize
  bool aligned = false;             // numpy's align=True (isalignedstruct)
  const RecordField* find(const std::string& name) const;
};

// The record type of these fields (interned by spelling).
const Type* record(std::vector<RecordField> fields, std::int64_t size, bool aligned);
const RecordLayout& record_layout(const Type* record_type);
// An inline array of `dtype` (scalar or record) with a fixed C-ordered shape.
const Type* nested_array(const Type* dtype, const std::vector<std::int64_t>& shape);
const std::vector<std::int64_t>& nested_shape(const Type* nested);
// Bytes of a Record or NestedArray.
std::int64_t described_byte_size(const Type* t);
// The ABI alignment of a field type (numba's get_abi_alignment of its data
// type): scalars their size (complex: one part), records their widest field,
// nested arrays their element's, fixed-width strings their character's.
int abi_alignment(const Type* t);
// Whether `t` can be an element of an array (scalars, records, fixed-width
// strings, dates and extension types).
inline bool is_array_dtype(const Type* t) {
  return t->is_scalar() || t->kind == TypeKind::Record || t->kind == TypeKind::CharSeq ||
         t->kind == TypeKind::Extension || is_datetime_like(t);
}

}  // namespace cuhost::ir
