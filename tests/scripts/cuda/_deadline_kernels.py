"""Kernels shared by deadline_ptx.py (compiled under --kernel-timeout) and
deadline_ptx_off.py (without): the PTX of each, and a run checked against
NumPy so a kernel with cancellation points still computes the right thing."""
import numpy as np
from numba import cuda
from numba.cuda import float32, float64, int32

FLAG_LOAD = "ld.volatile.global.u32"  # the read of the flag word (relaxed, system scope)
FLAG_SYMBOL = "cuhost_gpu_cancel_flag"  # the module global holding the flag's address


@cuda.jit
def row_sums(out, a):  # a loop nest whose trip counts come from the arguments: two points
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                acc += a[i, j, k]
        out[i] = acc


@cuda.jit
def fixed_taps(out, x):  # only a 4-iteration loop (unrolled, or never reaching a check): no point
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for t in range(4):
            acc += x[(i + t) % x.size] * (t + 1)
        out[i] = acc


@cuda.jit
def peak(out, x):  # a float max: cuhost's compare-and-swap loop, one point
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(out, 0, x[i])


@cuda.jit(device=True)
def wait_for(flag, limit):  # a device function's spin loop
    n = 0
    while flag[0] == 0 and n < limit:
        n += 1
    return n


def ptx(fn, sig, device=False):
    text, _ = cuda.compile_ptx(fn, sig, device=device)
    return text


def ptx_texts():
    return {
        "row_sums": ptx(row_sums, (float64[::1], float64[:, :, ::1])),
        "fixed_taps": ptx(fixed_taps, (float32[::1], float32[::1])),
        "wait_for": ptx(wait_for, (int32[::1], int32), device=True),
        "peak": ptx(peak, (float64[::1], float64[::1])),
    }


def check_results():
    rng = np.random.default_rng(20261128)
    a = rng.standard_normal((300, 7, 33))
    out = np.zeros(300)
    row_sums[(300 + 127) // 128, 128](out, a)
    np.testing.assert_allclose(out, a.sum(axis=(1, 2)), rtol=1e-12, atol=1e-12)
    x = rng.standard_normal(1000).astype(np.float32)
    y = np.zeros(1000, np.float32)
    fixed_taps[8, 128](y, x)
    expect = sum(np.roll(x, -t) * (t + 1) for t in range(4))
    np.testing.assert_allclose(y, expect, rtol=1e-5, atol=1e-5)
    z = rng.standard_normal(5000)
    top = np.full(1, -np.inf)
    peak[(z.size + 255) // 256, 256](top, z)
    assert top[0] == z.max(), (top[0], z.max())
