// RAII owner of a CUevent (cuda.event()): record on a stream, make a stream
// wait for it, query, synchronize and time the distance between two events.
#pragma once

#include <cuda.h>

namespace cuhost::cuda {

class Event {
 public:
  explicit Event(bool timing);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  CUevent get() const { return event_; }
  void record(CUstream stream);
  void wait(CUstream stream);  // `stream` waits until this event completes
  void synchronize();
  bool query();  // true when complete
  // Milliseconds from this event to `end`.
  float elapsed_ms(const Event& end) const;

 private:
  CUevent event_ = nullptr;
};

}  // namespace cuhost::cuda
