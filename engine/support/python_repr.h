// Python's spelling of numbers, for text that must read exactly as Python
// would write it: error messages built from compile-time constants and the
// str() of a raised exception's argument. Kept below every stage (no
// CPython) so the compiler and the kernel error record can use it.
#pragma once

#include <string>

namespace cuhost {

// repr(float) (== str(float)): the shortest spelling that reads back to the
// same double, fixed notation for decimal exponents -4 <= e < 16 (with ".0"
// when integral), else "1e+16" / "2.5e-07"; "inf", "-inf", "nan".
std::string python_float_repr(double value);

}  // namespace cuhost
