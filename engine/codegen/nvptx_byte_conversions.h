// A float converted to an 8-bit integer on the GPU is the low byte of its
// 16-bit conversion: NVPTX has no 8-bit registers, so LLVM 19's backend
// converts with `cvt.rzi.s16.f64` (or `.u16`) and, where the 8-bit value is
// widened, takes the 16-bit register as already extended from 8 bits (the
// value is poison in LLVM when out of range). `np.int32(np.int8(784.0))` then
// gave 784 on the GPU, a value no int8 holds, where the same value stored
// was 16 and numba-cuda (NVVM) gives 16 either way (fuzz seed 86293;
// tests/scripts/language/float_to_byte_widened.py). Every fptosi/fptoui to
// i8 (or a vector of i8) is rewritten, just before PTX is emitted, as the
// conversion to i16 truncated to i8, so an 8-bit result is the same byte
// wherever it is used: stored, widened or compared.
#pragma once

namespace llvm {
class Module;
}

namespace cuhost::codegen {

// Rewrites the module's float-to-i8 conversions; returns how many.
int narrow_float_to_byte_conversions(llvm::Module& m);

}  // namespace cuhost::codegen
