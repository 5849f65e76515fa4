// CUDA graphs through stream capture (see graph.h). Entry points a driver
// may lack are checked before use, so an old driver gives a CudaSupportError
// naming the function instead of a null call.
#include "cuda/graph.h"

#include <vector>

#include "cuda/driver.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {
namespace {

// The table, after checking that `fn` is present (graphs need CUDA 12.3+).
template <class Fn>
const DriverTable& with(Fn DriverTable::*fn, const char* name) {
  const DriverTable& d = driver();
  if (!(d.*fn))
    throw UserError(ErrorKind::CudaSupportError, concat("the CUDA driver lacks ", name,
                                                        ", which CUDA graphs need (a driver for CUDA 12.3 or newer)"));
  return d;
}

}  // namespace

Graph::~Graph() {
  if (!graph_) return;
  try {
    driver().cuGraphDestroy(graph_);
  } catch (...) {
  }
}

Graph& Graph::operator=(Graph&& other) noexcept {
  if (this != &other) {
    Graph doomed(graph_);
    graph_ = other.graph_;
    other.graph_ = nullptr;
  }
  return *this;
}

std::size_t Graph::node_count() const {
  std::size_t n = 0;
  check(with(&DriverTable::cuGraphGetNodes, "cuGraphGetNodes").cuGraphGetNodes(graph_, nullptr, &n), "cuGraphGetNodes");
  return n;
}

GraphExec::GraphExec(const Graph& graph) {
  const DriverTable& d = with(&DriverTable::cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  check(d.cuGraphInstantiateWithFlags(&exec_, graph.get(), 0), "cuGraphInstantiateWithFlags");
}

GraphExec::~GraphExec() {
  if (!exec_) return;
  try {
    driver().cuGraphExecDestroy(exec_);
  } catch (...) {
  }
}

void GraphExec::launch(CUstream stream) {
  check(with(&DriverTable::cuGraphLaunch, "cuGraphLaunch").cuGraphLaunch(exec_, stream), "cuGraphLaunch");
}

namespace {

CUDA_KERNEL_NODE_PARAMS kernel_node_params(const KernelLaunch& l) {
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = l.function;
  p.gridDimX = l.grid[0];
  p.gridDimY = l.grid[1];
  p.gridDimZ = l.grid[2];
  p.blockDimX = l.block[0];
  p.blockDimY = l.block[1];
  p.blockDimZ = l.block[2];
  p.sharedMemBytes = l.shared_bytes;
  p.kernelParams = l.params;
  return p;
}

}  // namespace

void Graph::set_kernel_params(CUgraphNode node, const KernelLaunch& l) {
  const CUDA_KERNEL_NODE_PARAMS p = kernel_node_params(l);
  const DriverTable& d = with(&DriverTable::cuGraphKernelNodeSetParams, "cuGraphKernelNodeSetParams");
  check(d.cuGraphKernelNodeSetParams(node, &p), "cuGraphKernelNodeSetParams", l.kernel_name ? *l.kernel_name : "");
  // The node's cluster shape is an attribute, apart from its parameters: set
  // it with them, so a node given a clustered kernel runs it in clusters.
  if (l.cluster[0] * l.cluster[1] * l.cluster[2] > 1) {
    CUkernelNodeAttrValue value{};
    value.clusterDim.x = l.cluster[0];
    value.clusterDim.y = l.cluster[1];
    value.clusterDim.z = l.cluster[2];
    const DriverTable& da = with(&DriverTable::cuGraphKernelNodeSetAttribute, "cuGraphKernelNodeSetAttribute");
    check(da.cuGraphKernelNodeSetAttribute(node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &value),
          "cuGraphKernelNodeSetAttribute", l.kernel_name ? *l.kernel_name : "");
  }
}

void GraphExec::set_kernel_params(CUgraphNode node, const KernelLaunch& l) {
  const CUDA_KERNEL_NODE_PARAMS p = kernel_node_params(l);
  const DriverTable& d = with(&DriverTable::cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams");
  check(d.cuGraphExecKernelNodeSetParams(exec_, node, &p), "cuGraphExecKernelNodeSetParams",
        l.kernel_name ? *l.kernel_name : "");
}

bool GraphExec::update(const Graph& graph, std::string* why) {
  CUgraphExecUpdateResultInfo info{};
  const DriverTable& d = with(&DriverTable::cuGraphExecUpdate, "cuGraphExecUpdate");
  CUresult r = d.cuGraphExecUpdate(exec_, graph.get(), &info);
  if (r == CUDA_SUCCESS) return true;
  if (r != CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) check(r, "cuGraphExecUpdate");
  if (why) *why = update_result_name(info.result);
  return false;
}

void begin_capture(CUstream stream) {
  const DriverTable& d = with(&DriverTable::cuStreamBeginCapture, "cuStreamBeginCapture");
  check(d.cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture");
}

Graph end_capture(CUstream stream) {
  CUgraph g = nullptr;
  const DriverTable& d = with(&DriverTable::cuStreamEndCapture, "cuStreamEndCapture");
  CUresult r = d.cuStreamEndCapture(stream, &g);
  Graph owned(g);  // an invalidated capture may still hand back a graph
  check(r, "cuStreamEndCapture");
  return owned;
}

CUgraphNode last_captured_node(CUstream stream) {
  const DriverTable& d = with(&DriverTable::cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo");
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const CUgraphNode* deps = nullptr;
  std::size_t count = 0;
  check(d.cuStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, nullptr, &count), "cuStreamGetCaptureInfo");
  if (status != CU_STREAM_CAPTURE_STATUS_ACTIVE || count != 1 || !deps) return nullptr;
  return deps[0];
}

bool is_capturing(CUstream stream) {
  const DriverTable& d = with(&DriverTable::cuStreamIsCapturing, "cuStreamIsCapturing");
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(d.cuStreamIsCapturing(stream, &status), "cuStreamIsCapturing");
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

RelaxedCaptureMode::RelaxedCaptureMode() {
  const DriverTable& d = driver();
  if (!d.cuThreadExchangeStreamCaptureMode) return;
  previous_ = CU_STREAM_CAPTURE_MODE_RELAXED;
  active_ = d.cuThreadExchangeStreamCaptureMode(&previous_) == CUDA_SUCCESS;
}

RelaxedCaptureMode::~RelaxedCaptureMode() {
  if (!active_) return;
  try {
    driver().cuThreadExchangeStreamCaptureMode(&previous_);
  } catch (...) {
  }
}

const char* update_result_name(CUgraphExecUpdateResult result) {
  switch (result) {
    case CU_GRAPH_EXEC_UPDATE_SUCCESS: return "CU_GRAPH_EXEC_UPDATE_SUCCESS";
    case CU_GRAPH_EXEC_UPDATE_ERROR: return "CU_GRAPH_EXEC_UPDATE_ERROR";
    case CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED: return "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED: return "CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED: return "CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED: return "CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED: return "CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED";
    case CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE:
      return "CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE";
    case CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED: return "CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED";
  }
  return "CU_GRAPH_EXEC_UPDATE_ERROR (unknown result)";
}

}  // namespace cuhost::cuda
