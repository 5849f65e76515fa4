// Stream creation, destruction and synchronization (see stream.h).
#include "cuda/stream.h"

#include "cuda/driver.h"

namespace cuhost::cuda {

Stream::Stream(unsigned flags) { CUHOST_CU(cuStreamCreate, &stream_, flags); }

Stream::~Stream() {
  if (!stream_) return;
  try {
    driver().cuStreamDestroy(stream_);
  } catch (...) {
  }
}

void synchronize_stream(CUstream stream) { CUHOST_CU(cuStreamSynchronize, stream); }

// The driver table holds cuCtxSynchronize's argument-less ABI (cuda/driver.cpp
// asks for it at CUDA 12.0): it synchronizes the current context.
void synchronize_context() { CUHOST_CU(cuCtxSynchronize); }

}  // namespace cuhost::cuda
