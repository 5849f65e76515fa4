// CUDA's libdevice bitcode (libdevice.10.bc), read once per process, and the
// __nvvm_reflect queries in it that both backends answer the same way.
#pragma once

namespace llvm {
class MemoryBuffer;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

// The file's bytes; throws a CompileError naming the path when it is missing.
const llvm::MemoryBuffer& libdevice_bitcode();

// Replaces __nvvm_reflect("__CUDA_PREC_SQRT") with 1 (correctly rounded
// sqrt, numba-cuda's default) or 0 under fastmath; with `all`, also
// "__CUDA_FTZ" (fastmath) and "__CUDA_ARCH" (arch, e.g. 900), which NVPTX's
// NVVMReflect pass otherwise answers. Other queries read 0, as there.
void resolve_nvvm_reflect(llvm::Module& m, bool fastmath, bool all, int arch);

// Calls of NVVM intrinsics libdevice uses that LLVM 19's NVPTX backend
// cannot select (llvm.nvvm.tanh.approx.f32), or would rewrite into generic
// casts of another meaning (the rounding-mode conversions), become the PTX
// instruction as inline assembly.
void lower_nvvm_intrinsics_unknown_to_llvm(llvm::Module& m);

}  // namespace cuhost::codegen
