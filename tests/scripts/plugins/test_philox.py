# The philox plugin (shipped as .cu) on the backend in use: raw bits and
# uniforms equal a host reference of Philox4x32-10 bit for bit (so the CPU
# and GPU backends give the same numbers for the same key and counter),
# normals match to float rounding, and the streams look random.
import numpy as np
from numba import cuda
from cuhost.plugins import philox

import _philox_reference as ref


@cuda.jit
def draw(key, bits, uni, uni64, nrm):
    i = cuda.grid(1)
    if i < uni.size:
        for lane in range(4):
            bits[i, lane] = philox.bits(key, i, lane)
        uni[i] = philox.uniform(key, i)
        uni64[i] = philox.uniform64(key, i)
        nrm[i] = philox.normal(key, i)


n = 20000
key = np.uint64(0x0123456789ABCDEF)
bits = np.zeros((n, 4), np.uint32)
uni = np.zeros(n, np.float32)
uni64 = np.zeros(n, np.float64)
nrm = np.zeros(n, np.float32)
draw[(n + 127) // 128, 128](key, bits, uni, uni64, nrm)

for i in list(range(64)) + list(range(n - 64, n)):
    assert list(bits[i]) == ref.philox4x32_10(int(key), i), i
    assert uni[i] == np.float32(ref.uniform(int(key), i)), (i, uni[i])
    np.testing.assert_allclose(nrm[i], ref.normal(int(key), i), rtol=2e-6, atol=1e-6)
# Known-answer vector (Random123's kat_vectors: philox4x32_10 with zero counter and key).
assert ref.philox4x32_10(0, 0) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]

# Statistical sanity.
assert 0.0 <= uni.min() and uni.max() < 1.0
assert abs(uni.mean() - 0.5) < 0.01 and abs(uni.var() - 1 / 12) < 0.005
assert abs(uni64.mean() - 0.5) < 0.01
assert abs(nrm.mean()) < 0.03 and abs(nrm.std() - 1.0) < 0.03
hist = np.bincount((uni * 10).astype(int), minlength=10)
assert hist.min() > n / 10 * 0.9, hist
# Different keys give different streams; the same key and counter the same value.
other = np.zeros(n, np.float32)
draw[(n + 127) // 128, 128](np.uint64(7), bits, other, uni64, nrm)
assert (other != uni).mean() > 0.99
again = np.zeros(n, np.float32)
draw[(n + 127) // 128, 128](key, bits, again, uni64, nrm)
np.testing.assert_array_equal(again, uni)
print("philox ok on", cuda.backend())
