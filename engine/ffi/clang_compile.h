// Compiling a foreign .cu link item with Debian's clang-19 to LLVM bitcode,
// shared by the CPU backend (host_compile.h: the code runs on the host) and
// the CUDA backend (device_inline.h: the code is inlined into the kernel's
// module for NVPTX). clang runs inside the process (clang_module/) or, as
// the fallback, as a child process, behind a prelude that maps CUDA's
// qualifiers; results, failures included, are cached in memory
// and on disk by the content of everything that reaches the compiler. A
// compile may start ahead of its first use, on a worker thread (run_ahead).
#pragma once

#include <functional>
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

// What reaches clang for one item: the item (a .cu, compiled as C++), its
// text and folder as read_item_source gives them, the prelude placed before
// it, the flags, the include folders searched after the item's own, and the
// cache folder's kind.
struct ClangRequest {
  ir::LinkItem item;
  std::string source;
  std::string dir;
  std::string prelude;
  std::vector<std::string> flags;
  std::vector<std::string> include_dirs;
  std::string cache_kind;
};

// Compiles a request, or finds its result: in memory, in the disk cache, or
// from a compile of the same request running on another thread (waited
// for). `stage` names the compile in -v logs.
ClangRun clang_bitcode(const ClangRequest& request, const char* stage = "clang");

// Runs `work` on a worker thread of its own, joined at exit (compiles
// started before anyone waits for them: declare_device's sources). What it
// throws is dropped: a later request for the same compile reports it.
void run_ahead(std::function<void()> work);

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
