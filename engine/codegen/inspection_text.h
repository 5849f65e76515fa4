// The module text inspect_llvm() starts from (the llvmlite respelling is
// pylib/cuda/_llvmlite_spelling.py): LLVM's printer, except that the alloca
// of a local array whose alignment is its type's own, the one the parser
// gives an alloca written without it, is printed without it, as llvmlite
// prints numba-cuda's local arrays when no alignment is asked for. LLVM reads
// the text back as the same module.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace cuhost::codegen {

std::string inspection_text(const llvm::Module& m);

}  // namespace cuhost::codegen
