// CUDA graphs from C++: capture the kernel launches and copies queued on a
// stream into a graph, then launch the whole sequence with one call (one
// cuGraphLaunch on the CUDA backend; an in-order replay on the CPU backend).
//
//   cuhost::GraphCapture capture(stream);           // begins capturing `stream`
//   saxpy->launch(grid, block, {a, x, y, out}, stream);
//   scale->launch(grid, block, {out, 2.0f}, stream);
//   std::shared_ptr<cuhost::Graph> graph = capture.end();
//   for (int step = 0; step < n; ++step) graph->launch();
//   graph->set_kernel_args(0, {a, x2, y2, out});     // same kernel, new arguments
//
// Launches and copies are recorded, not run, while the stream is captured.
// Memory the captured arguments point to must stay allocated while the
// graph may run. Work a graph cannot hold (synchronous copies, allocation,
// waiting for the stream) throws std::runtime_error naming the operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include <cuhost/kernel.h>

namespace cuhost {

class Graph {
 public:
  virtual ~Graph() = default;

  // Runs the captured work on `stream` (0: the stream it was captured on),
  // which must belong to the graph's device (the capture's). Asynchronous on
  // the CUDA backend, like a kernel launch.
  virtual void launch(std::uintptr_t stream = 0) = 0;

  // The kernel launches captured, in order.
  virtual std::size_t kernel_count() const = 0;
  virtual std::string kernel_name(std::size_t index) const = 0;

  // New arguments for captured launch `index` (of a kernel launched from
  // C++), checked as Kernel::launch checks them; the grid, block and shared
  // memory stay as captured. On the CUDA backend the executable graph's node
  // is updated in place (cuGraphExecKernelNodeSetParams).
  virtual void set_kernel_args(std::size_t index, const KernelArg* args, std::size_t count) = 0;
  void set_kernel_args(std::size_t index, std::initializer_list<KernelArg> args) {
    set_kernel_args(index, args.begin(), args.size());
  }
};

// Captures `stream` (a CUstream as an integer; 0: the default launch stream
// of the calling thread's device) from construction until end(). The capture
// and its graph belong to the calling thread's device (Runtime::set_device):
// launch the captured kernels from a thread on that device. Destroyed without
// end() (an exception left the scope), it ends the capture and drops what
// was recorded.
class GraphCapture {
 public:
  explicit GraphCapture(std::uintptr_t stream = 0);
  ~GraphCapture();
  GraphCapture(const GraphCapture&) = delete;
  GraphCapture& operator=(const GraphCapture&) = delete;

  // Ends the capture and returns the graph (instantiated, ready to launch).
  std::shared_ptr<Graph> end();

 private:
  std::uintptr_t stream_ = 0;
  bool active_;
};

}  // namespace cuhost
