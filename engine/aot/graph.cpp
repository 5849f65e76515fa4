// Exported graphs (cuhost::aot::Graph): a cuhost.graph capture's launches,
// in order, with named parameters the host binds. A launch sends them to
// the host's stream one by one, so a stream the host captures records them
// into its own graph; cuda_graph() builds a CUgraph of kernel nodes for
// cuGraphAddChildGraphNode; on the CPU the launches replay in order.
#include <algorithm>
#include <cstring>
#include <map>

#include "aot/module_state.h"

namespace cuhost::aot {

struct GraphState {
  const Module::State* module = nullptr;
  const ManifestGraph* def = nullptr;
  std::vector<std::shared_ptr<KernelState>> kernels;  // per launch
  std::vector<std::vector<std::uint64_t>> values;     // per launch: one 8-byte cell per slot
  std::vector<std::vector<void*>> params;             // per launch: &values[l][s]
  struct Use {
    std::size_t launch, slot;
  };
  std::map<std::string, std::vector<Use>> uses;  // parameter -> the slots it fills
  std::map<std::string, bool> bound;
  CUgraph graph = nullptr;
  bool graph_stale = true;

  ~GraphState() {
    if (graph && module->driver && module->driver->cuGraphDestroy) module->driver->cuGraphDestroy(graph);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(def->name, "graph '" + def->name + "': " + what);
  }
  void check_bound() const {  // the first unbound parameter in the manifest's order
    for (const ManifestGraphParam& p : def->params)
      if (!bound.at(p.name)) fail("parameter '" + p.name + "' is not bound (Graph::bind)");
  }
};

Graph Module::graph(const std::string& name) const {
  const ManifestGraph* def = nullptr;
  for (const ManifestGraph& g : state_->manifest.graphs)
    if (g.name == name) def = &g;
  if (!def) throw Error(name, "graph '" + name + "' is not in the export folder '" + state_->manifest.dir + "'");
  auto g = std::make_shared<GraphState>();
  g->module = state_.get();
  g->def = def;
  for (const ManifestGraphParam& p : def->params) g->bound[p.name] = false;
  for (std::size_t l = 0; l < def->launches.size(); ++l) {
    const ManifestGraphLaunch& launch = def->launches[l];
    auto k = state_->kernels.find(launch.kernel);
    if (k == state_->kernels.end()) g->fail("launches kernel '" + launch.kernel + "', which the export lacks");
    if (launch.slots.size() != k->second->slot_count)
      g->fail("launch " + std::to_string(l) + " passes " + std::to_string(launch.slots.size()) + " slots to kernel '" +
              launch.kernel + "', which takes " + std::to_string(k->second->slot_count));
    g->kernels.push_back(k->second);
    g->values.emplace_back(launch.slots.size(), 0);
    for (std::size_t s = 0; s < launch.slots.size(); ++s) {
      const ManifestGraphArg& a = launch.slots[s];
      if (!a.param.empty()) {
        if (!g->bound.count(a.param)) g->fail("uses parameter '" + a.param + "', which it does not declare");
        g->uses[a.param].push_back({l, s});
      } else {
        std::memcpy(&g->values[l][s], a.constant.data(), std::min<std::size_t>(8, a.constant.size()));
      }
    }
  }
  for (auto& v : g->values) {
    std::vector<void*> p;
    for (std::uint64_t& cell : v) p.push_back(&cell);
    g->params.push_back(std::move(p));
  }
  return Graph(std::move(g));
}

const std::string& Graph::name() const { return state_->def->name; }

std::vector<std::string> Graph::parameters() const {
  std::vector<std::string> out;
  for (const ManifestGraphParam& p : state_->def->params) out.push_back(p.name);
  return out;
}

void Graph::bind(const std::vector<GraphArgument>& arguments) {
  GraphState& g = *state_;
  for (const GraphArgument& a : arguments) {
    const ManifestGraphParam* p = nullptr;
    for (const ManifestGraphParam& candidate : g.def->params)
      if (candidate.name == a.name) p = &candidate;
    if (!p) g.fail("has no parameter '" + a.name + "'");
    const char* given = a.kind == GraphArgument::Kind::Pointer ? "pointer"
                        : a.kind == GraphArgument::Kind::Int   ? "int"
                                                               : "float";
    if (p->kind != given) g.fail("parameter '" + a.name + "' is " + p->kind + ", not " + given);
    std::uint64_t cell = 0;
    if (a.kind == GraphArgument::Kind::Pointer) {
      cell = a.pointer;
    } else if (a.kind == GraphArgument::Kind::Int) {
      std::memcpy(&cell, &a.int_value, static_cast<std::size_t>(p->bytes));  // little-endian: the low bytes
    } else if (p->bytes == 4) {
      float f = static_cast<float>(a.float_value);
      std::memcpy(&cell, &f, 4);
    } else {
      std::memcpy(&cell, &a.float_value, 8);
    }
    for (const GraphState::Use& u : g.uses[a.name]) g.values[u.launch][u.slot] = cell;
    g.bound[a.name] = true;
  }
  g.graph_stale = true;
}

void Graph::launch(std::uintptr_t stream) {
  GraphState& g = *state_;
  g.check_bound();
  for (std::size_t l = 0; l < g.kernels.size(); ++l) {
    const ManifestGraphLaunch& d = g.def->launches[l];
    LaunchConfig c;
    c.grid = Dim3(d.grid[0], d.grid[1], d.grid[2]);
    c.block = Dim3(d.block[0], d.block[1], d.block[2]);
    c.shared_bytes = d.shared;
    c.stream = stream;
    try {
      g.kernels[l]->launch(c, g.params[l].data());
    } catch (const Error& e) {
      g.fail("launch " + std::to_string(l) + ": " + e.what());
    }
  }
}

std::uintptr_t Graph::cuda_graph() {
  GraphState& g = *state_;
  const DriverTable* d = g.module->driver;
  if (!d) g.fail("has no CUDA graph: the module runs on the CPU library (use launch())");
  if (!d->cuGraphCreate || !d->cuGraphAddKernelNode || !d->cuGraphAddChildGraphNode || !d->cuGraphDestroy)
    g.fail("the CUDA driver lacks the graph-building functions (cuGraphCreate, cuGraphAddKernelNode)");
  g.check_bound();
  if (g.graph && !g.graph_stale) return reinterpret_cast<std::uintptr_t>(g.graph);
  if (g.graph) d->cuGraphDestroy(g.graph);
  g.graph = nullptr;
  auto check = [&](CUresult r, const char* step) {
    if (r != CUDA_SUCCESS) g.fail(std::string(step) + " failed: " + driver_error(*d, r));
  };
  check(d->cuGraphCreate(&g.graph, 0), "cuGraphCreate");
  CUgraphNode previous = nullptr;
  for (std::size_t l = 0; l < g.kernels.size(); ++l) {
    const KernelState& k = *g.kernels[l];
    const ManifestGraphLaunch& launch = g.def->launches[l];
    if (k.cooperative)
      g.fail("launch " + std::to_string(l) + " of kernel '" + k.name + "' is cooperative; use launch()");
    CUDA_KERNEL_NODE_PARAMS p{};
    p.func = k.function;
    p.gridDimX = launch.grid[0];
    p.gridDimY = launch.grid[1];
    p.gridDimZ = launch.grid[2];
    p.blockDimX = launch.block[0];
    p.blockDimY = launch.block[1];
    p.blockDimZ = launch.block[2];
    p.sharedMemBytes = static_cast<unsigned>(launch.shared + k.dynamic_padding);
    p.kernelParams = g.params[l].data();  // copied into the node
    CUgraphNode node = nullptr;
    check(d->cuGraphAddKernelNode(&node, g.graph, previous ? &previous : nullptr, previous ? 1 : 0, &p),
          "cuGraphAddKernelNode");
    if (k.clustered()) {  // the node's cluster shape is an attribute, apart from its parameters
      k.check_cluster_grid(launch.grid);
      if (!d->cuGraphKernelNodeSetAttribute)
        g.fail("the CUDA driver lacks cuGraphKernelNodeSetAttribute, which kernel '" + k.name +
               "' (in clusters) needs");
      CUkernelNodeAttrValue value{};
      value.clusterDim.x = k.cluster[0];
      value.clusterDim.y = k.cluster[1];
      value.clusterDim.z = k.cluster[2];
      check(d->cuGraphKernelNodeSetAttribute(node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &value),
            "cuGraphKernelNodeSetAttribute");
    }
    previous = node;
  }
  g.graph_stale = false;
  return reinterpret_cast<std::uintptr_t>(g.graph);
}

std::uintptr_t Graph::add_as_child(std::uintptr_t parent, const std::vector<std::uintptr_t>& dependencies) {
  GraphState& g = *state_;
  CUgraph child = reinterpret_cast<CUgraph>(cuda_graph());
  std::vector<CUgraphNode> deps;
  for (std::uintptr_t n : dependencies) deps.push_back(reinterpret_cast<CUgraphNode>(n));
  CUgraphNode node = nullptr;
  CUresult r = g.module->driver->cuGraphAddChildGraphNode(&node, reinterpret_cast<CUgraph>(parent),
                                                          deps.empty() ? nullptr : deps.data(), deps.size(), child);
  if (r != CUDA_SUCCESS) g.fail("cuGraphAddChildGraphNode failed: " + driver_error(*g.module->driver, r));
  return reinterpret_cast<std::uintptr_t>(node);
}

}  // namespace cuhost::aot
