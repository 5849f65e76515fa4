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

// cuGetProcAddress at CUDA_VERSION >= 13000 hands out cuCtxSynchronize's
// 13.0 entry point, which takes the context to synchronize (NULL: the current
// one), while cuda.h still declares the old argument-less prototype. Call it
// with an explicit null context: correct for the new ABI, and the extra
// argument is ignored by the old one.
void synchronize_context() {
  using WithContext = CUresult (*)(CUcontext);
  // Through void(*)(), the generic function pointer, since the types differ on purpose.
  auto fn = reinterpret_cast<WithContext>(reinterpret_cast<void (*)()>(driver().cuCtxSynchronize));
  check(fn(nullptr), "cuCtxSynchronize");
}

}  // namespace cuhost::cuda
