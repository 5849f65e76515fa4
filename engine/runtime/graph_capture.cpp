// Stream capture for both backends (see graph_capture.h). Captures live in a
// small registry keyed by stream handle; each remembers the thread that began
// it, since that thread (as in CUDA's thread-local capture mode) may not
// allocate or wait for the device while it captures, and its device, in
// whose context the capture begins and ends.
#include "runtime/graph_capture.h"

#include <cinttypes>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "cpu/launcher.h"
#include "cuda/graph.h"
#include "cuda/module.h"
#include "runtime/compiler.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/kernel_launch.h"
#include "runtime/session.h"
#include "support/blocking_wait.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace detail {
std::atomic<int> g_captures{0};
}

namespace {

struct Capture {
  std::uintptr_t stream = 0;
  int device = 0;
  std::string label;  // "the default stream", "stream 0x..." (for messages)
  std::thread::id owner;
  std::shared_ptr<CapturedGraph> graph;
  std::uint64_t module_generation = 0;
  std::mutex mutex;  // a launch and its node query stay together
};

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, std::shared_ptr<Capture>> by_stream;
};

Registry& registry() {
  static Registry* r = new Registry();  // used until exit
  return *r;
}

thread_local const char* t_operation = nullptr;

std::shared_ptr<Capture> find(std::uintptr_t stream) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_stream.find(stream);
  return it == r.by_stream.end() ? nullptr : it->second;
}

// The capture this thread began, if any.
std::shared_ptr<Capture> capture_of_this_thread() {
  Registry& r = registry();
  const std::thread::id me = std::this_thread::get_id();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& entry : r.by_stream)
    if (entry.second->owner == me) return entry.second;
  return nullptr;
}

std::string stream_label(std::uintptr_t stream, int device) {
  if (stream == default_launch_stream(device)) return "the default stream";
  char text[32];
  std::snprintf(text, sizeof text, "stream 0x%" PRIxPTR, stream);
  return text;
}

[[noreturn]] void refuse(const Capture& c, const std::string& operation, const std::string& reason) {
  std::string prefix = t_operation ? std::string(t_operation) + ": " : std::string();
  throw UserError(ErrorKind::GraphCaptureError, concat(prefix, "cannot ", operation, " while ", c.label,
                                                       " is being captured into a graph: ", reason));
}

bool is_legacy(std::uintptr_t stream) {
  return stream == reinterpret_cast<std::uintptr_t>(CU_STREAM_LEGACY) ||
         stream == reinterpret_cast<std::uintptr_t>(CU_STREAM_PER_THREAD) ||
         (stream == 0 && session().backend == Backend::Cuda);
}

const char* copy_words(CopyKind kind) {
  switch (kind) {
    case CopyKind::HostToDevice: return "from host memory to the device";
    case CopyKind::DeviceToHost: return "from the device to host memory";
    case CopyKind::DeviceToDevice: return "on the device";
    case CopyKind::Memset: return "of device memory";
  }
  return "";
}

}  // namespace

NamedOperation::NamedOperation(const char* name) : previous_(t_operation) { t_operation = name; }
NamedOperation::~NamedOperation() { t_operation = previous_; }

void begin_capture(std::uintptr_t stream, int device) {
  Session& s = session();
  if (is_legacy(stream))
    throw UserError(ErrorKind::GraphCaptureError,
                    "the legacy and per-thread default streams cannot be captured into a graph (every stream "
                    "synchronizes with them); capture cuda.stream() or cuda.default_stream()");
  auto c = std::make_shared<Capture>();
  c->stream = stream;
  c->device = device;
  c->label = stream_label(stream, device);
  c->owner = std::this_thread::get_id();
  c->graph = std::make_shared<CapturedGraph>(s.backend, stream, device);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.by_stream.count(stream))
    throw UserError(ErrorKind::GraphCaptureError, concat(c->label, " is already being captured into a graph"));
  if (s.backend == Backend::Cuda) {
    DeviceScope scope(device);
    make_device_current(device);
    c->module_generation = cuda::module_generation();
    cuda::begin_capture(reinterpret_cast<CUstream>(stream));
  }
  r.by_stream.emplace(stream, std::move(c));
  detail::g_captures.fetch_add(1, std::memory_order_relaxed);
}

namespace {

// Removes the capture of `stream` from the registry (null when none).
std::shared_ptr<Capture> take(std::uintptr_t stream) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_stream.find(stream);
  if (it == r.by_stream.end()) return nullptr;
  std::shared_ptr<Capture> c = std::move(it->second);
  r.by_stream.erase(it);
  detail::g_captures.fetch_sub(1, std::memory_order_relaxed);
  return c;
}

}  // namespace

std::shared_ptr<CapturedGraph> end_capture(std::uintptr_t stream) {
  std::shared_ptr<Capture> c = take(stream);
  if (!c) {
    char text[32];
    std::snprintf(text, sizeof text, "stream 0x%" PRIxPTR, stream);
    throw UserError(ErrorKind::GraphCaptureError, concat(text, " is not being captured"));
  }
  auto lock = support::lock_blocking(c->mutex);
  if (session().backend == Backend::Cuda) {
    DeviceScope scope(c->device);
    make_device_current(c->device);
    auto graph = std::make_unique<cuda::Graph>(cuda::end_capture(reinterpret_cast<CUstream>(stream)));
    c->graph->set_driver_graph(std::move(graph), c->module_generation);
  }
  return c->graph;
}

void abort_capture(std::uintptr_t stream) noexcept {
  std::shared_ptr<Capture> c = take(stream);
  if (!c || session().backend != Backend::Cuda) return;
  try {
    auto lock = support::lock_blocking(c->mutex);
    DeviceScope scope(c->device);
    make_device_current(c->device);
    cuda::end_capture(reinterpret_cast<CUstream>(stream));  // the graph (if any) is destroyed at once
  } catch (...) {
  }
}

bool is_captured(std::uintptr_t stream) { return capture_in_progress() && find(stream) != nullptr; }

bool this_thread_captures() { return capture_in_progress() && capture_of_this_thread() != nullptr; }

bool capture_kernel_launch(const KernelLaunchRequest& q) {
  std::shared_ptr<Capture> c = find(q.stream);
  if (!c) return false;
  if (q.device != c->device)
    throw UserError(ErrorKind::ValueError,
                    concat("kernel '", q.kernel->name, "' runs on device ", q.device, ", but ", c->label,
                           " is being captured on device ", c->device, "; launch it inside `with cuda.gpus[", c->device,
                           "]:` (or Runtime::set_device)"));
  auto lock = support::lock_blocking(c->mutex);
  CapturedKernel k;
  k.kernel = q.kernel;
  for (int d = 0; d < 3; ++d) {
    k.grid[d] = q.grid[d];
    k.block[d] = q.block[d];
  }
  k.shared = q.shared;
  k.origin = q.origin;
  k.owner = q.owner;
  k.touched = q.touched;
  std::vector<std::uint64_t> values(q.count);
  for (std::size_t i = 0; i < q.count; ++i) values[i] = *static_cast<const std::uint64_t*>(q.params[i]);
  k.set_slots(values.data(), values.size());
  if (session().backend == Backend::Cuda) {
    cuda::KernelLaunch l = q.loaded->launch(q.kernel, q.device, q.grid, q.block, q.shared, q.stream, q.params);
    cuda::launch_kernel(l);
    k.function = l.function;
    k.errors = q.loaded->errors();
    k.node = cuda::last_captured_node(reinterpret_cast<CUstream>(q.stream));
  } else {
    // Refused now, as the driver refuses a bad configuration at capture.
    check_cpu_launch_bound(*q.kernel, q.block);
    cpu::validate_launch(cpu_launch_of(*q.kernel, q.grid, q.block, q.shared, nullptr));
  }
  c->graph->add_kernel(std::move(k));
  return true;
}

void capture_copy_touches(std::uintptr_t stream, GraphTouch touch) {
  std::shared_ptr<Capture> c = find(stream);
  if (!c || !touch.order) return;
  auto lock = support::lock_blocking(c->mutex);
  c->graph->add_copy_touch(std::move(touch));
}

bool capture_copy(CopyKind kind, std::uintptr_t dst, std::uintptr_t src, std::size_t bytes, std::uintptr_t stream,
                  bool synchronous) {
  std::shared_ptr<Capture> c = find(stream);
  if (synchronous) {
    const std::string operation = concat("copy ", bytes, " bytes ", copy_words(kind), " and wait for it");
    const std::string reason =
        "a graph's work runs only when the graph is launched, so the copy could not complete here; pass the "
        "captured stream (and page-locked host memory, cuda.pinned_array) to capture the copy, or copy after "
        "launching the graph";
    if (c) refuse(*c, operation, reason);
    refuse_on_capturing_thread(operation, reason);
    return false;
  }
  if (!c) return false;
  const bool pageable =
      (kind == CopyKind::HostToDevice && !is_page_locked(reinterpret_cast<const void*>(src), bytes)) ||
      (kind == CopyKind::DeviceToHost && !is_page_locked(reinterpret_cast<const void*>(dst), bytes));
  if (pageable)
    refuse(*c, concat("copy ", bytes, " bytes ", copy_words(kind), " in pageable memory"),
           "a graph replays copies of page-locked host memory only (the host array must stay where it is for every "
           "launch of the graph); use cuda.pinned_array or cuda.mapped_array for the host side");
  auto lock = support::lock_blocking(c->mutex);
  c->graph->add_copy({kind, dst, src, bytes});
  return session().backend != Backend::Cuda;  // the driver captures the copy the caller queues next
}

bool capture_memset(std::uintptr_t dst, unsigned char value, std::size_t bytes, std::uintptr_t stream,
                    bool synchronous) {
  std::shared_ptr<Capture> c = find(stream);
  if (synchronous) {
    const std::string operation = concat("set ", bytes, " bytes of device memory and wait for it");
    const std::string reason =
        "a graph's work runs only when the graph is launched, so the memset could not complete here; pass the "
        "captured stream to capture it, or set the memory after launching the graph";
    if (c) refuse(*c, operation, reason);
    refuse_on_capturing_thread(operation, reason);
    return false;
  }
  if (!c) return false;
  auto lock = support::lock_blocking(c->mutex);
  CapturedCopy m;
  m.kind = CopyKind::Memset;
  m.dst = dst;
  m.value = value;
  m.bytes = bytes;
  c->graph->add_copy(m);
  return session().backend != Backend::Cuda;  // the driver captures the memset the caller queues next
}

void refuse_on_capturing_thread(const std::string& operation, const std::string& reason) {
  if (!capture_in_progress()) return;
  if (std::shared_ptr<Capture> c = capture_of_this_thread()) refuse(*c, operation, reason);
}

void refuse_on_captured_stream(std::uintptr_t stream, const std::string& operation, const std::string& reason) {
  if (!capture_in_progress()) return;
  if (std::shared_ptr<Capture> c = find(stream)) refuse(*c, operation, reason);
}

void refuse_during_any_capture(const std::string& operation, const std::string& reason) {
  if (!capture_in_progress()) return;
  std::shared_ptr<Capture> c;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.by_stream.empty()) return;
    c = r.by_stream.begin()->second;
  }
  refuse(*c, operation, reason);
}

}  // namespace cuhost::runtime
