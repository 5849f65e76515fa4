// LLVM IR text written outside cuhost's compiler (llvmlite modules given to
// numba.cuda.cudadrv.nvvm.compile_ir) compiled to PTX by LLVM's NVPTX
// backend, which stands in for NVVM there.
#pragma once

#include <string>
#include <vector>

namespace cuhost::codegen {

// Parses each of `texts` (typed pointers, as llvmlite writes them, read as
// opaque) and links them into one module, as NVVM's compilation unit does;
// retargets it to NVPTX for sm_<cc_major><cc_minor>, links the libdevice
// functions it calls, optimizes at `opt` and returns the PTX. Malformed IR
// or a module that does not verify is a CompileError with LLVM's diagnostic.
std::string compile_ir_text_to_ptx(const std::vector<std::string>& texts, int cc_major, int cc_minor, int opt,
                                   bool fastmath);

}  // namespace cuhost::codegen
