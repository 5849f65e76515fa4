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

// Whether `stream` was a stream cuhost created and has destroyed since
// (and the driver has not handed the handle out again). Records that still
// name such a stream (an array's last writer, runtime/access_order.h) must
// not pass it to the driver: its work had finished when it was destroyed,
// as ~Stream waits for it first.
bool stream_retired(CUstream stream);

// For streams made and destroyed through the driver bindings
// (cuda.bindings.driver.cuStreamCreate/cuStreamDestroy, binding_calls.cpp):
// a new handle is no longer retired; a destroyed one waits for its queued
// work, is retired, then destroyed, as ~Stream does, so an array last
// written on it never hands the stale handle to the driver. Returns the
// driver's result of the destruction.
void note_stream_created(CUstream stream);
CUresult destroy_stream(CUstream stream);

void synchronize_stream(CUstream stream);
// cuCtxSynchronize on the current context.
void synchronize_context();

}  // namespace cuhost::cuda
