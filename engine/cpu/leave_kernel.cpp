// Leaving a kernel early (see leave_kernel.h).
#include "cpu/leave_kernel.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>

#include "cpu/block_state.h"

namespace cuhost::cpu {

namespace {
struct LeavePoint {
  sigjmp_buf env;
};
thread_local LeavePoint* t_leave_point = nullptr;
}  // namespace

bool run_leavable(void (*body)(void*), void* arg) {
  LeavePoint point;
  LeavePoint* const outer = t_leave_point;
  t_leave_point = &point;
  if (sigsetjmp(point.env, 0) != 0) {  // the signal mask is left alone: nothing here changes it
    t_leave_point = outer;
    return false;
  }
  body(arg);
  t_leave_point = outer;
  return true;
}

void leave_kernel() {
  BlockState* block = current_block;
  if (block && block->fiber_mode()) block->abandon_running_fiber();
  if (t_leave_point) siglongjmp(t_leave_point->env, 1);
  // Generated code runs only inside the launcher, which provides one of the two.
  std::fprintf(stderr, "cuhost: internal error: a kernel left early outside a CPU launch\n");
  std::abort();
}

}  // namespace cuhost::cpu
