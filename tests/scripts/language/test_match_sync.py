# cuda.match_any_sync / match_all_sync against a host reference: the lanes of
# the warp holding the same value, and whether all active lanes agree.
import numpy as np
from numba import cuda


@cuda.jit
def match(a, anym, allm, allp):
    i = cuda.grid(1)
    if i < a.size:
        anym[i] = cuda.match_any_sync(cuda.activemask(), a[i])
        m, p = cuda.match_all_sync(cuda.activemask(), a[i])
        allm[i] = m
        allp[i] = p


rng = np.random.default_rng(4)
for n, values in ((32, 3), (20, 2), (32, 1)):
    a = rng.integers(0, values, n).astype(np.int64)
    anym = np.zeros(n, np.uint32)
    allm = np.zeros(n, np.uint32)
    allp = np.zeros(n, np.int32)
    match[1, n](a, anym, allm, allp)
    for i in range(n):
        want = sum(1 << j for j in range(n) if a[j] == a[i])
        assert anym[i] == want, (n, i, anym[i], want)
    same = bool(np.all(a == a[0]))
    assert np.all(allp == same)
    assert np.all(allm == ((1 << n) - 1 if same else 0))
print("ok")
