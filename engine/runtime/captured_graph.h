// A graph made by stream capture (graph_capture.h), on either backend: the
// kernel launches, copies and memsets captured on one stream, in order, with
// their packed arguments. It belongs to the device of that stream. On the
// CUDA backend it owns the driver's graph and its instantiation (made in that
// device's context) and launches them with one cuGraphLaunch; on the CPU backend
// a launch replays the recorded launches and copies in order, with the same
// errors an eager launch gives. Captured kernels can take new arguments
// (same kernel, same parameter types), and a graph can take every parameter
// of another graph captured from the same sequence of operations.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <cuhost/runtime.h>

#include "cuda/module.h"

namespace cuhost::cuda {
class Graph;
class GraphExec;
}  // namespace cuhost::cuda

namespace cuhost::model {
struct CompiledKernel;
}  // namespace cuhost::model

namespace cuhost::runtime {

using model::CompiledKernel;
class AccessOrder;

// Device bytes a captured operation reads or writes, under the cross-stream
// ordering of their allocation (access_order.h). A launch of the graph waits
// for earlier writes of them on other streams and records them as written
// by the graph's stream, as an eager launch or copy does. `keep` holds the
// allocation (and with it `order`) while the graph does; captured kernels
// leave it null, their `owner` keeps their arguments alive.
struct GraphTouch {
  AccessOrder* order = nullptr;
  std::uintptr_t lo = 0, hi = 0;
  std::shared_ptr<const void> keep;
};

// Which side launched a captured kernel: its arguments are packed again by
// the same side (a script's Python values or C++ KernelArgs).
enum class LaunchOrigin { Script, Host };

struct CapturedKernel {
  std::shared_ptr<const CompiledKernel> kernel;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared = 0;
  std::vector<std::uint64_t> slots;  // kernel-ABI slots (codegen/kernel_abi.h), one per parameter slot
  std::vector<void*> params;         // &slots[i]: the launch's kernelParams
  LaunchOrigin origin = LaunchOrigin::Script;
  // Keeps what the arguments point to alive while the graph may run (a
  // script's argument objects); opaque to the runtime.
  std::shared_ptr<void> owner;
  std::vector<GraphTouch> touched;  // the device arrays among the arguments
  // CUDA backend
  CUfunction function = nullptr;
  CUgraphNode node = nullptr;  // the node in the captured graph (null: not known, cannot be updated)
  cuda::KernelErrorRecord errors;

  void set_slots(const std::uint64_t* values, std::size_t count);
};

// Memset: `bytes` bytes at `dst` set to `value` (set_on_device).
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice, Memset };

struct CapturedCopy {
  CopyKind kind = CopyKind::DeviceToDevice;
  std::uintptr_t dst = 0;
  std::uintptr_t src = 0;
  std::size_t bytes = 0;
  unsigned char value = 0;  // Memset
};

class CapturedGraph {
 public:
  CapturedGraph(Backend backend, std::uintptr_t stream, int device);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  Backend backend() const { return backend_; }
  // The stream it was captured on (launches that name no stream use it).
  std::uintptr_t stream() const { return stream_; }
  // The device of that stream: the graph runs there, on its streams only.
  int device() const { return device_; }

  const std::vector<CapturedKernel>& kernels() const { return kernels_; }
  const std::vector<CapturedCopy>& copies() const { return copies_; }
  // Operations in capture order; CUDA graphs may hold more nodes (work that
  // foreign code queued on the stream during the capture).
  std::size_t operation_count() const { return order_.size(); }
  std::size_t node_count() const;

  // Runs the graph on `stream`, a stream of device() (CUDA: asynchronously,
  // in that device's context; CPU: the replay, done on return). Throws what the kernels throw (CPU, and checked kernels
  // on the CUDA backend, which waits for them), and RuntimeError when the graph's kernels were unloaded (cuda.close())
  // since the capture.
  void launch(std::uintptr_t stream);

  // New arguments (already packed) and configuration for captured kernel `k`.
  void set_kernel_arguments(std::size_t k, const std::uint64_t* slots, std::size_t count, const unsigned grid[3],
                            const unsigned block[3], unsigned shared, std::shared_ptr<void> owner,
                            std::vector<GraphTouch> touched = {});

  // Takes every parameter of `other` (kernel arguments and configurations,
  // copy addresses and sizes). Throws ValueError naming the first operation
  // that differs (another kernel, another kind of copy, another count), when
  // `other` belongs to another device, or, on the CUDA backend, with the
  // driver's reason.
  void update_from(const CapturedGraph& other);

  // --- filled by the capture (graph_capture.cpp) ---
  void add_kernel(CapturedKernel k);
  void add_copy(const CapturedCopy& c);
  void add_copy_touch(GraphTouch t);  // bytes a captured copy (of a device array) reads or writes
  void set_driver_graph(std::unique_ptr<cuda::Graph> graph, std::uint64_t module_generation);

 private:
  struct Op {
    bool kernel;
    std::size_t index;
  };
  void replay_on_cpu();
  // The cross-stream ordering around a CUDA launch on `stream`.
  void order_before_launch(std::uintptr_t stream) const;
  void order_after_launch(std::uintptr_t stream) const;
  // Calls fn(const GraphTouch&) for every touch of the kernels and copies.
  template <typename Fn>
  void for_each_touch(Fn&& fn) const;
  void check_loaded() const;
  // Live kernels: the kernels a reload swapped since the last launch are
  // replaced before this one (captured_graph_live.cpp). Mutex held.
  void follow_live_swaps();
  using LiveSwaps = std::vector<std::pair<std::size_t, std::shared_ptr<const CompiledKernel>>>;
  // The executable graph's nodes take the new kernels in place; false (all
  // put back) when the driver refuses one.
  bool update_nodes_in_place(const LiveSwaps& swaps);
  // The template's nodes take them and the executable graph is made again;
  // false (template put back, reported) when that fails too.
  bool instantiate_with(const LiveSwaps& swaps);

  Backend backend_;
  std::uintptr_t stream_;
  int device_;
  std::vector<Op> order_;
  std::vector<CapturedKernel> kernels_;
  std::vector<CapturedCopy> copies_;
  std::vector<GraphTouch> copy_touches_;
  std::unique_ptr<cuda::Graph> graph_;
  std::unique_ptr<cuda::GraphExec> exec_;
  std::uint64_t module_generation_ = 0;
  std::uint64_t live_generation_seen_ = 0;  // runtime/live_kernels.h
  std::mutex mutex_;                        // one launch or update at a time
};

}  // namespace cuhost::runtime
