// Stream capture and graphs of the null driver (see null_graphs.h). Enough of
// the driver's rules for cuhost's host path to be tested without a GPU: one
// linear sequence of nodes per capture, the capture's dependency set is the
// last node, instantiation copies the nodes, kernel nodes of an executable
// graph take new parameters, an update needs the same sequence of node kinds
// and functions, and a graph launch performs the copies and logs the kernels.
#include "null_graphs.h"
#include "null_streams.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace null_driver {
namespace {

struct Node {
  enum Kind { Kernel, Copy, Memset } kind = Kernel;
  CUfunction function = nullptr;
  unsigned dims[7] = {1, 1, 1, 1, 1, 1, 0};  // grid x y z, block x y z, dynamic shared bytes
  unsigned cluster[3] = {1, 1, 1};           // CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION (captured or set)
  std::vector<std::vector<unsigned char>> params;
  bool params_known = false;
  void* dst = nullptr;
  const void* src = nullptr;
  std::size_t bytes = 0;
  unsigned char value = 0;
};

struct Graph {
  std::vector<std::unique_ptr<Node>> nodes;
};

struct Exec {
  const void* context = nullptr;  // the context it was instantiated in
  std::vector<Node> nodes;
  std::vector<const Node*> origin;  // the template node of each (for cuGraphExecKernelNodeSetParams)
};

struct Capture {
  Graph* graph = nullptr;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::thread::id owner;
  bool invalidated = false;
  unsigned long long id = 0;
  CUgraphNode last = nullptr;
};

std::mutex g_mutex;
std::map<CUstream, Capture> g_captures;
unsigned long long g_next_id = 1;
thread_local CUstreamCaptureMode t_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

// What the last graph launch would have run (read by scripts through ctypes).
std::vector<Node> g_last_kernels;
int g_graph_launches = 0;
int g_attribute_sets = 0;  // cuGraphKernelNodeSetAttribute calls that succeeded

bool is_null_stream(CUstream s) { return s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD; }

void copy_params(Node& n, void** params) {
  n.params.clear();
  const std::vector<std::size_t>* sizes = param_sizes(n.function);
  n.params_known = sizes != nullptr;
  if (!sizes) return;
  for (std::size_t i = 0; i < sizes->size(); ++i) {
    const auto* p = static_cast<const unsigned char*>(params[i]);
    n.params.emplace_back(p, p + (*sizes)[i]);
  }
}

Capture* capture_of(CUstream s) {
  auto it = g_captures.find(s);
  return it == g_captures.end() ? nullptr : &it->second;
}

void add_node(Capture& c, std::unique_ptr<Node> n) {
  c.last = reinterpret_cast<CUgraphNode>(n.get());
  c.graph->nodes.push_back(std::move(n));
}

CUresult begin_capture(CUstream s, CUstreamCaptureMode mode) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (is_null_stream(s)) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (capture_of(s)) return CUDA_ERROR_ILLEGAL_STATE;
  Capture c;
  c.graph = new Graph();
  c.mode = mode;
  c.owner = std::this_thread::get_id();
  c.id = g_next_id++;
  g_captures.emplace(s, c);
  return CUDA_SUCCESS;
}

CUresult end_capture(CUstream s, CUgraph* out) {
  std::lock_guard<std::mutex> lock(g_mutex);
  *out = nullptr;
  Capture* c = capture_of(s);
  if (!c) return CUDA_ERROR_ILLEGAL_STATE;
  Capture done = *c;
  g_captures.erase(s);
  if (done.invalidated) {
    delete done.graph;
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  *out = reinterpret_cast<CUgraph>(done.graph);
  return CUDA_SUCCESS;
}

CUresult is_capturing(CUstream s, CUstreamCaptureStatus* status) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  *status = !c               ? CU_STREAM_CAPTURE_STATUS_NONE
            : c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                             : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  return CUDA_SUCCESS;
}

CUresult capture_info(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                      const CUgraphNode** deps, const CUgraphEdgeData** edges, std::size_t* count) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  if (status)
    *status = !c               ? CU_STREAM_CAPTURE_STATUS_NONE
              : c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                               : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  if (id) *id = c ? c->id : 0;
  if (graph) *graph = c ? reinterpret_cast<CUgraph>(c->graph) : nullptr;
  if (edges) *edges = nullptr;
  if (deps) *deps = c && c->last ? &c->last : nullptr;
  if (count) *count = c && c->last ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult exchange_mode(CUstreamCaptureMode* mode) {
  CUstreamCaptureMode previous = t_mode;
  t_mode = *mode;
  *mode = previous;
  return CUDA_SUCCESS;
}

CUresult instantiate(CUgraphExec* out, CUgraph graph, unsigned long long) {
  const void* context = current_context();
  if (!context) return CUDA_ERROR_INVALID_CONTEXT;
  auto* g = reinterpret_cast<Graph*>(graph);
  auto* e = new Exec();
  e->context = context;
  for (const auto& n : g->nodes) {
    e->nodes.push_back(*n);
    e->origin.push_back(n.get());
  }
  *out = reinterpret_cast<CUgraphExec>(e);
  return CUDA_SUCCESS;
}

CUresult graph_launch(CUgraphExec exec, CUstream s) {
  if (context_of_stream(s) != reinterpret_cast<Exec*>(exec)->context) return CUDA_ERROR_INVALID_HANDLE;
  drain_stream(s, context_of_stream(s));  // the replay below runs at once: after the stream's earlier work
  std::lock_guard<std::mutex> lock(g_mutex);
  if (Capture* c = capture_of(s)) {
    c->invalidated = true;  // (a real driver would add a child graph node)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  auto* e = reinterpret_cast<Exec*>(exec);
  // A kernel node in clusters needs a grid of whole clusters, as a launch does.
  for (const Node& n : e->nodes)
    if (n.kind == Node::Kernel && (n.dims[0] % n.cluster[0] || n.dims[1] % n.cluster[1] || n.dims[2] % n.cluster[2]))
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  g_last_kernels.clear();
  for (const Node& n : e->nodes) {
    if (n.kind == Node::Copy)
      std::memmove(n.dst, n.src, n.bytes);
    else if (n.kind == Node::Memset)
      std::memset(n.dst, n.value, n.bytes);
    else
      g_last_kernels.push_back(n);
  }
  ++g_graph_launches;
  return CUDA_SUCCESS;
}

CUresult exec_destroy(CUgraphExec exec) {
  delete reinterpret_cast<Exec*>(exec);
  return CUDA_SUCCESS;
}

CUresult graph_destroy(CUgraph graph) {
  delete reinterpret_cast<Graph*>(graph);
  return CUDA_SUCCESS;
}

// Graphs a host builds node by node (cuhost::aot's Graph::cuda_graph and
// add_as_child). Nodes keep the order they were added in (dependencies are
// taken as that order); a child graph's nodes are copied in, as the driver
// clones the child.
CUresult graph_create(CUgraph* out, unsigned) {
  *out = reinterpret_cast<CUgraph>(new Graph());
  return CUDA_SUCCESS;
}

CUresult add_kernel_node(CUgraphNode* out, CUgraph graph, const CUgraphNode*, std::size_t,
                         const CUDA_KERNEL_NODE_PARAMS* p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto n = std::make_unique<Node>();
  n->function = p->func;
  const unsigned dims[7] = {p->gridDimX,  p->gridDimY,  p->gridDimZ,      p->blockDimX,
                            p->blockDimY, p->blockDimZ, p->sharedMemBytes};
  std::memcpy(n->dims, dims, sizeof dims);
  copy_params(*n, p->kernelParams);
  *out = reinterpret_cast<CUgraphNode>(n.get());
  reinterpret_cast<Graph*>(graph)->nodes.push_back(std::move(n));
  return CUDA_SUCCESS;
}

CUresult add_child_graph_node(CUgraphNode* out, CUgraph graph, const CUgraphNode*, std::size_t, CUgraph child) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* parent = reinterpret_cast<Graph*>(graph);
  *out = nullptr;
  for (const auto& n : reinterpret_cast<Graph*>(child)->nodes) {
    parent->nodes.push_back(std::make_unique<Node>(*n));
    *out = reinterpret_cast<CUgraphNode>(parent->nodes.back().get());
  }
  return CUDA_SUCCESS;
}

CUresult get_nodes(CUgraph graph, CUgraphNode* nodes, std::size_t* count) {
  auto* g = reinterpret_cast<Graph*>(graph);
  if (nodes)
    for (std::size_t i = 0; i < *count && i < g->nodes.size(); ++i)
      nodes[i] = reinterpret_cast<CUgraphNode>(g->nodes[i].get());
  *count = g->nodes.size();
  return CUDA_SUCCESS;
}

// Sets a kernel node from `p` (the template graph's or an executable graph's copy).
CUresult set_node(Node& n, const CUDA_KERNEL_NODE_PARAMS* p) {
  if (n.kind != Node::Kernel || !p->func) return CUDA_ERROR_INVALID_VALUE;
  n.function = p->func;
  const unsigned dims[7] = {p->gridDimX,  p->gridDimY,  p->gridDimZ,      p->blockDimX,
                            p->blockDimY, p->blockDimZ, p->sharedMemBytes};
  std::memcpy(n.dims, dims, sizeof dims);
  copy_params(n, p->kernelParams);
  return CUDA_SUCCESS;
}

CUresult template_set_kernel_params(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* p) {
  if (!node) return CUDA_ERROR_INVALID_VALUE;
  return set_node(*reinterpret_cast<Node*>(node), p);
}

// A template kernel node's cluster shape (the other launch attributes are not modelled).
CUresult template_set_attribute(CUgraphNode node, CUkernelNodeAttrID attr, const CUkernelNodeAttrValue* value) {
  if (!node || !value) return CUDA_ERROR_INVALID_VALUE;
  if (attr != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) return CUDA_ERROR_NOT_SUPPORTED;
  const auto& c = value->clusterDim;
  if (c.x == 0 || c.y == 0 || c.z == 0 || c.x * c.y * c.z > 8) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  std::lock_guard<std::mutex> lock(g_mutex);
  unsigned* cluster = reinterpret_cast<Node*>(node)->cluster;
  cluster[0] = c.x;
  cluster[1] = c.y;
  cluster[2] = c.z;
  ++g_attribute_sets;
  return CUDA_SUCCESS;
}

CUresult set_kernel_params(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* p) {
  // CUHOST_NULL_REFUSE_EXEC_NODE_UPDATE=1: refused, as a driver refuses some
  // changes in place (tests of the re-instantiation that follows).
  if (const char* refuse = std::getenv("CUHOST_NULL_REFUSE_EXEC_NODE_UPDATE"); refuse && *refuse == '1')
    return CUDA_ERROR_NOT_SUPPORTED;
  auto* e = reinterpret_cast<Exec*>(exec);
  for (std::size_t i = 0; i < e->nodes.size(); ++i) {
    if (e->origin[i] != reinterpret_cast<const Node*>(node)) continue;
    return set_node(e->nodes[i], p);  // another function of the same context may replace the node's, as on a GPU
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult exec_update(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  auto* e = reinterpret_cast<Exec*>(exec);
  auto* g = reinterpret_cast<Graph*>(graph);
  auto fail = [&](CUgraphExecUpdateResult r, std::size_t i) {
    info->result = r;
    info->errorNode = i < g->nodes.size() ? reinterpret_cast<CUgraphNode>(g->nodes[i].get()) : nullptr;
    info->errorFromNode = nullptr;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  };
  if (g->nodes.size() != e->nodes.size()) return fail(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, 0);
  for (std::size_t i = 0; i < e->nodes.size(); ++i) {
    if (g->nodes[i]->kind != e->nodes[i].kind) return fail(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, i);
    if (g->nodes[i]->function != e->nodes[i].function)
      return fail(CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, i);
  }
  for (std::size_t i = 0; i < e->nodes.size(); ++i) e->nodes[i] = *g->nodes[i];
  info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  info->errorNode = info->errorFromNode = nullptr;
  return CUDA_SUCCESS;
}

}  // namespace

namespace {

// A PTX image (what kernels without foreign code load from): the sizes of
// the `.param` declarations of `.entry <name>(...)`.
bool ptx_param_sizes(const std::string& image, const std::string& name, std::vector<std::size_t>* sizes) {
  const std::string entry = ".entry " + name + "(";
  std::size_t at = image.find(entry);
  if (at == std::string::npos) return false;
  const std::size_t end = image.find(')', at);
  if (end == std::string::npos) return false;
  sizes->clear();
  for (std::size_t p = image.find(".param", at); p != std::string::npos && p < end; p = image.find(".param", p + 6)) {
    const std::size_t line_end = image.find_first_of(",)", p);
    const std::string decl = image.substr(p, line_end - p);
    std::size_t bytes = 8;
    if (decl.find(".u32") != std::string::npos || decl.find(".s32") != std::string::npos ||
        decl.find(".b32") != std::string::npos || decl.find(".f32") != std::string::npos)
      bytes = 4;
    else if (decl.find(".u16") != std::string::npos || decl.find(".b16") != std::string::npos ||
             decl.find(".s16") != std::string::npos || decl.find(".f16") != std::string::npos)
      bytes = 2;
    else if (decl.find(".u8") != std::string::npos || decl.find(".b8") != std::string::npos ||
             decl.find(".s8") != std::string::npos)
      bytes = 1;
    if (std::size_t bracket = decl.find('['); bracket != std::string::npos)  // .b8 name[16]: an aggregate
      bytes *= std::stoul(decl.substr(bracket + 1));
    sizes->push_back(bytes);
  }
  return true;
}

}  // namespace

// Each EIATTR_KPARAM_INFO (attribute 0x17, a 12-byte value) of section
// .nv.info.<name> holds an ordinal and, in bits 18-31 of its last word, the
// parameter's size in bytes. A PTX image declares them in its .entry.
bool kparam_sizes(const std::string& image, const std::string& name, std::vector<std::size_t>* sizes) {
  if (image.compare(0, 4,
                    "\x7f"
                    "ELF") != 0)
    return ptx_param_sizes(image, name, sizes);
  const auto* b = reinterpret_cast<const unsigned char*>(image.data());
  auto u16 = [&](std::size_t at) {
    std::uint16_t v;
    std::memcpy(&v, b + at, 2);
    return v;
  };
  auto u32 = [&](std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b + at, 4);
    return v;
  };
  auto u64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, b + at, 8);
    return v;
  };
  if (image.size() < 0x40 ||
      std::memcmp(b,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      b[4] != 2)
    return false;
  const std::uint64_t shoff = u64(0x28);
  const unsigned shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
  if (shoff + std::uint64_t{shentsize} * shnum > image.size() || shstrndx >= shnum) return false;
  const std::uint64_t strtab = u64(shoff + std::uint64_t{shentsize} * shstrndx + 24);
  const std::string wanted = ".nv.info." + name;
  for (unsigned i = 0; i < shnum; ++i) {
    const std::size_t h = shoff + std::size_t{shentsize} * i;
    const char* section = image.c_str() + strtab + u32(h);
    if (wanted != section) continue;
    const std::size_t start = u64(h + 24), end = start + u64(h + 32);
    std::map<unsigned, std::size_t> by_ordinal;
    for (std::size_t p = start; p + 4 <= end && p + 4 <= image.size();) {
      const unsigned format = b[p], attribute = b[p + 1];
      if (format != 0x04) {  // no payload
        p += 4;
        continue;
      }
      const std::size_t size = u16(p + 2);
      if (attribute == 0x17 && size >= 12) by_ordinal[u16(p + 8)] = (u32(p + 12) >> 18) & 0x3fff;
      p += 4 + size;
    }
    sizes->clear();
    for (const auto& [ordinal, bytes] : by_ordinal) sizes->push_back(bytes);
    return true;
  }
  return false;
}

bool capture_launch(CUstream s, CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                    void** params, const unsigned* cluster) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  if (!c) return false;
  auto n = std::make_unique<Node>();
  n->function = f;
  const unsigned dims[7] = {grid[0], grid[1], grid[2], block[0], block[1], block[2], shared};
  std::memcpy(n->dims, dims, sizeof dims);
  if (cluster) std::memcpy(n->cluster, cluster, sizeof n->cluster);
  copy_params(*n, params);
  add_node(*c, std::move(n));
  return true;
}

bool capture_copy(CUstream s, void* dst, const void* src, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  if (!c) return false;
  auto n = std::make_unique<Node>();
  n->kind = Node::Copy;
  n->dst = dst;
  n->src = src;
  n->bytes = bytes;
  add_node(*c, std::move(n));
  return true;
}

bool capture_memset(CUstream s, void* dst, unsigned char value, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  if (!c) return false;
  auto n = std::make_unique<Node>();
  n->kind = Node::Memset;
  n->dst = dst;
  n->value = value;
  n->bytes = bytes;
  add_node(*c, std::move(n));
  return true;
}

CUresult check_stream_wait(CUstream s) {
  std::lock_guard<std::mutex> lock(g_mutex);
  Capture* c = capture_of(s);
  if (!c) return CUDA_SUCCESS;
  c->invalidated = true;
  return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult check_unsafe_call() {
  if (t_mode == CU_STREAM_CAPTURE_MODE_RELAXED) return CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(g_mutex);
  const std::thread::id me = std::this_thread::get_id();
  for (auto& [stream, c] : g_captures) {
    const bool mine = c.owner == me && c.mode != CU_STREAM_CAPTURE_MODE_RELAXED;
    const bool global =
        c.owner != me && c.mode == CU_STREAM_CAPTURE_MODE_GLOBAL && t_mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
    if (mine || global) {
      c.invalidated = true;
      return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
  }
  return CUDA_SUCCESS;
}

const Entry* graph_entries(std::size_t* count) {
  static const Entry entries[] = {
      {"cuStreamBeginCapture", reinterpret_cast<void*>(&begin_capture)},
      {"cuStreamEndCapture", reinterpret_cast<void*>(&end_capture)},
      {"cuStreamIsCapturing", reinterpret_cast<void*>(&is_capturing)},
      {"cuStreamGetCaptureInfo", reinterpret_cast<void*>(&capture_info)},
      {"cuThreadExchangeStreamCaptureMode", reinterpret_cast<void*>(&exchange_mode)},
      {"cuGraphInstantiateWithFlags", reinterpret_cast<void*>(&instantiate)},
      {"cuGraphLaunch", reinterpret_cast<void*>(&graph_launch)},
      {"cuGraphExecDestroy", reinterpret_cast<void*>(&exec_destroy)},
      {"cuGraphDestroy", reinterpret_cast<void*>(&graph_destroy)},
      {"cuGraphCreate", reinterpret_cast<void*>(&graph_create)},
      {"cuGraphAddKernelNode", reinterpret_cast<void*>(&add_kernel_node)},
      {"cuGraphAddChildGraphNode", reinterpret_cast<void*>(&add_child_graph_node)},
      {"cuGraphGetNodes", reinterpret_cast<void*>(&get_nodes)},
      {"cuGraphExecKernelNodeSetParams", reinterpret_cast<void*>(&set_kernel_params)},
      {"cuGraphKernelNodeSetParams", reinterpret_cast<void*>(&template_set_kernel_params)},
      {"cuGraphKernelNodeSetAttribute", reinterpret_cast<void*>(&template_set_attribute)},
      {"cuGraphExecUpdate", reinterpret_cast<void*>(&exec_update)},
  };
  *count = sizeof entries / sizeof entries[0];
  return entries;
}

}  // namespace null_driver

// What the last graph launch would have run, for scripts (through ctypes).
extern "C" __attribute__((visibility("default"))) int cuhost_null_graph_launches() {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  return null_driver::g_graph_launches;
}

extern "C" __attribute__((visibility("default"))) int cuhost_null_graph_kernel_count() {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  return static_cast<int>(null_driver::g_last_kernels.size());
}

// Parameter `param` of kernel node `kernel` of the last graph launch, zero-
// extended; ~0 when out of range or the parameters are unknown.
extern "C" __attribute__((visibility("default"))) unsigned long long cuhost_null_graph_kernel_param(int kernel,
                                                                                                    int param) {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  const auto& ks = null_driver::g_last_kernels;
  if (kernel < 0 || static_cast<std::size_t>(kernel) >= ks.size()) return ~0ULL;
  const auto& ps = ks[static_cast<std::size_t>(kernel)].params;
  if (param < 0 || static_cast<std::size_t>(param) >= ps.size()) return ~0ULL;
  unsigned long long v = 0;
  std::memcpy(&v, ps[static_cast<std::size_t>(param)].data(),
              std::min<std::size_t>(8, ps[static_cast<std::size_t>(param)].size()));
  return v;
}

// Grid (0-2), block (3-5) or dynamic shared bytes (6) of kernel node `kernel`.
// The cluster shape (axis 0-2) of kernel node `kernel` of the last graph launch; ~0 when out of range.
extern "C" __attribute__((visibility("default"))) unsigned cuhost_null_graph_kernel_cluster(int kernel, int axis) {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  const auto& ks = null_driver::g_last_kernels;
  if (kernel < 0 || static_cast<std::size_t>(kernel) >= ks.size() || axis < 0 || axis > 2) return ~0U;
  return ks[static_cast<std::size_t>(kernel)].cluster[axis];
}

extern "C" __attribute__((visibility("default"))) int cuhost_null_graph_attribute_sets() {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  return null_driver::g_attribute_sets;
}

extern "C" __attribute__((visibility("default"))) unsigned cuhost_null_graph_kernel_dim(int kernel, int which) {
  std::lock_guard<std::mutex> lock(null_driver::g_mutex);
  const auto& ks = null_driver::g_last_kernels;
  if (kernel < 0 || static_cast<std::size_t>(kernel) >= ks.size() || which < 0 || which > 6) return ~0U;
  return ks[static_cast<std::size_t>(kernel)].dims[which];
}
