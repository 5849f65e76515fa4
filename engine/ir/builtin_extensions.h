// The extension API's overloads of cuhost's own functions and operators
// (@overload(operator.add), @overload(len), @overload(math.sqrt) for
// extension types): the Python layer registers, under the key typing uses
// for the builtin ("operator.add", "builtins.len", "math.sqrt"), the
// ExtensionObject whose candidates implement it. Typing asks here when an
// operand is of an extension type (sema/typing/extension.cpp).
#pragma once

#include <string>

#include "ir/extension_types.h"

namespace cuhost::ir {

void register_builtin_extension(const std::string& key, const ExtensionObject* object);
// The object registered under `key`, or nullptr.
const ExtensionObject* builtin_extension(const std::string& key);

}  // namespace cuhost::ir
