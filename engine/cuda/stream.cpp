// Stream creation, destruction and synchronization (see stream.h).
#include "cuda/stream.h"

#include <mutex>
#include <unordered_set>

#include "cuda/driver.h"

namespace cuhost::cuda {

namespace {

// The handles of destroyed streams, until the driver reuses one. It grows
// only by streams destroyed and not replaced by a new one at their address.
struct RetiredStreams {
  std::mutex mutex;
  std::unordered_set<CUstream> handles;
};

RetiredStreams& retired_streams() {
  static auto* r = new RetiredStreams;  // never destroyed: streams may go at exit
  return *r;
}

}  // namespace

Stream::Stream(unsigned flags) {
  CUHOST_CU(cuStreamCreate, &stream_, flags);
  note_stream_created(stream_);
}

Stream::~Stream() {
  if (!stream_) return;
  try {
    destroy_stream(stream_);
  } catch (...) {
  }
}

void note_stream_created(CUstream stream) {
  RetiredStreams& r = retired_streams();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.handles.erase(stream);
}

CUresult destroy_stream(CUstream stream) {
  // Its queued work finishes first, so a write recorded on it is complete
  // once the stream is retired and needs no event of it.
  const CUresult done = driver().cuStreamSynchronize(stream);
  if (done == CUDA_ERROR_INVALID_HANDLE || done == CUDA_ERROR_INVALID_CONTEXT) return done;  // not a live stream
  {
    RetiredStreams& r = retired_streams();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.handles.insert(stream);
  }
  return driver().cuStreamDestroy(stream);
}

bool stream_retired(CUstream stream) {
  RetiredStreams& r = retired_streams();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.handles.count(stream) != 0;
}

void synchronize_stream(CUstream stream) { CUHOST_CU(cuStreamSynchronize, stream); }

// The driver table holds cuCtxSynchronize's argument-less ABI (cuda/driver.cpp
// asks for it at CUDA 12.0): it synchronizes the current context.
void synchronize_context() { CUHOST_CU(cuCtxSynchronize); }

}  // namespace cuhost::cuda
