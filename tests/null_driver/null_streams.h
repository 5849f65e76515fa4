// Per-stream asynchrony for the null driver (null_cuda.cpp): the work of a
// stream cuhost created is not done when it is queued but when something
// orders it -- a synchronization of the stream, its context or its device,
// an event recorded after it that is waited for (cuStreamWaitEvent,
// cuEventSynchronize), a free of memory, the destruction of the stream.
// So a copy on one stream that is not ordered after a write queued on
// another stream reads the old bytes, as it may on a GPU, and CI catches a
// missing cross-stream (or cross-device) dependency without a GPU. Work on
// the legacy default stream (handle 0 or CU_STREAM_LEGACY) runs at once,
// after the blocking streams of its context (the legacy stream's implicit
// synchronization); work on the per-thread default stream runs at once.
#pragma once

#include <cuda.h>

#include <functional>

namespace null_driver {

// A stream made by cuStreamCreate with `flags` in `context`.
void stream_created(CUstream stream, const void* context, unsigned flags);
// Runs the stream's work, then forgets it (cuStreamDestroy).
void stream_destroyed(CUstream stream);

// Queues `work` on `stream` (see above). `context` is the current context,
// which the special handles stand for.
void enqueue(CUstream stream, const void* context, std::function<void()> work);

// Runs everything queued on `stream` (the special handles: the blocking
// streams of `context`).
void drain_stream(CUstream stream, const void* context);
// Runs everything queued on the streams of `context`, or of every context
// when it is null.
void drain_context(const void* context);

// cuEventRecord: the event marks the work queued on `stream` so far.
void record_event(CUevent event, CUstream stream);
// Runs the work an event marks (cuStreamWaitEvent, cuEventSynchronize).
void drain_to_event(CUevent event);
void event_destroyed(CUevent event);

}  // namespace null_driver
