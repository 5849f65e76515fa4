// CUDA graphs through stream capture: the driver side of cuhost.graph and of
// the C++ Graph API. A stream's work (kernel launches, asynchronous copies)
// between begin_capture and end_capture becomes a CUgraph instead of running;
// the graph is instantiated once into a CUgraphExec and launched as one unit.
// Captured kernel nodes can be given new parameters in the executable graph
// (cuGraphExecKernelNodeSetParams), and a whole executable graph can take the
// parameters of another graph of the same topology (cuGraphExecUpdate).
// Every handle has an RAII owner; every failure names the driver function.
#pragma once

#include <cuda.h>

#include <string>

#include "cuda/launch.h"

namespace cuhost::cuda {

// Owns a CUgraph (cuGraphDestroy).
class Graph {
 public:
  Graph() = default;
  explicit Graph(CUgraph graph) : graph_(graph) {}
  ~Graph();
  Graph(Graph&& other) noexcept : graph_(other.graph_) { other.graph_ = nullptr; }
  Graph& operator=(Graph&& other) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  CUgraph get() const { return graph_; }
  std::size_t node_count() const;  // cuGraphGetNodes
  // A kernel node's function, configuration and arguments in this (template)
  // graph (cuGraphKernelNodeSetParams); executable graphs made later use them.
  void set_kernel_params(CUgraphNode node, const KernelLaunch& launch);

 private:
  CUgraph graph_ = nullptr;
};

// Owns a CUgraphExec (cuGraphExecDestroy), instantiated from a Graph that
// must outlive it (its nodes name the kernel nodes to update).
class GraphExec {
 public:
  explicit GraphExec(const Graph& graph);  // cuGraphInstantiateWithFlags
  ~GraphExec();
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  CUgraphExec get() const { return exec_; }
  void launch(CUstream stream);  // cuGraphLaunch
  // New function arguments, grid, block and dynamic shared memory for a
  // captured kernel node (the launch's function must be the node's).
  void set_kernel_params(CUgraphNode node, const KernelLaunch& launch);
  // Takes every node parameter of `graph` (same topology, same kinds of
  // nodes); false with the driver's reason (a CUgraphExecUpdateResult name)
  // when the graphs differ, the executable graph then keeps its parameters.
  bool update(const Graph& graph, std::string* why);

 private:
  CUgraphExec exec_ = nullptr;
};

// Starts capturing `stream` in thread-local mode: unsafe calls (synchronous
// copies, allocations, synchronization) are refused on the capturing thread
// only, so other threads' work is never pulled into or breaks the capture.
void begin_capture(CUstream stream);

// Ends the capture of `stream` and returns its graph. Throws CudaAPIError
// naming cuStreamEndCapture and the reason (an invalidated capture: an
// operation that cannot be captured ran on the stream meanwhile).
Graph end_capture(CUstream stream);

// The node the last operation captured on `stream` added (the one node the
// next captured operation would depend on); null when there is none or the
// stream's work forked.
CUgraphNode last_captured_node(CUstream stream);

// Whether `stream` is being captured (cuStreamIsCapturing).
bool is_capturing(CUstream stream);

// While alive, this thread may make calls a capture would otherwise refuse
// (module loading, which may allocate and copy): the thread's capture mode
// is relaxed and restored on destruction.
class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode();
  ~RelaxedCaptureMode();
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  CUstreamCaptureMode previous_ = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool active_ = false;
};

// "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED" for an update result.
const char* update_result_name(CUgraphExecUpdateResult result);

}  // namespace cuhost::cuda
