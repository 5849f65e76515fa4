// Which global variables a loaded kernel image defines, read from the image
// itself (PTX declarations, or a cubin's ELF symbol table), so that cuhost
// asks the driver (cuLibraryGetGlobal) only for globals that exist. A
// lookup that fails costs nothing in a script, but every one is an error in
// tools that watch driver calls (compute-sanitizer reports each
// CUDA_ERROR_NOT_FOUND), which should see only the script's own errors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace cuhost::cuda {

using GlobalNames = std::set<std::string>;

// The names of the global (.global / .const) variables `image` defines;
// nullopt when it is neither PTX nor an ELF cubin that can be read (the
// caller then asks the driver).
std::optional<GlobalNames> defined_globals(const std::string& image);

// The names of a loaded library's globals, from load to unload.
void remember_library_globals(std::uintptr_t library, std::optional<GlobalNames> names);
void forget_library_globals(std::uintptr_t library);

// False only when `library`'s globals are known and `name` is not one of them.
bool library_may_define(std::uintptr_t library, const std::string& name);

}  // namespace cuhost::cuda
