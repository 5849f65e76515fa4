// CUevent wrapper (see event.h).
#include "cuda/event.h"

#include "cuda/driver.h"

namespace cuhost::cuda {

Event::Event(bool timing) { CUHOST_CU(cuEventCreate, &event_, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING); }

Event::~Event() {
  if (!event_) return;
  try {
    driver().cuEventDestroy(event_);
  } catch (...) {
  }
}

void Event::record(CUstream stream) { CUHOST_CU(cuEventRecord, event_, stream); }
void Event::wait(CUstream stream) { CUHOST_CU(cuStreamWaitEvent, stream, event_, 0); }
void Event::synchronize() { CUHOST_CU(cuEventSynchronize, event_); }

bool Event::query() {
  CUresult r = driver().cuEventQuery(event_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

float Event::elapsed_ms(const Event& end) const {
  float ms = 0;
  CUHOST_CU(cuEventElapsedTime, &ms, event_, end.event_);
  return ms;
}

}  // namespace cuhost::cuda
