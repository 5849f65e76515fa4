// The products of compile*() and host njit as bytes and back, for the
// content-keyed disk cache (compile_cache.h), beside kernel_serialize.h's
// kernels: compile*()'s text is its code and return type; a host function
// is its optimized LLVM IR, entry symbol and slot counts, JIT-compiled again when read
// (code generation only: no typing, lowering or optimization).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compiler.h"
#include "runtime/host_function.h"

namespace cuhost::runtime {

// The bytes of `text`, or nullopt when its return type does not read back
// as itself (a type only this process can name).
std::optional<std::string> serialize_text(const CompiledText& text);
// The text `data` holds; nullopt when the bytes are not of this format.
std::optional<CompiledText> deserialize_text(const std::string& data);

// The bytes of a host function (serializable() only), or nullopt when its
// return type does not read back as itself.
std::optional<std::string> serialize_host_function(const CompiledHostFunction& compiled);
// The host function `data` holds, named `name`, loaded into the JIT (its
// argument types are the request's: the compile lookup sets them); null
// when the bytes are not of this format. Throws UserError when the IR fails
// to JIT-compile.
std::shared_ptr<CompiledHostFunction> deserialize_host_function(const std::string& data, const std::string& name);

}  // namespace cuhost::runtime
