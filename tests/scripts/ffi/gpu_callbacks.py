# Module setup/teardown callbacks on a GPU: setup runs once per loaded
# module before its first launch (each new specialization is a new module);
# it gets .handle (an int) and get_global(name) -> (device pointer, size)
# of a __device__ variable; teardown runs at cuda.close(), not on garbage
# collection.
# backends: cuda
# stdout: gpu callbacks ok
import gc

import numpy as np
from numba import cuda

log = []


def setup(mod):
    ptr, size = mod.get_global("ffi_bias")
    assert isinstance(mod.handle, int) and mod.handle != 0
    assert size == 8, size
    log.append(("setup", mod.handle, ptr))
    assert ptr != 0


def teardown(mod):
    log.append(("teardown", mod.handle))


code = cuda.CUSource(r'''
extern "C" __device__ long long ffi_bias = 7;
extern "C" __device__ int ffi_add_bias(long long* ret, long long x) { *ret = x + ffi_bias; return 0; }
''', name="bias.cu", setup_callback=setup, teardown_callback=teardown)
add_bias = cuda.declare_device("ffi_add_bias", "int64(int64)", link=code)


@cuda.jit
def k(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = add_bias(xs[i])


xs = np.arange(32, dtype=np.int64)
out = np.zeros(32, np.int64)
k[1, 32](out, xs)
k[1, 32](out, xs)
setups = [e for e in log if e[0] == "setup"]
assert len(setups) == 1, log                       # once per module
np.testing.assert_array_equal(out, xs + 7)

k[1, 32](out.astype(np.int32), xs.astype(np.int32))  # a new specialization is a new module
assert len([e for e in log if e[0] == "setup"]) == 2, log

del k
gc.collect()
assert not [e for e in log if e[0] == "teardown"], log       # not on garbage collection
cuda.close()
tears = [e for e in log if e[0] == "teardown"]
assert len(tears) == 2, log
assert sorted(t[1] for t in tears) == sorted(s[1] for s in log if s[0] == "setup"), log
print("gpu callbacks ok")
