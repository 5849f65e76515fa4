# backends: cuda
# stdout: fault reported
# A kernel that writes through a bad pointer: the fault surfaces at the next
# synchronization as cuda.KernelError naming the kernel and the driver error,
# and the host then exits cleanly (no hang, no abort) with the script's code.
# sanitizer-expects: Invalid __global__ write
# sanitizer-expects: CUDA_ERROR_LAUNCH_FAILED
import sys

from numba import cuda


@cuda.jit("void(CPointer(float32), int64)")
def poke(p, n):
    p[n] = 1.0


try:
    poke[1, 1](0x10, 0)
    cuda.synchronize()
except cuda.KernelError as e:
    msg = str(e)
    assert "kernel '" in msg and "poke" in msg, msg
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in msg or "CUDA_ERROR_LAUNCH_FAILED" in msg, msg
    print("fault reported:", msg.splitlines()[0])
else:
    raise AssertionError("no KernelError")
sys.exit(0)
