# The CUDA backend's host side when kernels are freed, run through the null
# driver (nothing runs on a device, so no result is checked): kernels made
# in a function or exec'd, compiled for sm_90, linked, loaded and launched
# (synchronously and on a stream, with host arrays staged), are freed by the
# collector once dropped; their loaded modules stay with the module cache,
# and kernels made afterwards (perhaps at freed addresses) compile, load and
# launch, as does a kept kernel, and cuda.close() ends it all cleanly.
# stdout: null driver dropped kernels ok
import gc
import weakref

import numpy as np
from numba import cuda

assert cuda.backend() == "cuda", cuda.backend()
assert cuda.get_current_device().name == "cuhost null driver"
rng = np.random.default_rng(29)
x = cuda.to_device(rng.random(256))
host = rng.random(256)


def made_and_launched(c):
    @cuda.jit(device=True)
    def scale(v):
        return v * c

    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scale(x[i]) + c

    out = cuda.device_array_like(x)
    k[2, 128](out, x)
    stream = cuda.stream()
    k[2, 128, stream](out, x)
    staged = host.copy()
    k[2, 128](staged, x)
    np.testing.assert_array_equal(staged, host)  # the staged copy comes back unchanged
    stream.synchronize()
    return weakref.ref(k)


@cuda.jit
def kept(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + 1


for rnd in range(3):
    refs = [made_and_launched(float(c)) for c in range(rnd * 5, rnd * 5 + 5)]
    ns = {"cuda": cuda}
    exec("@cuda.jit\ndef e(out):\n    out[0] = %d\n" % rnd, ns)
    ns["e"][1, 1](cuda.device_array(1))
    refs.append(weakref.ref(ns["e"]))
    del ns
    gc.collect()
    alive = sum(r() is not None for r in refs)
    assert alive == 0, "round %d: %d of %d dropped kernels still alive" % (rnd, alive, len(refs))
    kept[2, 128](cuda.device_array_like(x), x)
cuda.synchronize()
cuda.close()
print("null driver dropped kernels ok")
