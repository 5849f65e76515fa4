// Foreign functions that fault on purpose (tests/scripts/ffi/faults_cpu.py):
// __trap() past a threshold, and an assert() on the argument.
#include <assert.h>

extern "C" __device__ int trap_above(int* ret, int x, int limit) {
  if (x > limit) __trap();
  *ret = x + 1;
  return 0;
}

extern "C" __device__ int checked_double(int* ret, int x) {
  assert(x < 40 && "x must stay below 40");
  *ret = 2 * x;
  return 0;
}
