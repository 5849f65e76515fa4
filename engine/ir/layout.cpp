// Contiguity rules (see layout.h).
#include "ir/layout.h"

namespace cuhost::ir {

std::int64_t element_count(int ndim, const std::int64_t* shape) {
  std::int64_t n = 1;
  for (int i = 0; i < ndim; ++i) n *= shape[i];
  return n;
}

bool is_c_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  if (element_count(ndim, shape) == 0) return true;  // empty arrays are both (numpy)
  std::int64_t expected = itemsize;
  for (int i = ndim - 1; i >= 0; --i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

bool is_f_contiguous(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  if (element_count(ndim, shape) == 0) return true;  // empty arrays are both (numpy)
  std::int64_t expected = itemsize;
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

Layout layout_of_strides(int ndim, const std::int64_t* shape, const std::int64_t* strides, std::int64_t itemsize) {
  if (is_c_contiguous(ndim, shape, strides, itemsize)) return Layout::C;
  if (is_f_contiguous(ndim, shape, strides, itemsize)) return Layout::F;
  return Layout::A;
}

}  // namespace cuhost::ir
