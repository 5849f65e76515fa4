// Integer/float conversions that LLVM 19's NVPTX backend lowers differently
// from what the program means, rewritten just before PTX is emitted (one
// walk over the module):
//
// - A signed one-bit integer to floating point: the backend converts it as
//   if it were unsigned (`sitofp i1 true to double` becomes `selp.u32 1, 0`
//   then `cvt.rn.f64.s32`, 1.0 where the value is -1.0). The optimizer makes
//   such conversions from ordinary code (`float(not b) * -1`, `x - (not b)`),
//   so a kernel gave +1.0 where the CPU backend and numba give -1.0 (fuzz
//   seed 45258; tests/scripts/language/bool_to_float_signed.py). Every
//   `sitofp` from i1 (or a vector of i1) becomes a select of -1.0 and 0.0.
// - A float to an 8-bit integer: NVPTX has no 8-bit registers, so the
//   backend converts with `cvt.rzi.s16.f64` (or `.u16`) and, where the 8-bit
//   value is widened, takes the 16-bit register as already extended from 8
//   bits (the value is poison in LLVM when out of range).
//   `np.int32(np.int8(784.0))` then gave 784, a value no int8 holds, where
//   the same value stored was 16 and numba-cuda (NVVM) gives 16 either way
//   (fuzz seed 86293; tests/scripts/language/float_to_byte_widened.py).
//   Every fptosi/fptoui to i8 (or a vector of i8) becomes the conversion to
//   i16 truncated to i8, so an 8-bit result is the same byte wherever it is
//   used: stored, widened or compared.
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

// Rewrites the module's conversions above; returns how many.
int rewrite_conversions_for_nvptx(llvm::Module& m);

}  // namespace cuhost::codegen
