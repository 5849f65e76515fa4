# Every atomic operation with many threads contending, checked against a
# host reference: add/sub (ints and floats), max/min, nanmax/nanmin,
# and_/or_/xor, exch, inc/dec (wrapping), cas (a lock-free counter), and the
# returned old values forming a permutation.
import numpy as np
from numba import cuda

rng = np.random.default_rng(21)
n = 4096
vals = rng.integers(-1000, 1000, n).astype(np.int64)
fvals = rng.random(n)
bits = rng.integers(0, 2**31, n).astype(np.uint32)


@cuda.jit
def all_atomics(vals, fvals, bits, acc, facc, uacc, olds):
    i = cuda.grid(1)
    if i < vals.size:
        olds[i] = cuda.atomic.add(acc, 0, 1)
        cuda.atomic.add(acc, 1, vals[i])
        cuda.atomic.sub(acc, 2, vals[i])
        cuda.atomic.max(acc, 3, vals[i])
        cuda.atomic.min(acc, 4, vals[i])
        cuda.atomic.add(facc, 0, fvals[i])
        cuda.atomic.max(facc, 1, fvals[i])
        cuda.atomic.min(facc, 2, fvals[i])
        cuda.atomic.nanmax(facc, 3, fvals[i])
        cuda.atomic.nanmin(facc, 4, fvals[i])
        cuda.atomic.and_(uacc, 0, bits[i])
        cuda.atomic.or_(uacc, 1, bits[i])
        cuda.atomic.xor(uacc, 2, bits[i])
        cuda.atomic.inc(uacc, 3, 9)
        cuda.atomic.dec(uacc, 4, 9)
        cuda.atomic.exch(uacc, 5, 7)


acc = np.array([0, 0, 0, -10**9, 10**9], np.int64)
facc = np.array([0.0, -1.0, 2.0, -1.0, 2.0])
uacc = np.array([0xFFFFFFFF, 0, 0, 0, 5, 1], np.uint32)
olds = np.zeros(n, np.int64)
all_atomics[n // 128, 128](vals, fvals, bits, acc, facc, uacc, olds)
assert acc[0] == n
assert acc[1] == vals.sum() and acc[2] == -vals.sum()
assert acc[3] == vals.max() and acc[4] == vals.min()
np.testing.assert_allclose(facc[0], fvals.sum(), rtol=1e-12)
assert facc[1] == fvals.max() and facc[2] == fvals.min()
assert facc[3] == fvals.max() and facc[4] == fvals.min()
assert uacc[0] == np.bitwise_and.reduce(bits) & 0xFFFFFFFF
assert uacc[1] == np.bitwise_or.reduce(bits)
assert uacc[2] == np.bitwise_xor.reduce(bits)
# inc: old >= 9 ? 0 : old + 1, n times from 0; dec: (old == 0 or old > 9) ? 9 : old - 1, n times from 5
inc = 0
dec = 5
for _ in range(n):
    inc = 0 if inc >= 9 else inc + 1
    dec = 9 if (dec == 0 or dec > 9) else dec - 1
assert uacc[3] == inc and uacc[4] == dec, (uacc[3], inc, uacc[4], dec)
assert uacc[5] == 7
np.testing.assert_array_equal(np.sort(olds), np.arange(n))


@cuda.jit
def cas_counter(counter, tickets):
    i = cuda.grid(1)
    if i < tickets.size:
        while True:
            old = counter[0]
            if cuda.atomic.cas(counter, 0, old, old + 1) == old:
                tickets[i] = old
                break


counter = np.zeros(1, np.int32)
tickets = np.zeros(2000, np.int32)
cas_counter[16, 128](counter, tickets)
assert counter[0] == 2000
np.testing.assert_array_equal(np.sort(tickets), np.arange(2000))


@cuda.jit
def atomic_2d(m, idx):
    i = cuda.grid(1)
    if i < idx.shape[0]:
        cuda.atomic.add(m, (idx[i, 0], idx[i, 1]), 1.5)


idx = rng.integers(0, 4, (3000, 2))
m = np.zeros((4, 4))
atomic_2d[24, 128](m, idx)
ref = np.zeros((4, 4))
np.add.at(ref, (idx[:, 0], idx[:, 1]), 1.5)
np.testing.assert_allclose(m, ref)
print("atomics ok")
