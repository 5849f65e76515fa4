// Contiguity of strided memory with NumPy's rules (axes of length 1 do not
// count; empty arrays are both C and F), and the numba layout it gives. One
// home for the rule: device arrays (python/), captured device arrays
// (sema) and launches all classify strides here.
#pragma once

#include <cstdint>

#include "ir/types.h"

namespace cuhost::ir {

std::int64_t element_count(int ndim, const std::int64_t* shape);
bool is_c_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize);
bool is_f_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize);
// C when C-contiguous, else F when F-contiguous, else A.
Layout layout_of_strides(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize);

}  // namespace cuhost::ir
