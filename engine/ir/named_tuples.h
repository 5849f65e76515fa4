// numba's NamedTuple and NamedUniTuple: a tuple whose type carries its Python
// class (collections.namedtuple, typing.NamedTuple) and field names, so that
// `p.x` reads an element. Everything else treats it as a tuple (indexing,
// len, unpacking, kernel argument slots); two classes give two types even
// when their fields agree, as in numba.
#pragma once

#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::ir {

struct NamedTupleInfo {
  std::string class_name;           // __name__ of the class, the type's spelling prefix
  std::vector<std::string> fields;  // _fields, one per element
  const void* identity = nullptr;   // the class object (kept alive by whoever made the type)
};

// The named tuple type of `elements` for a class; one instance per (class,
// fields, element types).
const Type* named_tuple(const std::string& class_name, const std::vector<std::string>& fields,
                        const std::vector<const Type*>& elements, const void* identity);
// The class information of a named tuple type; nullptr for any other type.
const NamedTupleInfo* named_tuple_info(const Type* t);
// The index of field `name`, or -1.
int named_tuple_field(const Type* t, const std::string& name);

namespace detail {
// The interned tuple type with a class key and object (defined in types.cpp).
const Type* tuple_of_class(const std::vector<const Type*>& elements, const std::string& key, const void* object);
}  // namespace detail

}  // namespace cuhost::ir
