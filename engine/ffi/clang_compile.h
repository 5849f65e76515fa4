// Compiling a foreign .cu link item with Debian's clang-19 to LLVM bitcode,
// shared by the CPU backend (host_compile.h: the code runs on the host) and
// the CUDA backend (device_inline.h: the code is inlined into the kernel's
// module for NVPTX). clang runs as a child process behind a prelude that
// maps CUDA's qualifiers; results, failures included, are cached in memory
// and on disk by the content of everything that reaches the compiler.
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::ffi {

// The clang-19 that compiles foreign sources: $CUHOST_CLANG when set (a
// relocated install, such as the GPU bundle), else the one found at build time.
std::string clang_path();

struct ClangRun {
  bool started = true;      // false: clang could not be started
  bool ok = false;          // compiled: `bitcode` holds the module
  std::string bitcode;      // LLVM bitcode
  std::string diagnostics;  // clang's stderr (its warnings too, from the cache)
  std::string shown;        // how messages name the item (its path or name)
};

// The item's source text and folder ("" for in-memory items). Throws
// UserError FileNotFoundError when a path item is missing.
void read_item_source(const ir::LinkItem& item, std::string* source, std::string* dir);

// Compiles `item` (a .cu, as C++; its text and folder as read_item_source
// gives them) with `flags` behind `prelude`; searches the item's folder,
// then `include_dirs`. `cache_kind` names the cache folder.
ClangRun clang_bitcode(const ir::LinkItem& item, const std::string& source, const std::string& dir,
                       const std::string& prelude, const std::vector<std::string>& flags,
                       const std::vector<std::string>& include_dirs, const std::string& cache_kind);

// The #defines that map CUDA's function and alignment qualifiers to plain
// C++, shared by both backends' preludes.
extern const char* const kCudaQualifierMacros;

// What NVRTC gives a source without any include (size_t, ptrdiff_t, the
// fixed-width integer types, NULL), shared by both backends' preludes.
extern const char* const kNvrtcBuiltinTypes;

// The first CUDA toolkit header a source includes ("cuda_fp16.h",
// "cub/cub.cuh"), or "" when it includes none.
std::string cuda_header_included(const std::string& source);

}  // namespace cuhost::ffi
