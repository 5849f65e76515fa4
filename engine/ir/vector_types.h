// CUDA vector types (float32x4, int16x2, ...; numba-cuda's vector_types) in
// the type system: a vector is a value tuple of 1 to 4 elements of one
// numeric base type whose type carries its name, so it prints, mangles and
// unifies as that vector type and its components read as .x .y .z .w.
#pragma once

#include <string>

#include "ir/types.h"

namespace cuhost::ir {

// The vector type `<base>x<n>` (n in 1..4); nullptr for a base with no vector type.
const Type* vector_type(const Type* base, int n);
// Parses "float32x4" ("<base>x<n>"); nullptr when `name` is no vector type.
const Type* vector_type_by_name(const std::string& name);
// (A named tuple has a key too, and its class in `object`: ir/named_tuples.h.)
inline bool is_vector_type(const Type* t) { return t->kind == TypeKind::Tuple && !t->key.empty() && !t->object; }

}  // namespace cuhost::ir
