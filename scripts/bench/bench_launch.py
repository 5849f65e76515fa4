# P1/P3: host-side launch cost from a script: kernels with 0, 1, 4 and 16
# arguments on device arrays, the 4-argument kernel with host NumPy arrays
# (4 KB each, copied in and back), with objects that expose only
# __cuda_array_interface__ (as CuPy and PyTorch arrays do), and with CuPy
# arrays when CuPy is present.
from _harness import bench, np
from numba import cuda

CALLS = 20000


@cuda.jit
def k0():
    pass


@cuda.jit
def k1(a):
    pass


@cuda.jit
def k4(s, x, y, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = s * x[i] + y[i]


@cuda.jit
def k16(a0, a1, a2, a3, a4, a5, a6, a7, s0, s1, s2, s3, s4, s5, s6, s7):
    i = cuda.grid(1)
    if i < a0.size:
        a0[i] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7


n = 1024
x = cuda.to_device(np.random.default_rng(0).random(n, dtype=np.float32))
y = cuda.to_device(np.random.default_rng(1).random(n, dtype=np.float32))
o = cuda.device_array(n, np.float32)
arrs = [cuda.device_array(n, np.float32) for _ in range(8)]
a = np.float32(2.0)
calls = CALLS if bench.backend_name() == "cuda" else 2000

bench.report(bench.per_call(lambda: k0[1, 32](), "launch_0args", calls=calls))
bench.report(bench.per_call(lambda: k1[1, 32](o), "launch_1arg_device", calls=calls))
bench.report(bench.per_call(lambda: k4[4, 256](a, x, y, o), "launch_4args_device", calls=calls))
bench.report(bench.per_call(lambda: k16[4, 256](*arrs, 1.0, 2.0, 3.0, 4.0, 5, 6, 7, 8), "launch_16args_device",
                            calls=calls))
hx = np.random.default_rng(2).random(n, dtype=np.float32)
hy = np.random.default_rng(3).random(n, dtype=np.float32)
ho = np.zeros(n, np.float32)
bench.report(bench.per_call(lambda: k4[4, 256](a, hx, hy, ho), "launch_4args_host_numpy_4KB", calls=calls // 10,
                            warmup=100))
if bench.kernels_run():
    np.testing.assert_allclose(ho, 2 * hx + hy, rtol=1e-6)


class CaiArray:
    """What CuPy and PyTorch arrays show a kernel: only __cuda_array_interface__
    (v3, with a stream entry). Used where CuPy cannot be imported (cuhost's
    Python 3.11 on the GPU machine has no CuPy build)."""

    def __init__(self, dev):
        self.__cuda_array_interface__ = dict(dev.__cuda_array_interface__)
        self._owner = dev


cx, cy, co = CaiArray(x), CaiArray(y), CaiArray(o)
bench.report(bench.per_call(lambda: k4[4, 256](a, cx, cy, co), "launch_4args_cai_object", calls=calls))
try:
    import cupy as cp
    cx, cy, co = cp.asarray(hx), cp.asarray(hy), cp.zeros(n, cp.float32)
    bench.report(bench.per_call(lambda: k4[4, 256](a, cx, cy, co), "launch_4args_cupy", calls=calls))
except ImportError:
    pass
