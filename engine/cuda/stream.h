// RAII owner of a CUstream that cuhost creates (cuda.stream(), the process
// default stream). Streams the host lends or that scripts name by pointer
// (external_stream) are never owned and never destroyed by cuhost.
#pragma once

#include <cuda.h>

namespace cuhost::cuda {

class Stream {
 public:
  // Creates a stream in the current context (CU_STREAM_NON_BLOCKING by default).
  explicit Stream(unsigned flags = CU_STREAM_NON_BLOCKING);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  CUstream get() const { return stream_; }

 private:
  CUstream stream_ = nullptr;
};

void synchronize_stream(CUstream stream);
// cuCtxSynchronize on the current context.
void synchronize_context();

}  // namespace cuhost::cuda
