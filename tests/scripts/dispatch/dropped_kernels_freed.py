# A kernel nothing refers to any more is freed by the cycle collector, as
# numba-cuda's are: a kernel made in a function and launched (its last
# launcher holds it back), one exec'd into a namespace (its function's
# globals hold it), one whose pre-launch callback holds its launcher. Kernels
# made again after others were freed (new objects, perhaps at freed
# addresses) and the kernels kept give right results.
# stdout: dropped kernels freed ok
import gc
import weakref

import numpy as np
from numba import cuda

rng = np.random.default_rng(23)
x = rng.standard_normal(300)
d_x = cuda.to_device(x)


def made_and_launched(c):
    @cuda.jit(device=True)
    def scale(v):
        return v * c

    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scale(x[i]) + c

    out = cuda.device_array_like(d_x)
    k[(x.size + 63) // 64, 64](out, d_x)
    # rtol: on the GPU `x * c + c` is one fused multiply-add (one rounding), in NumPy two.
    np.testing.assert_allclose(out.copy_to_host(), x * c + c, rtol=1e-13)
    return weakref.ref(k), weakref.ref(scale)


refs = [made_and_launched(float(c)) for c in rng.integers(-50, 50, 6)]
gc.collect()
alive = [i for i, (k, dev) in enumerate(refs) if k() is not None or dev() is not None]
assert not alive, "kernels made in a function and launched are still alive after gc.collect(): %s" % alive

SOURCE = """
@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] - {c}
"""
exec_refs = []
for c in range(4):
    ns = {"cuda": cuda}
    exec(SOURCE.format(c=c), ns)
    out = cuda.device_array_like(d_x)
    ns["k"][4, 128](out, d_x)
    np.testing.assert_array_equal(out.copy_to_host(), x - c)
    exec_refs.append(weakref.ref(ns["k"]))
    del ns
gc.collect()
assert all(r() is None for r in exec_refs), "exec'd kernels are still alive after gc.collect()"


def with_callback():
    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = 3 * x[i]

    launcher = k[4, 128]
    seen = []
    launcher.pre_launch_callbacks.append(lambda kernel, cfg: seen.append(cfg is launcher))
    out = cuda.device_array_like(d_x)
    launcher(out, d_x)
    assert seen == [True], seen
    np.testing.assert_array_equal(out.copy_to_host(), 3 * x)
    return weakref.ref(k)


callback_ref = with_callback()
gc.collect()
assert callback_ref() is None, "a kernel whose pre-launch callback holds its launcher is still alive"


# A launcher alone keeps its kernel: launched after a collection it still
# gives its result.
def launcher_only():
    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * x[i]

    return k[4, 128]


launcher = launcher_only()
gc.collect()
out = cuda.device_array_like(d_x)
launcher(out, d_x)
np.testing.assert_array_equal(out.copy_to_host(), x * x)

# Made again, many times, after the others were freed.
for c in rng.integers(-1000, 1000, 20):
    made_and_launched(float(c))
    gc.collect()
print("dropped kernels freed ok")
