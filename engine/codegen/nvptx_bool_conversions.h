// LLVM 19's NVPTX backend converts a signed one-bit integer to floating
// point as if it were unsigned: `sitofp i1 true to double` becomes
// `selp.u32 1, 0` then `cvt.rn.f64.s32`, giving 1.0 where the value is -1.0
// (its instruction patterns select 1 for true). The optimizer makes such
// conversions from ordinary code: `float(not b) * -1`, `x - (not b)` and
// the like fold into `sitofp i1`, so a kernel gave +1.0 where the CPU backend
// and numba give -1.0 (fuzz seed 45258). Every `sitofp` from i1 (or a vector
// of i1) is rewritten, just before PTX is emitted, as a select of -1.0 and
// 0.0, which the backend lowers to `selp` of the two constants.
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

// Rewrites the module's sitofp-from-i1 conversions; returns how many.
int rewrite_signed_bool_to_float(llvm::Module& m);

}  // namespace cuhost::codegen
