# NRT allocation statistics (rtsys) of kernels that allocate (docs/NRT.md):
# counts equal numba's (one alloc and one free per array, a slice is no
# allocation, a returned array is freed by the caller), counting only while
# enabled, the per-thread arrays of a grid, and debug=True's shared slots.
# stdout: allocation counts ok
import numpy as np
from numba import cuda
from numba.cuda import config
from numba.cuda.memory_management import rtsys

config.CUDA_ENABLE_NRT = True
rng = np.random.default_rng(5)


def delta(kernel, config_, *args):
    before = rtsys.get_allocation_stats()
    kernel[config_](*args)
    after = rtsys.get_allocation_stats()
    return tuple(a - b for a, b in zip(after, before))


rtsys.memsys_enable_stats()
assert rtsys.memsys_stats_enabled()

n = int(rng.integers(3, 20))


@cuda.jit
def loop_alloc(n):
    for i in range(n):
        t = np.empty(2)  # noqa: F841


assert delta(loop_alloc, (1, 1), n) == (n, n, n, n)


@cuda.jit
def sliced(n, out):
    x = np.zeros((n, 2))
    for i in range(n):
        y = x[i]
        y[0] = i
    for i in range(n):
        y = x[i]
        out[i] = y[0]


out = np.zeros(n)
assert delta(sliced, (1, 1), n, out) == (1, 1, 1, 1)
assert np.array_equal(out, np.arange(n))


@cuda.jit(device=True)
def fresh(k):
    return np.arange(k)


@cuda.jit
def calls(n, out):
    for i in range(n):
        out[i] = fresh(i + 1)[i]


out = np.zeros(n, np.int64)
assert delta(calls, (1, 1), n, out) == (n, n, n, n)
assert np.array_equal(out, np.arange(n))


@cuda.jit
def per_thread(out):
    i = cuda.grid(1)
    if i < out.size:
        a = np.ones(3)
        b = np.empty_like(a)
        b[0] = a[0] + i
        out[i] = b[0]


threads = 24
out = np.zeros(threads)
assert delta(per_thread, (3, 8), out) == (2 * threads,) * 4
assert np.array_equal(out, np.arange(threads) + 1.0)


@cuda.jit
def discarded(a, flag):
    t = np.empty_like(a)
    for i in range(t.shape[0]):
        pass
    if flag:
        np.empty_like(a)


assert delta(discarded, (1, 1), np.zeros(4), False) == (1, 1, 1, 1)
assert delta(discarded, (1, 1), np.zeros(4), True) == (2, 2, 2, 2)



# Arrays that live across barriers (the CPU backend splits such kernels at
# each barrier): every thread's two arrays are freed once.
@cuda.jit
def across_barriers(out):
    sh = cuda.shared.array(64, np.float64)
    i = cuda.threadIdx.x
    t = np.arange(4)
    sh[i] = t[3] + i
    cuda.syncthreads()
    u = np.zeros(2)
    u[0] = sh[(i + 1) % cuda.blockDim.x]
    cuda.syncthreads()
    out[cuda.grid(1)] = u[0] + t[1]


out = np.zeros(128)
assert delta(across_barriers, (2, 64), out) == (256,) * 4
assert np.array_equal(out, [(i % 64 + 1) % 64 + 4 for i in range(128)])


# a.copy() of a strided view of any shape: one heap array, NumPy's elements.
@cuda.jit
def copies(a, out):
    c = a[:, 1:].copy()
    a[0, 1] = -1.0
    for i in range(c.shape[0]):
        for j in range(c.shape[1]):
            out[i, j] = c[i, j]


a = rng.standard_normal((int(rng.integers(2, 6)), 4))
want = a[:, 1:].copy()
out = np.zeros(want.shape)
assert delta(copies, (1, 1), a, out) == (1, 1, 1, 1)
assert np.array_equal(out, want)


# debug=True: the versions of a variable share one slot (arrays of other
# dtypes and other types too); counts stay numba's where the versions are
# arrays of one rank.
@cuda.jit(debug=True, opt=False)
def versions(n, out):
    x = np.arange(n)
    out[0] = x[n - 1]
    x = np.zeros(n)
    out[1] = x[0] + 1
    y = np.ones(2)
    out[2] = y[1]
    y = 5
    out[3] = y


out = np.zeros(4)
d = delta(versions, (1, 1), n, out)
assert np.array_equal(out, [n - 1, 1, 1, 5]), out
assert d == (3, 2, 3, 2), d  # y's array is not released once y holds an int: a leak, never a bad free

# Switched off, launches do not move the counters.
before = rtsys.get_allocation_stats()
rtsys.memsys_disable_stats()
loop_alloc[1, 1](5)
try:
    rtsys.get_allocation_stats()
except RuntimeError as e:
    assert "NRT stats are disabled." in str(e)
else:
    raise AssertionError("stats read while disabled")
rtsys.memsys_enable_stats()
assert rtsys.get_allocation_stats() == before
loop_alloc[1, 1](5)
after = rtsys.get_allocation_stats()
assert after.alloc - before.alloc == 5 and after.free - before.free == 5
rtsys.memsys_disable_stats()
print("allocation counts ok")
