// cuda.local.array on the GPU: the lowering allocates each array as numba-cuda
// does (an alloca named `_cudapy_lmem` with the requested alignment, or the
// type's own when none is asked), which is what inspect_llvm() shows; before
// optimization place_local_arrays() makes that alignment hold in a thread's
// local frame, which ptxas places on a 16-byte boundary only.
#pragma once

#include <cstdint>

namespace llvm {
class AllocaInst;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

// numba-cuda's name for a local array's alloca (readers of inspect_llvm()
// look for it). Inlining adds suffixes (`_cudapy_lmem.i`), so the name starts
// with it.
inline constexpr const char* kLocalArrayName = "_cudapy_lmem";

// What ptxas and the driver guarantee on the GPU: a thread's local frame
// starts on a 16-byte boundary, whatever the PTX declares (alignment=64
// arrays were seen at ...410 on an H200).
inline constexpr std::int64_t kGpuFrameAlign = 16;

bool is_local_array(const llvm::AllocaInst& a);

// Every local array on at least the frame's 16-byte boundary (as much as any
// element needs); an alignment above that is made by hand: room for the
// padding, and the address rounded up to the next multiple at run time. The
// room is declared with the frame's real alignment, so that LLVM cannot fold
// the padding away as zero. Static allocas of any other name above 16 bytes
// get the same rounding.
void place_local_arrays(llvm::Module& m);

}  // namespace cuhost::codegen
