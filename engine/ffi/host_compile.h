// Foreign device code on the CPU backend. A .cu file that is plain C++ (the
// usual case for small device libraries: extern "C" __device__ functions of
// arithmetic) is compiled for the host with Debian's clang-19 to LLVM bitcode
// and linked into the kernel's ORC module, behind a small prelude that maps
// __device__, __host__, __forceinline__ and friends to host C++. Code that
// needs CUDA headers or GPU intrinsics, and items that ship only GPU binaries
// (.ptx .cubin .fatbin .ltoir .a .o), give a clear error naming the function
// and why it cannot run on the CPU. Results are cached by content.
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::ffi {

// LLVM bitcode for one link item, for the host. `function` names the foreign
// function that brought the item (for messages). Throws UserError:
// NotImplementedError for GPU-only items, CompileError (with clang's
// diagnostics) for sources that are not plain C++, FileNotFoundError for a
// missing file.
std::string host_bitcode(const ir::LinkItem& item, const std::string& function,
                         const std::vector<std::string>& include_dirs);

// The prelude text placed before every foreign source compiled for the host.
const char* host_prelude();

}  // namespace cuhost::ffi
