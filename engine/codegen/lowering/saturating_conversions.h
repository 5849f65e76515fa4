// A float-to-integer conversion of a NaN, an infinity or a value outside the
// integer type's range is undefined (LLVM's fptosi/fptoui give poison, as in
// numba's own lowering): PTX's cvt.rzi saturates (NaN to 0), x86's cvttsd2si
// gives the "integer indefinite" value (INT_MIN). With the environment
// variable CUHOST_SATURATING_FLOAT_TO_INT=1 every backend saturates as the
// GPU does, so that the differential fuzzer (tests/fuzz/backends.py) can
// prove a difference between the CPU and CUDA backends to be such a
// conversion. Off by default: the conversion stays numba's.
#pragma once

namespace cuhost::codegen {

bool saturating_float_to_int();

}  // namespace cuhost::codegen
