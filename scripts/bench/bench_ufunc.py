# Universal functions (issue 15): a @vectorize saxpy and a cuda.reduce sum at
# 2^26 float32 elements on device arrays, timed with CUDA events (device time:
# 10 back-to-back calls per sample; and one call per sample), and the
# host cost of one small ufunc call against a plain kernel launch doing the
# same work. The same script runs under numba-cuda (python3); where CuPy is
# present its cupy.ElementwiseKernel and cupy.sum give rows of system "cupy";
# raw/ufunc.cu (nvcc -O3) prints the nvcc rows. On the CPU backend the sizes
# are small (a smoke run).
from _harness import bench, np
from numba import cuda, float32

GPU = bench.backend_name() == "cuda"
rng = np.random.default_rng(0)
n = (1 << 26) if GPU else (1 << 16)
small = 1024


@cuda.vectorize([float32(float32, float32, float32)])
def saxpy_ufunc(a, x, y):
    return a * x + y


@cuda.jit
def saxpy_kernel(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


sum_reduce = cuda.reduce(lambda a, b: a + b)

hx = rng.random(n, dtype=np.float32)
x = cuda.to_device(hx)
y = cuda.to_device(rng.random(n, dtype=np.float32))
out = cuda.device_array(n, np.float32)
res = cuda.device_array(1, np.float32)
a = np.float32(2.0)

saxpy_ufunc(a, x, y, out=out)
sum_reduce(x, res=res)
if bench.kernels_run():  # not under the null driver (host-cost runs)
    np.testing.assert_allclose(out.copy_to_host()[:1000], 2 * hx[:1000] + y.copy_to_host()[:1000], rtol=1e-6)
    assert abs(res.copy_to_host()[0] - hx.astype(np.float64).sum()) <= 1e-4 * n

# Device time per call: each sample is 10 back-to-back calls (the host work
# of a call overlaps the previous call's kernels), as raw/ufunc.cu times its
# launches; the _single rows time one call each (host work included).
bench.report(bench.measure(lambda: saxpy_ufunc(a, x, y, out=out), "ufunc_saxpy", repeats=20, bytes=12 * n,
                           calls=10))
bench.report(bench.measure(lambda: sum_reduce(x, res=res), "ufunc_reduce_sum", repeats=20, bytes=4 * n, calls=10))
bench.report(bench.measure(lambda: sum_reduce(x, res=res), "ufunc_reduce_sum_single", repeats=20, bytes=4 * n))

# Host cost per call on small inputs: the ufunc (type resolution, broadcast
# checks, launch configuration, launch) against launching a kernel directly.
sx, sy, so = x[:small], y[:small], out[:small]
calls = 20000 if GPU else 2000
bench.report(bench.per_call(lambda: saxpy_ufunc(a, sx, sy, out=so), "ufunc_call_small", calls=calls))
bench.report(bench.per_call(lambda: saxpy_kernel[(small + 255) // 256, 256](a, sx, sy, so), "ufunc_plain_launch_small",
                            calls=calls))

try:
    import cupy as cp
except ImportError:
    cp = None
if cp is not None and GPU:
    cx = cp.asarray(hx)
    cy = cp.asarray(y.copy_to_host())
    co = cp.empty_like(cx)
    ek = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy_ek")
    for name, fn, kw in (("ufunc_saxpy", lambda: ek(a, cx, cy, co), {"bytes": 12 * n, "calls": 10}),
                         ("ufunc_reduce_sum", lambda: cp.sum(cx), {"bytes": 4 * n, "calls": 10}),
                         ("ufunc_reduce_sum_single", lambda: cp.sum(cx), {"bytes": 4 * n})):
        r = bench.measure(fn, name, repeats=20, **kw)
        r["system"] = "cupy"
        bench.report(r)
    sa, sb, sc = cx[:small], cy[:small], co[:small]
    r = bench.per_call(lambda: ek(a, sa, sb, sc), "ufunc_call_small", calls=calls)
    r["system"] = "cupy"
    bench.report(r)
