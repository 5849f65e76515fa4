// Types and callables that Python code adds to the kernel language through
// numba's extension API (cuda.extending): an extension type is a numba
// `types.Type` subclass whose values have a data model (StructModel members,
// an opaque pointer, or one LLVM type); an extension object is a Python
// callable whose typing and lowering live in Python (an @overload'ed
// function, an @intrinsic, a class given type_callable, ...). Both are
// interned here so typing and lowering compare them by pointer like every
// other type; the Python side registers them (python/extension_api.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::ir {

enum class DataModel : std::uint8_t {
  Struct,     // an LLVM struct of the members' values (numba's StructModel)
  Opaque,     // a pointer (numba's OpaqueModel)
  Primitive,  // one LLVM type given as text (numba's PrimitiveModel)
};

struct ExtensionMember {
  std::string name;
  const Type* type = nullptr;
};

struct ExtensionTypeInfo {
  std::string spelling;  // unique among extension types; what Type::str() prints
  DataModel model = DataModel::Opaque;
  std::vector<ExtensionMember> members;  // Struct
  std::string llvm_text;                 // Primitive: the LLVM type ("i64", "{i32, i8*}")
  std::int64_t size = 0;                 // bytes of one value in memory (arrays of them)
  std::int64_t align = 1;
  int member_index(const std::string& name) const;  // -1 when absent
};

// Registers an extension type (the first description of a spelling wins;
// registering the same spelling again returns the same type).
const Type* register_extension_type(ExtensionTypeInfo info);
// The extension type registered under `spelling`, or nullptr.
const Type* extension_type_named(const std::string& spelling);
const ExtensionTypeInfo& extension_info(const Type* extension_type);
// The longest registered spelling that starts at text[pos] and is followed by
// the end or a delimiter (space , ) ] ;), or "" (type_parser.cpp).
std::string extension_spelling_at(const std::string& text, std::size_t pos);
// Whether `t` is or holds (array dtype, tuple element, optional payload) an
// extension type: such types exist only in this process.
bool contains_extension_type(const Type* t);

// A Python object whose calls are typed by the extension API. `handle` is
// the Python layer's (a strong reference it keeps for the process).
struct ExtensionObject {
  std::string name;  // how messages show it: "Function(<function f at 0x...>)"
  const void* handle = nullptr;
};

// The type of an extension object used as a value (interned per object).
const Type* extension_function(const ExtensionObject* object);
// `receiver.name` where `name` is a method the extension API provides: only callable.
const Type* extension_method(const Type* receiver, const std::string& name);

}  // namespace cuhost::ir
