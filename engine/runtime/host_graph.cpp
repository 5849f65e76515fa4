// The C++ embedding API's graphs (cuhost/graph.h) over the runtime's stream
// capture (graph_capture.h) and captured graphs (captured_graph.h).
#include <cuhost/graph.h>

#include "runtime/captured_graph.h"
#include "runtime/compiler.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/host_kernel.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

namespace cuhost {
namespace {

class HostGraph final : public Graph {
 public:
  explicit HostGraph(std::shared_ptr<runtime::CapturedGraph> g) : g_(std::move(g)) {}

  // Launches in the graph's device's context; `stream` must belong to it.
  void launch(std::uintptr_t stream) override {
    const std::uintptr_t s = stream ? stream : g_->stream();
    if (runtime::capture_in_progress() && runtime::is_captured(s))
      throw UserError(ErrorKind::GraphCaptureError,
                      "cannot launch a graph on a stream that is being captured into another graph");
    g_->launch(s);
  }

  std::size_t kernel_count() const override { return g_->kernels().size(); }

  std::string kernel_name(std::size_t index) const override { return at(index).kernel->name; }

  void set_kernel_args(std::size_t index, const KernelArg* args, std::size_t count) override {
    const runtime::CapturedKernel& k = at(index);
    if (k.origin != runtime::LaunchOrigin::Host)
      throw UserError(ErrorKind::ValueError,
                      concat("captured launch ", index, " (kernel '", k.kernel->name,
                             "') was made by a script; change its arguments from the script (cuhost.graph)"));
    std::vector<std::uint64_t> slots = runtime::pack_host_kernel_args(k.owner, args, count);
    g_->set_kernel_arguments(index, slots.data(), slots.size(), k.grid, k.block, k.shared, k.owner);
  }

 private:
  const runtime::CapturedKernel& at(std::size_t index) const {
    if (index >= g_->kernels().size())
      throw UserError(ErrorKind::IndexError, concat("captured launch ", index, " out of range: the graph has ",
                                                    g_->kernels().size(), " kernel launches"));
    return g_->kernels()[index];
  }

  std::shared_ptr<runtime::CapturedGraph> g_;
};

}  // namespace

// The capture (and its graph) belongs to the calling thread's device
// (Runtime::set_device), where its kernels launch.
GraphCapture::GraphCapture(std::uintptr_t stream) : active_(false) {
  const int device = runtime::current_device();
  stream_ = stream ? stream : runtime::default_launch_stream(device);
  runtime::begin_capture(stream_, device);
  active_ = true;
}

GraphCapture::~GraphCapture() {
  if (active_) runtime::abort_capture(stream_);
}

std::shared_ptr<Graph> GraphCapture::end() {
  if (!active_) throw UserError(ErrorKind::GraphCaptureError, "GraphCapture::end() was called twice");
  active_ = false;
  return std::make_shared<HostGraph>(runtime::end_capture(stream_));
}

}  // namespace cuhost
