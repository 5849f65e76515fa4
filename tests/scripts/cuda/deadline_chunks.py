# --kernel-timeout: counted loops get chunks instead of a countdown
# (engine/codegen/nvptx_chunked_loops.cpp). A loop whose exit test compares
# an induction variable with a loop-invariant bound tests the end of its
# current chunk of 1024 iterations instead: the iterations run the
# instructions they ran without the option, and at each chunk's end one
# block makes the loop's own test, reads the flag and computes the next end.
# The PTX of such loops has no countdown; every shape of counted loop (up
# and down, steps from 1 to larger than a chunk, unrolled, a `while i != n`)
# gives the loop's exact iterations around the chunk boundaries (the GPU
# runs the chunked code; the CPU backend checks the same kernels). Each of
# these kernels' loops is also short enough to be versioned
# (nvptx_short_loops.cpp): runs of up to 1.2-3.8 x 10^5 iterations (by the
# body) take a copy with no
# point, so the counts of 600,001 and 1,048,577 iterations below
# check the chunked copy's results on the GPU.
# cuhost-args: --kernel-timeout 30
# stdout: deadline chunks ok
import re

import numpy as np
from numba import cuda
from numba.cuda import float64, int64

from _deadline_kernels import FLAG_LOAD


def counting_up(step):
    @cuda.jit
    def up(out, ns):
        t = cuda.grid(1)
        if t < out.size:
            acc = 0
            for i in range(3, ns[t], step):
                acc = (acc * 3 + i) % 1000003
            out[t] = acc

    return up


def counting_down(step):
    @cuda.jit
    def down(out, ns):
        t = cuda.grid(1)
        if t < out.size:
            acc = 0
            for i in range(ns[t], -5, -step):
                acc = (acc * 5 + i) % 999983
            out[t] = acc

    return down


@cuda.jit
def strided(out, ns, steps):  # a step known only to be positive (a grid-stride loop's kind)
    t = cuda.grid(1)
    if t < out.size:
        acc = 0
        for i in range(3, ns[t], max(steps[t], 1)):
            acc = (acc * 3 + i) % 1000003
        out[t] = acc


@cuda.jit
def until_equal(out, ns):
    t = cuda.grid(1)
    if t < out.size:
        i = 0
        acc = 0
        while i != ns[t]:
            acc = (acc * 7 + (i ^ 0x55)) % 1000033
            i += 1
        out[t] = acc


@cuda.jit
def row_total(out, x, ns):  # unrolled by LLVM: the test steps by the unroll factor
    t = cuda.grid(1)
    if t < out.size:
        acc = 0.0
        for k in range(ns[t]):
            acc += x[t, k]
        out[t] = acc


def counted_ptx(fn, sig):
    text, _ = cuda.compile_ptx(fn, sig)
    # One flag read per chunked loop, and no countdown (a 32-bit counter
    # set to 1024 and decremented every iteration).
    assert FLAG_LOAD in text, text
    assert not re.search(r"mov\.b32\s+%r\d+, 1024;", text), text
    return text


def fold(values, factor, modulus):  # the loops' recurrence (not summed in closed form by LLVM)
    acc = 0
    for v in values:
        acc = (acc * factor + v) % modulus
    return acc


STEPS = (1, 2, 3, 7, 8, 1000, 1023, 1024, 1025, 5000)
ups = {step: counting_up(step) for step in STEPS}
downs = {step: counting_down(step) for step in STEPS}
for step in STEPS:
    counted_ptx(ups[step], (int64[::1], int64[::1]))
    counted_ptx(downs[step], (int64[::1], int64[::1]))
counted_ptx(strided, (int64[::1], int64[::1], int64[::1]))
counted_ptx(until_equal, (int64[::1], int64[::1]))
counted_ptx(row_total, (float64[::1], float64[:, ::1], int64[::1]))

rng = np.random.default_rng(20261129)
edges = [0, 1, 2, 3, 4, 1023, 1024, 1025, 1026, 1027, 2047, 2048, 2049, 2050, 3075, 4099, 5000]
ns = np.array(edges + list(rng.integers(0, 6000, 47)), np.int64)
out = np.zeros(ns.size, np.int64)
for step in STEPS:
    ups[step][1, 64](out, ns)
    np.testing.assert_array_equal(out, [fold(range(3, n, step), 3, 1000003) for n in ns], err_msg=f"up {step}")
    downs[step][1, 64](out, ns)
    np.testing.assert_array_equal(out, [fold(range(n, -5, -step), 5, 999983) for n in ns], err_msg=f"down {step}")

# Beyond the short copy's bound: the chunked loop's iterations on the GPU.
longs = np.array([262_145, 600_001, 1_048_577, 7, 1025], np.int64)
long_out = np.zeros(longs.size, np.int64)
ups[1][1, 32](long_out, longs)
np.testing.assert_array_equal(long_out, [fold(range(3, n), 3, 1000003) for n in longs], err_msg="up 1, long")
downs[3][1, 32](long_out, longs)
np.testing.assert_array_equal(long_out, [fold(range(n, -5, -3), 5, 999983) for n in longs], err_msg="down 3, long")

steps = rng.choice(np.array(STEPS + (0, -3), np.int64), ns.size)
strided[1, 64](out, ns, steps)
np.testing.assert_array_equal(out, [fold(range(3, n, max(s, 1)), 3, 1000003) for n, s in zip(ns, steps)])

until_equal[1, 64](out, ns)
np.testing.assert_array_equal(out, [fold((i ^ 0x55 for i in range(n)), 7, 1000033) for n in ns])

x = rng.standard_normal((ns.size, 6000))
totals = np.zeros(ns.size)
row_total[1, 64](totals, x, ns)
expect = np.array([x[t, :n].sum() for t, n in enumerate(ns)])
np.testing.assert_allclose(totals, expect, rtol=1e-12, atol=1e-9)
print("deadline chunks ok")
