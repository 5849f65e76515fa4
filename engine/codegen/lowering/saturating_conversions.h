// A float-to-integer conversion of a NaN, an infinity or a value outside the
// integer type's range is undefined (LLVM's fptosi/fptoui give poison, as in
// numba's own lowering): the GPU's cvt.rzi saturates, x86's cvttsd2si gives
// the "integer indefinite" value (INT_MIN). With the environment variable
// CUHOST_SATURATING_FLOAT_TO_INT=1 every backend converts as the GPU does
// (gpu_float_to_int), so that the differential fuzzer (tests/fuzz/backends.py)
// can prove a difference between the CPU and CUDA backends to be such a
// conversion. Off by default: the conversion stays numba's.
#pragma once

namespace llvm {
class IRBuilderBase;
class IntegerType;
class Value;
}  // namespace llvm

namespace cuhost::codegen {

bool saturating_float_to_int();

// `x` (a float) converted to `to` as the NVPTX code of an H200 does it
// (tests/fuzz/gpu_questions/float_to_int.py): truncation toward zero,
// out-of-range values and infinities saturated, a NaN to the pattern with
// only the top bit set (INT_MIN, 2^63, 2^31, 32768); an 8-bit result is the
// low byte of the 16-bit conversion (NVPTX has no 8-bit registers: cvt.rzi
// to 16 bits, then an 8-bit store), so int8(inf) is -1 and int8(200.5) -56.
llvm::Value* gpu_float_to_int(llvm::IRBuilderBase& b, llvm::Value* x, llvm::IntegerType* to, bool is_signed);

}  // namespace cuhost::codegen
