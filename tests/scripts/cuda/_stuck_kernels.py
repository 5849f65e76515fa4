"""Kernels that never end on their own, shared by deadline_gpu.py (stopped
under --kernel-timeout), deadline_gpu_per_launch.py (stopped under a
launch's deadline), ../cpu/kernel_timeout.py (the CPU backend's
--kernel-timeout) and ../cpu/kernel_deadline_per_launch.py (a launch's
deadline on the CPU): a plain loop, a spin on a flag nobody sets, spins
around a block barrier and around a warp shuffle, a spin in a device
function, a loop of grid syncs, blocks stuck at a grid sync for a
block that never arrives, and a counted loop of 2**62 iterations; and a
kernel of grid syncs that ends, for right results with and without
cancellation points."""
from numba import cuda

@cuda.jit
def spin(out, n):
    i = cuda.grid(1)
    k = 0
    while k >= 0:
        k = (k + n) % 1000
    out[i] = k


@cuda.jit
def wait_for_flag(out, flag):
    i = cuda.grid(1)
    while flag[0] == 0:
        pass
    out[i] = 1


@cuda.jit
def spin_barrier(out):
    i = cuda.threadIdx.x
    while True:
        cuda.syncthreads()
        out[i] += 1


@cuda.jit
def spin_warp(out):
    i = cuda.threadIdx.x
    v = 0
    while v >= 0:
        v = cuda.shfl_sync(0xffffffff, v, 0) + 0 * i
    out[i] = v


@cuda.jit(device=True)
def forever(n):
    k = n
    while k != -1:
        k = (k * 3 + 1) % 1024
    return k


@cuda.jit
def spin_in_device_function(out):
    out[cuda.grid(1)] = forever(3)


@cuda.jit
def spin_grid(out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    while out[0] >= 0:
        g.sync()
        if i == 0:
            out[1] += 1


@cuda.jit
def stuck_at_grid_sync(out):
    g = cuda.cg.this_grid()
    if cuda.blockIdx.x == 0:  # block 0 never reaches the sync; the others wait for it there
        while out[0] >= 0:
            out[3] += 1
    g.sync()
    out[2] = 7


@cuda.jit
def long_count(out, n):  # a counted loop of 2**62 iterations: its chunks' ends check the flag
    i = cuda.grid(1)
    acc = 0
    for k in range(n):
        acc = (acc * 3 + k) % 1000003
    out[i] = acc


@cuda.jit
def grid_sum(out, x, partial):  # grid syncs that end: right results in both variants
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    for _ in range(3):
        if cuda.threadIdx.x == 0:
            s = 0.0
            for k in range(cuda.blockIdx.x * cuda.blockDim.x, (cuda.blockIdx.x + 1) * cuda.blockDim.x):
                s += x[k]
            partial[cuda.blockIdx.x] = s
        g.sync()
        if i == 0:
            t = 0.0
            for b in range(cuda.gridDim.x):
                t += partial[b]
            out[0] += t
        g.sync()
