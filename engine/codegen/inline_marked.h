// inline=True / inline='always' (numba: inlined at the IR level, before LLVM
// sees the callee): lowering marks the callee's function with kInlineMarker
// and inline_marked_calls() inlines every call to it right after lowering,
// so the IR that inspect_llvm() shows already has the body in place and no
// `alwaysinline` attribute (that one belongs to forceinline=True).
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

inline constexpr const char* kInlineMarker = "cuhost-inline";

// Inlines the calls to marked functions (not recursive ones), removes the
// marker, and deletes marked functions left without uses.
void inline_marked_calls(llvm::Module& m);

}  // namespace cuhost::codegen
