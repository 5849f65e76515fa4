# cuda.reduce / cuda.Reduce against NumPy on random data: sums, products and
# max over every size class (empty, 1 element, around the block size, more
# than one grid), integer and float dtypes, init, size=, res= on the device,
# stream=, device inputs, a device function as the operator.
# stdout: reduce ok
import numpy as np
from numba import cuda

rng = np.random.default_rng(3)
sum_reduce = cuda.Reduce(lambda a, b: a + b)
max_reduce = cuda.reduce(lambda a, b: max(a, b))


@cuda.jit(device=True)
def mul(a, b):
    return a * b


prod_reduce = cuda.Reduce(mul)

for n in (0, 1, 2, 255, 256, 257, 1023, 4096, 70_001, 1 << 20):
    v = rng.standard_normal(n)
    got = sum_reduce(v)
    want = v.sum()
    assert abs(got - want) <= 1e-9 * max(1.0, np.abs(v).sum()), (n, got, want)
    if n:
        assert max_reduce(v, init=-np.inf) == v.max(), n
    iv = rng.integers(-1000, 1000, n).astype(np.int64)
    assert sum_reduce(iv) == iv.sum(), n
    assert sum_reduce(cuda.to_device(iv)) == iv.sum(), n

assert sum_reduce(np.zeros(0), init=7.5) == 7.5
v = rng.integers(1, 4, 20).astype(np.float64)
assert prod_reduce(v, init=1) == v.prod()
assert sum_reduce(v, init=3) == v.sum() + 3
assert sum_reduce(v, size=5) == v[:5].sum()
f = rng.standard_normal(100_000).astype(np.float32)
got = sum_reduce(f)
assert isinstance(got, np.float32)
assert abs(got - f.astype(np.float64).sum()) < 1e-2, got

# res= keeps the result on the device; stream= orders the work.
stream = cuda.stream()
res = cuda.to_device(np.zeros(1))
d = cuda.to_device(v, stream)
assert sum_reduce(d, res=res, stream=stream) is None
stream.synchronize()
assert res.copy_to_host()[0] == v.sum()
assert sum_reduce(d, stream=stream) == v.sum()
res0 = cuda.to_device(np.ones(1))
assert sum_reduce(np.zeros(0), res=res0, init=2.0) is None
assert res0.copy_to_host()[0] == 2.0

# Repeated calls on the default stream with res= (the loop of reductions a
# benchmark or a solver runs, served from the per-reducer cache of launches):
# new data in the same array, another init, another res, another size and
# dtype, a view, and arrays of the same size and dtype each give their own sum.
loop_reduce = cuda.Reduce(lambda a, b: a + b)
n = 70_001
d = cuda.device_array(n, np.float64)
res_a, res_b = cuda.device_array(1, np.float64), cuda.device_array(1, np.float64)
for k in range(4):
    v = rng.standard_normal(n)
    d.copy_to_device(v)
    init = float(k) * 0.5
    assert loop_reduce(d, res=res_a if k % 2 else res_b, init=init) is None
    got = (res_a if k % 2 else res_b).copy_to_host()[0]
    assert abs(got - (v.sum() + init)) <= 1e-9 * (np.abs(v).sum() + 1), (k, got, v.sum() + init)
w = rng.standard_normal(n)
dw = cuda.to_device(w)
loop_reduce(dw, res=res_a)
loop_reduce(d, res=res_b)
assert abs(res_a.copy_to_host()[0] - w.sum()) <= 1e-9 * np.abs(w).sum()
assert abs(res_b.copy_to_host()[0] - v.sum()) <= 1e-9 * np.abs(v).sum()
for m in (1, 257, 1 << 20):
    iv = rng.integers(-1000, 1000, m).astype(np.int32)
    res_i = cuda.device_array(1, np.int32)
    for _ in range(2):
        loop_reduce(cuda.to_device(iv), res=res_i, init=3)
        assert res_i.copy_to_host()[0] == iv.sum() + 3, m
half = cuda.to_device(w)[::2]
loop_reduce(half, res=res_a)
loop_reduce(half, res=res_a)
assert abs(res_a.copy_to_host()[0] - w[::2].sum()) <= 1e-9 * np.abs(w).sum()
print("reduce ok")
