// Captured graphs follow live kernels (runtime/live_kernels.h): before a
// launch, each captured kernel that a reload replaced since the last launch
// takes its successor. On the CPU backend the replay reads the kernel from
// the record; on the CUDA backend the executable graph's node is updated in
// place (cuGraphExecKernelNodeSetParams with the new function, same
// arguments and configuration). Where the driver refuses an update in place,
// the template graph's nodes take the new kernels and the executable graph is
// instantiated again from it. All of a graph's kernels follow, or none: when
// neither works (an unknown node, a refused instantiation) the nodes already
// changed are put back and the graph keeps its old code (saying so).
#include <cstdio>

#include "cuda/error_record.h"
#include "cuda/graph.h"
#include "cuda/module.h"
#include "runtime/captured_graph.h"
#include "runtime/devices.h"
#include "runtime/live_kernels.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {
namespace {

cuda::KernelLaunch node_launch(const CapturedKernel& k, CUfunction function, const CompiledKernel& kernel) {
  cuda::KernelLaunch l;
  l.function = function;
  for (int d = 0; d < 3; ++d) {
    l.grid[d] = k.grid[d];
    l.block[d] = k.block[d];
    l.cluster[d] = kernel.cluster_dim[d];
  }
  l.shared_bytes = k.shared + unsigned(kernel.dynamic_shared_padding);  // as LoadedKernel::launch adds it
  l.params = const_cast<void**>(k.params.data());
  l.kernel_name = &kernel.name;
  return l;
}

// Gives the node of each swapped kernel its successor through `set` (a node
// and its launch), then runs `finish`; all or none: when either throws, the
// nodes already set get their old kernels back and the error goes on.
template <class Swaps, class Set, class Finish>
void set_all_or_none(const std::vector<CapturedKernel>& kernels, int device, const Swaps& swaps, Set set,
                     Finish finish) {
  std::vector<std::size_t> done;
  try {
    for (auto& [i, next] : swaps) {
      const CapturedKernel& k = kernels[i];
      set(k.node, node_launch(k, cuda::kernel_function(next, device), *next));
      done.push_back(i);
    }
    finish();
  } catch (...) {
    for (std::size_t i : done) {  // back to the old code everywhere: never a graph of mixed code
      const CapturedKernel& k = kernels[i];
      set(k.node, node_launch(k, k.function, *k.kernel));
    }
    throw;
  }
}

}  // namespace

bool CapturedGraph::update_nodes_in_place(const LiveSwaps& swaps) {
  try {
    set_all_or_none(
        kernels_, device_, swaps,
        [&](CUgraphNode node, const cuda::KernelLaunch& l) { exec_->set_kernel_params(node, l); }, [] {});
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool CapturedGraph::instantiate_with(const LiveSwaps& swaps) {
  try {
    set_all_or_none(
        kernels_, device_, swaps,
        [&](CUgraphNode node, const cuda::KernelLaunch& l) { graph_->set_kernel_params(node, l); },
        // The old executable graph is destroyed: no replay uses it now.
        [&] { exec_ = std::make_unique<cuda::GraphExec>(*graph_); });
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuhost: a captured graph keeps its old kernels after a live reload: %s\n", e.what());
    return false;
  }
}

void CapturedGraph::follow_live_swaps() {
  const std::uint64_t generation = live_generation();
  if (generation == live_generation_seen_) return;  // the common case: one atomic load
  live_generation_seen_ = generation;
  LiveSwaps swaps;
  for (std::size_t i = 0; i < kernels_.size(); ++i) {
    auto next = live_successor(kernels_[i].kernel);
    if (next != kernels_[i].kernel) swaps.emplace_back(i, std::move(next));
  }
  if (swaps.empty()) return;
  if (backend_ != Backend::Cuda) {
    for (auto& [i, next] : swaps) kernels_[i].kernel = std::move(next);
    return;
  }
  if (!exec_ || module_generation_ != cuda::module_generation()) return;  // launch() reports the unloaded graph
  DeviceScope scope(device_);
  make_device_current(device_);
  for (auto& [i, next] : swaps)
    if (!kernels_[i].node) {
      std::fprintf(stderr, "cuhost: a captured graph keeps its old kernels after a live reload: %s\n",
                   concat("the graph node of kernel '", kernels_[i].kernel->name, "' is not known").c_str());
      return;
    }
  if (!update_nodes_in_place(swaps) && !instantiate_with(swaps)) return;
  for (auto& [i, next] : swaps) {
    CapturedKernel& k = kernels_[i];
    k.function = cuda::kernel_function(next, device_);
    k.errors = cuda::kernel_error_record(next.get(), device_);
    k.kernel = std::move(next);
  }
}

}  // namespace cuhost::runtime
