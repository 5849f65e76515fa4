// Whether the functions typed on this thread may allocate arrays on the
// heap (numba.cuda.config.CUDA_ENABLE_NRT when the compile started): with
// it, np.empty, np.zeros, ... type as arrays in kernels and device
// functions (typing/nrt_arrays.cpp); without it a call of them is numba-cuda's
// LoweringError. Typed functions are cached apart by it.
#pragma once

namespace cuhost::sema {

bool typing_with_nrt();

class NrtTypingScope {
 public:
  explicit NrtTypingScope(bool enabled);
  ~NrtTypingScope();
  NrtTypingScope(const NrtTypingScope&) = delete;
  NrtTypingScope& operator=(const NrtTypingScope&) = delete;

 private:
  bool previous_;
};

}  // namespace cuhost::sema
