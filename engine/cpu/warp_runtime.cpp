// 32-lane warp operations on fibers. Every operation is a rendezvous: the
// calling lane deposits its operand in its slot and waits until every lane of
// its mask that is present in the block and has not returned is waiting at a
// warp operation too; the lane that completes the group computes every
// member's result (so no slot is read after its owner moved on) and makes
// them runnable. Shuffle source lanes follow PTX shfl.sync: a source outside
// the segment of `width` lanes (or not taking part) yields the caller's own
// value. Lanes waiting at activemask never join another operation's group.
#include <algorithm>

#include "cpu/block_state.h"

namespace cuhost::cpu {

namespace {

int shfl_source(int lane, std::int32_t param, std::int32_t width, std::int32_t mode) {
  int w = 32;
  if (width >= 1 && width <= 32) {
    w = 1;
    while (w * 2 <= width) w *= 2;
  }
  int min_lane = lane & ~(w - 1);
  int max_lane = min_lane + w - 1;
  long src = lane;
  switch (mode) {
    case 0: src = min_lane + (param & (w - 1)); break;
    case 1:
      src = static_cast<long>(lane) - param;
      if (src < min_lane) src = lane;
      break;
    case 2:
      src = static_cast<long>(lane) + param;
      if (src > max_lane) src = lane;
      break;
    case 3:
      src = lane ^ param;
      if (src > max_lane || src < 0) src = lane;
      break;
    default: break;
  }
  if (src < 0 || src > 31) src = lane;
  return static_cast<int>(src);
}

}  // namespace

std::uint32_t BlockState::active_mask(int t, std::int32_t site) {
  if (!fiber_mode_) return 1u << (t % 32);
  return static_cast<std::uint32_t>(warp(t, WarpOp::ActiveMask, 0, 0, site, 32, 0));
}

// activemask: the lanes that reach it together. A lane waits there until
// every lane of its warp that has not returned waits somewhere (a barrier or
// a warp operation); the lanes then waiting at the same activemask call form
// its mask. Lanes that diverged into different branches wait at different
// calls, so each branch sees only its own lanes, as on a GPU.
bool BlockState::try_complete_activemask(int w) {
  const std::uint32_t group = warp_am_[w];
  if (group == 0) return false;
  const int base = w * 32;
  for (std::uint32_t m = lanes_present(w) & ~warp_done_[w]; m; m &= m - 1) {
    FiberState s = state_[base + __builtin_ctz(m)];
    if (s != FiberState::AtWarp && s != FiberState::AtBarrier) return false;
  }
  for (std::uint32_t m = group; m; m &= m - 1) {
    int j = base + __builtin_ctz(m);
    std::uint32_t same_site = 0;
    for (std::uint32_t k = group; k; k &= k - 1) {
      int lane = __builtin_ctz(k);
      if (lanes_[base + lane].param == lanes_[j].param) same_site |= 1u << lane;
    }
    lanes_[j].result = same_site;
    state_[j] = FiberState::Runnable;
  }
  warp_am_[w] = 0;
  return true;
}

bool BlockState::try_complete_warp(int t) {
  const int w = t / 32;
  const int base = w * 32;
  const std::uint32_t own = 1u << (t % 32);
  const std::uint32_t group = (lanes_[t].mask | own) & lanes_present(w) & ~warp_done_[w];
  // warp_wait_ holds exactly the lanes waiting at a (non-activemask) warp
  // operation, so the group is complete when it is a subset: O(1) per arrival.
  if ((group & ~warp_wait_[w]) != 0) return false;
  std::uint32_t ballot = 0;
  for (std::uint32_t m = group; m; m &= m - 1) {
    int j = __builtin_ctz(m);
    if (static_cast<std::uint32_t>(lanes_[base + j].value) != 0) ballot |= 1u << j;
  }
  for (std::uint32_t m = group; m; m &= m - 1) {
    int j = __builtin_ctz(m);
    LaneSlot& s = lanes_[base + j];
    switch (s.op) {
      case WarpOp::Syncwarp:
      case WarpOp::ActiveMask: s.result = 0; break;
      case WarpOp::Vote:
        switch (s.mode) {
          case 0: s.result = ballot == group; break;
          case 1: s.result = ballot != 0; break;
          case 2: s.result = ballot == 0 || ballot == group; break;
          default: s.result = ballot; break;
        }
        break;
      case WarpOp::Shfl: {
        int src = shfl_source(j, s.param, s.width, s.mode);
        s.result = (group >> src) & 1u ? lanes_[base + src].value : s.value;
        break;
      }
    }
    state_[base + j] = FiberState::Runnable;
  }
  warp_wait_[w] &= ~group;
  return true;
}

std::uint64_t BlockState::warp_without_fibers(std::uint64_t value) {
  launch_->record(
      ErrorKind::KernelError,
      concat("kernel '", launch_->launch().kernel_name,
             "' uses a warp operation but was launched without warp support (internal: needs_fibers is false)"));
  return value;
}

}  // namespace cuhost::cpu
