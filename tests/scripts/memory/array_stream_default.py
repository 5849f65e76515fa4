# A device array made on a stream keeps it (numba's .stream) as the default
# of its own copies: copy_to_host(), copy_to_device() and slice assignment
# with no stream run on that stream, after the work queued there, and are
# complete when they return. On a GPU a copy on another stream could read the
# array before the kernel that fills it ran (numba-cuda's
# create_xoroshiro128p_states(..., stream=s).copy_to_host()).
# stdout: array stream defaults ok
import numpy as np
from numba import cuda


@cuda.jit
def slow_fill(out, base):
    i = cuda.grid(1)
    if i < out.size:
        acc = base
        for k in range(20000):  # long enough that a copy racing it would see zeros
            acc = acc * 1.0000001 + 1e-9
        out[i] = acc + i


stream = cuda.stream()
states = cuda.random.create_xoroshiro128p_states(1000, seed=1, stream=stream)
assert len(np.unique(states.copy_to_host())) == 1000

host = np.random.default_rng(47).standard_normal(4096)
d = cuda.device_array(4096, stream=stream)
assert d.stream is stream
slow_fill[32, 128, stream](d, 2.0)
ref_d = cuda.device_array(4096)
slow_fill[32, 128](ref_d, 2.0)  # the same values on the default stream, for reference
np.testing.assert_array_equal(d.copy_to_host(), ref_d.copy_to_host())

e = cuda.to_device(np.zeros(4096), stream=stream)
slow_fill[32, 128, stream](e, 2.0)
e.copy_to_device(host)  # after the kernel on the array's stream
np.testing.assert_array_equal(e.copy_to_host(), host)
e[100:200] = 5.0
got = e.copy_to_host()
np.testing.assert_array_equal(got[100:200], 5.0)
np.testing.assert_array_equal(got[:100], host[:100])
print("array stream defaults ok")
