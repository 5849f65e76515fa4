// Stream capture on both backends: between begin_capture(stream) and
// end_capture(stream), kernel launches and asynchronous copies queued on that
// stream are recorded into a CapturedGraph instead of running (on the CUDA
// backend the driver captures them, cuStreamBeginCapture in thread-local
// mode; on the CPU backend this file records them for replay). Operations a
// graph cannot hold are refused with GraphCaptureError naming the operation
// and the reason, on both backends alike: waiting for the captured stream
// (it has run nothing yet), synchronous copies and device synchronization on
// the capturing thread, copies between the device and pageable host memory,
// and allocations on the capturing thread. A capture belongs to the device
// of its stream: its launches run there and its graph launches there.
//
// The launch and copy paths pay one relaxed atomic load when no capture is
// in progress (capture_in_progress()).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/captured_graph.h"

namespace cuhost::runtime {

class LoadedKernel;

namespace detail {
extern std::atomic<int> g_captures;
}

// Whether any stream of the process is being captured.
inline bool capture_in_progress() { return detail::g_captures.load(std::memory_order_relaxed) != 0; }

// Starts capturing `stream`, a stream of `device` (a resolved handle:
// default_launch_stream(device) for "no stream"). Throws GraphCaptureError
// when it is being captured already. While the capturing thread captures,
// the pending frees it would release are kept queued (freeing device memory
// synchronizes, which a capture refuses; pending_frees.h).
void begin_capture(std::uintptr_t stream, int device);

// Ends the capture of `stream` and returns the graph (instantiated on the
// CUDA backend). Throws GraphCaptureError when the stream is not being
// captured, and the driver's error when it invalidated the capture.
std::shared_ptr<CapturedGraph> end_capture(std::uintptr_t stream);

// Ends the capture of `stream`, if any, and drops what it recorded (an
// exception left the capturing block). Never throws.
void abort_capture(std::uintptr_t stream) noexcept;

// Whether `stream` is being captured.
bool is_captured(std::uintptr_t stream);

// Whether the calling thread is capturing a stream.
bool this_thread_captures();

// One kernel launch queued on a stream, packed for the kernel ABI.
struct KernelLaunchRequest {
  std::shared_ptr<const CompiledKernel> kernel;
  LoadedKernel* loaded = nullptr;  // CUDA backend: the holder's loaded function
  int device = 0;                  // the device the launch runs on (its context current)
  const unsigned* grid = nullptr;
  const unsigned* block = nullptr;
  unsigned shared = 0;
  std::uintptr_t stream = 0;
  void** params = nullptr;  // each points at one 8-byte slot
  std::size_t count = 0;
  LaunchOrigin origin = LaunchOrigin::Script;
  std::shared_ptr<void> owner;      // kept with the captured launch
  std::vector<GraphTouch> touched;  // its device-array arguments' bytes
};

// When the request's stream is being captured: validates the launch as an
// eager one would, records it (CUDA: launches it into the capture and keeps
// its graph node) and returns true. False when the stream is not captured.
// Throws ValueError when the launch runs on another device than the capture.
bool capture_kernel_launch(const KernelLaunchRequest& request);

// Bytes of a device array that a copy captured on `stream` reads or writes
// (see GraphTouch). Nothing when `stream` is not being captured.
void capture_copy_touches(std::uintptr_t stream, GraphTouch touch);

// The copy paths (device_memory.cpp): when `stream` is being captured, a
// copy a graph can hold is recorded on the CPU backend (true: nothing left
// to do) or left to the driver's capture (false); copies a graph cannot hold
// throw GraphCaptureError. A synchronous copy on the capturing thread is
// refused whatever its stream. False when no capture concerns the copy.
// Peer copies between two devices' memory are DeviceToDevice copies here.
bool capture_copy(CopyKind kind, std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream,
                  bool synchronous);

// The same for setting `bytes` bytes at `dst` to `value` (set_on_device).
bool capture_memset(std::uintptr_t dst, unsigned char value, std::size_t bytes, std::uintptr_t stream,
                    bool synchronous);

// Throws GraphCaptureError "cannot <operation> while stream S is being
// captured into a graph: <reason>" when this thread is capturing a stream.
void refuse_on_capturing_thread(const std::string& operation, const std::string& reason);

// The same when `stream` is being captured (by any thread).
void refuse_on_captured_stream(std::uintptr_t stream, const std::string& operation, const std::string& reason);

// The same when any stream is being captured (device-wide synchronization).
void refuse_during_any_capture(const std::string& operation, const std::string& reason);

// Names the API call a refusal message starts with ("copy_to_host(): cannot
// ..."), for the calls of this thread while alive.
class NamedOperation {
 public:
  explicit NamedOperation(const char* name);
  ~NamedOperation();
  NamedOperation(const NamedOperation&) = delete;
  NamedOperation& operator=(const NamedOperation&) = delete;

 private:
  const char* previous_;
};

}  // namespace cuhost::runtime
