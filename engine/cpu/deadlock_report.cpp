// Builds the KernelError for a block in which no thread can make progress:
// names the kernel and block, and which threads wait at syncthreads and
// which at which warp operation (with its mask), a few of each.
#include <algorithm>
#include <sstream>

#include "cpu/block_state.h"

namespace cuhost::cpu {

namespace {

const char* warp_op_name(WarpOp op, std::int32_t mode) {
  switch (op) {
    case WarpOp::Syncwarp: return "syncwarp";
    case WarpOp::ActiveMask: return "activemask";
    case WarpOp::Vote:
      switch (mode) {
        case 0: return "all_sync";
        case 1: return "any_sync";
        case 2: return "eq_sync";
        default: return "ballot_sync";
      }
    case WarpOp::Shfl:
      switch (mode) {
        case 0: return "shfl_sync";
        case 1: return "shfl_up_sync";
        case 2: return "shfl_down_sync";
        default: return "shfl_xor_sync";
      }
  }
  return "warp operation";
}

const char* barrier_name(std::int32_t kind) {
  switch (kind) {
    case 1: return "syncthreads_count";
    case 2: return "syncthreads_and";
    case 3: return "syncthreads_or";
    default: return "syncthreads";
  }
}

}  // namespace

void BlockState::report_deadlock() {
  constexpr int kShown = 6;
  // Groups: one per distinct wait site description, in thread order.
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (int t = 0; t < nthreads_; ++t) {
    std::string what;
    if (state_[t] == FiberState::AtBarrier) {
      what = concat("wait at ", barrier_name(barrier_kind_[t]));
    } else if (state_[t] == FiberState::AtWarp) {
      std::ostringstream mask;
      mask << "0x" << std::hex << lanes_[t].mask;
      what = concat("wait at ", warp_op_name(lanes_[t].op, lanes_[t].mode), " with mask ", mask.str());
    } else {
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == what; });
    if (it == groups.end()) {
      groups.emplace_back(what, std::vector<int>{});
      it = groups.end() - 1;
    }
    it->second.push_back(t);
  }
  std::ostringstream out;
  const CuhostThreadCtx& c0 = ctxs_[0];
  out << "deadlock in kernel '" << launch_->launch().kernel_name << "', block (" << c0.bid[0] << "," << c0.bid[1] << ","
      << c0.bid[2] << "): ";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g > 0) out << " while ";
    const auto& threads = groups[g].second;
    out << (threads.size() == 1 ? "thread " : "threads ");
    for (std::size_t i = 0; i < threads.size() && i < kShown; ++i) {
      const CuhostThreadCtx& c = ctxs_[threads[i]];
      out << (i ? ", " : "") << "(" << c.tid[0] << "," << c.tid[1] << "," << c.tid[2] << ")";
    }
    if (threads.size() > kShown) out << " and " << threads.size() - kShown << " more";
    out << " " << groups[g].first;
  }
  out << "; no thread can make progress (threads that returned count as arrived at barriers; a warp operation "
         "waits for every lane of its mask that has not returned)";
  launch_->record(ErrorKind::KernelError, out.str());
}

}  // namespace cuhost::cpu
