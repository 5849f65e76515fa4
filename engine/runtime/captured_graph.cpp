// Launching, re-parameterizing and updating captured graphs (see
// captured_graph.h). The CPU replay runs each recorded launch through the
// same CPU launcher an eager launch uses, so a replay reports the same
// errors (bounds checks, kernel errors, deadlocks) at the same operation.
#include "runtime/captured_graph.h"

#include <cstring>

#include "cpu/launcher.h"
#include "cuda/error_record.h"
#include "cuda/graph.h"
#include "runtime/access_order.h"
#include "runtime/compiler.h"
#include "runtime/device_memory.h"
#include "runtime/devices.h"
#include "runtime/graph_capture.h"
#include "runtime/kernel_launch.h"
#include "support/blocking_wait.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

void CapturedKernel::set_slots(const std::uint64_t* values, std::size_t count) {
  slots.assign(values, values + count);
  params.resize(count);
  for (std::size_t i = 0; i < count; ++i) params[i] = &slots[i];
}

CapturedGraph::CapturedGraph(Backend backend, std::uintptr_t stream, int device)
    : backend_(backend), stream_(stream), device_(device) {}

CapturedGraph::~CapturedGraph() {
  // The executable graph goes before the graph it was instantiated from,
  // both in their own context; the thread's device is kept.
  if (backend_ == Backend::Cuda && (exec_ || graph_)) {
    try {
      DeviceScope scope(device_);
      make_device_current(device_);
      exec_.reset();
      graph_.reset();
    } catch (...) {
    }
  }
  exec_.reset();
  graph_.reset();
}

void CapturedGraph::add_kernel(CapturedKernel k) {
  order_.push_back({true, kernels_.size()});
  kernels_.push_back(std::move(k));
}

void CapturedGraph::add_copy(const CapturedCopy& c) {
  order_.push_back({false, copies_.size()});
  copies_.push_back(c);
}

void CapturedGraph::add_copy_touch(GraphTouch t) { copy_touches_.push_back(std::move(t)); }

void CapturedGraph::set_driver_graph(std::unique_ptr<cuda::Graph> graph, std::uint64_t module_generation) {
  graph_ = std::move(graph);
  exec_ = std::make_unique<cuda::GraphExec>(*graph_);
  module_generation_ = module_generation;
}

std::size_t CapturedGraph::node_count() const { return graph_ ? graph_->node_count() : order_.size(); }

void CapturedGraph::check_loaded() const {
  if (backend_ == Backend::Cuda && cuda::module_generation() != module_generation_)
    throw UserError(ErrorKind::RuntimeError,
                    "the graph's kernels were unloaded (cuda.close() or a context reset) after it was captured; "
                    "capture it again");
}

void CapturedGraph::replay_on_cpu() {
  for (const Op& op : order_) {
    if (op.kernel) {
      const CapturedKernel& k = kernels_[op.index];
      cpu::launch(cpu_launch_of(*k.kernel, k.grid, k.block, k.shared, const_cast<void**>(k.params.data())));
    } else {
      const CapturedCopy& c = copies_[op.index];
      if (!c.bytes) continue;
      if (c.kind == CopyKind::Memset)
        std::memset(reinterpret_cast<void*>(c.dst), c.value, c.bytes);
      else
        std::memmove(reinterpret_cast<void*>(c.dst), reinterpret_cast<const void*>(c.src), c.bytes);
    }
  }
}

void CapturedGraph::launch(std::uintptr_t stream) {
  auto lock = support::lock_blocking(mutex_);  // a module load under it may run Python
  follow_live_swaps();
  if (backend_ != Backend::Cuda) {
    replay_on_cpu();
    return;
  }
  check_loaded();
  DeviceScope scope(device_);
  make_device_current(device_);
  const CUstream s = reinterpret_cast<CUstream>(stream);
  // While any capture is in progress the ordering stays out, as for eager
  // work (python/array_order.h): marking a write of a stream being captured
  // would record into that capture and pull this stream into it.
  const bool ordered = !capture_in_progress();
  if (ordered) order_before_launch(stream);
  exec_->launch(s);
  if (ordered) order_after_launch(stream);
  // Kernels compiled with checks report a failed check once the graph ran,
  // as their eager launches do.
  for (const CapturedKernel& k : kernels_)
    if (k.errors.record) cuda::check_kernel_errors(k.errors, s, k.kernel->name);
}

// A graph's kernels and copies may run on another stream than the one they
// were captured on, and the arrays they touch may have been written on other
// streams since: cuhost's streams do not wait for each other, so a launch is
// ordered like the eager work it replays (every touched array as written).
template <typename Fn>
void CapturedGraph::for_each_touch(Fn&& fn) const {
  for (const CapturedKernel& k : kernels_)
    for (const GraphTouch& t : k.touched) fn(t);
  for (const GraphTouch& t : copy_touches_) fn(t);
}

void CapturedGraph::order_before_launch(std::uintptr_t stream) const {
  for_each_touch([&](const GraphTouch& t) { t.order->before({stream, device_}, t.lo, t.hi); });
}

void CapturedGraph::order_after_launch(std::uintptr_t stream) const {
  MarkBatch launched;  // one event marks the launch for every array it touched
  for_each_touch([&](const GraphTouch& t) { t.order->wrote({stream, device_}, t.lo, t.hi, false, &launched); });
}

void CapturedGraph::set_kernel_arguments(std::size_t k, const std::uint64_t* slots, std::size_t count,
                                         const unsigned grid[3], const unsigned block[3], unsigned shared,
                                         std::shared_ptr<void> owner, std::vector<GraphTouch> touched) {
  auto lock = support::lock_blocking(mutex_);  // a module load under it may run Python
  CUHOST_CHECK(k < kernels_.size()) << "captured kernel " << k << " of " << kernels_.size();
  CapturedKernel& target = kernels_[k];
  CUHOST_CHECK(count == target.slots.size()) << "slot count " << count << " for kernel '" << target.kernel->name << "'";
  if (backend_ == Backend::Cuda) {
    check_loaded();
    if (!target.node)
      throw UserError(ErrorKind::ValueError,
                      concat("the launch of kernel '", target.kernel->name,
                             "' was captured after work queued by other code on the stream, so its graph node is not "
                             "known and its arguments cannot be changed"));
    DeviceScope scope(device_);
    make_device_current(device_);
    std::vector<std::uint64_t> values(slots, slots + count);
    std::vector<void*> params(count);
    for (std::size_t i = 0; i < count; ++i) params[i] = &values[i];
    check_cluster_grid(*target.kernel, grid);
    cuda::KernelLaunch l;
    l.function = target.function;
    for (int d = 0; d < 3; ++d) {
      l.grid[d] = grid[d];
      l.block[d] = block[d];
      l.cluster[d] = target.kernel->cluster_dim[d];
    }
    l.shared_bytes = shared + unsigned(target.kernel->dynamic_shared_padding);  // as LoadedKernel::launch adds it
    l.params = params.data();
    l.kernel_name = &target.kernel->name;
    exec_->set_kernel_params(target.node, l);
  } else {
    cpu::CpuLaunch l = cpu_launch_of(*target.kernel, grid, block, shared, nullptr);
    cpu::validate_launch(l);
  }
  target.set_slots(slots, count);
  for (int d = 0; d < 3; ++d) {
    target.grid[d] = grid[d];
    target.block[d] = block[d];
  }
  target.shared = shared;
  target.owner = std::move(owner);
  target.touched = std::move(touched);
}

void CapturedGraph::update_from(const CapturedGraph& other) {
  if (&other == this) return;
  auto lock = support::lock_blocking(mutex_);  // a module load under it may run Python
  if (other.backend_ != backend_)
    throw UserError(ErrorKind::ValueError, "graph update: the graphs are of two backends");
  if (other.device_ != device_)
    throw UserError(ErrorKind::ValueError, concat("graph update: the graph belongs to device ", device_,
                                                  ", the new one to device ", other.device_));
  if (other.order_.size() != order_.size())
    throw UserError(ErrorKind::ValueError, concat("graph update: the graph has ", order_.size(),
                                                  " captured operations, the new one ", other.order_.size()));
  auto describe = [](const CapturedGraph& g, const Op& op) {
    if (op.kernel) return concat("a launch of kernel '", g.kernels_[op.index].kernel->name, "'");
    static const char* kinds[] = {"a host-to-device copy", "a device-to-host copy", "a device-to-device copy",
                                  "a memset"};
    return std::string(kinds[static_cast<int>(g.copies_[op.index].kind)]);
  };
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const Op& a = order_[i];
    const Op& b = other.order_[i];
    bool same = a.kernel == b.kernel && (a.kernel ? kernels_[a.index].kernel == other.kernels_[b.index].kernel
                                                  : copies_[a.index].kind == other.copies_[b.index].kind);
    if (!same)
      throw UserError(ErrorKind::ValueError, concat("graph update: operation ", i, " is ", describe(*this, a),
                                                    " in the graph and ", describe(other, b), " in the new one"));
  }
  if (backend_ == Backend::Cuda) {
    check_loaded();
    DeviceScope scope(device_);
    make_device_current(device_);
    std::string why;
    if (!exec_->update(*other.graph_, &why))
      throw UserError(ErrorKind::ValueError,
                      concat("graph update: the driver refused it (cuGraphExecUpdate: ", why, ")"));
  }
  for (std::size_t i = 0; i < kernels_.size(); ++i) {
    CapturedKernel& mine = kernels_[i];
    const CapturedKernel& theirs = other.kernels_[i];
    mine.set_slots(theirs.slots.data(), theirs.slots.size());
    std::memcpy(mine.grid, theirs.grid, sizeof mine.grid);
    std::memcpy(mine.block, theirs.block, sizeof mine.block);
    mine.shared = theirs.shared;
    mine.owner = theirs.owner;
    mine.origin = theirs.origin;
    mine.touched = theirs.touched;
  }
  copies_ = other.copies_;
  copy_touches_ = other.copy_touches_;
}

}  // namespace cuhost::runtime
