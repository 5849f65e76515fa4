# Control flow: if/elif/else, while, for over range with start/stop/negative
# steps, break/continue, conditional expressions, short-circuit and/or,
# chained comparisons, augmented assignment, tuple unpacking, variable
# unification (int then float).
import numpy as np
from numba import cuda

rng = np.random.default_rng(7)
n = 512
v = rng.integers(-20, 20, n).astype(np.int32)


def reference(k):
    # Python reference of `control` below
    if k < -10:
        c = -1
    elif k < 0:
        c = 0
    elif k == 0:
        c = 100
    else:
        c = 1
    s = 0
    for j in range(k, 2 * k + 5, 2):
        s += j
    t = 0
    for j in range(10, k, -3):
        if j % 2 == 0:
            continue
        t += j
        if t > 30:
            break
    w = 0
    m = abs(k)
    while m > 0:
        w += m & 1
        m >>= 1
    z = 1 if (k > 3 and k % 2 == 0) or k == -7 else 2
    r = 5 if -5 < k <= 5 else 6
    acc = 0
    acc += k
    acc *= 3
    acc -= 1
    f = 1
    if k > 0:
        f = 2.5
    p, q = k, k + 1
    p, q = q, p
    return (c, s, t, w, z, r, acc, f, p - q)


@cuda.jit
def control(v, out, fout):
    i = cuda.grid(1)
    if i >= v.size:
        return
    k = v[i]
    if k < -10:
        c = -1
    elif k < 0:
        c = 0
    elif k == 0:
        c = 100
    else:
        c = 1
    s = 0
    for j in range(k, 2 * k + 5, 2):
        s += j
    t = 0
    for j in range(10, k, -3):
        if j % 2 == 0:
            continue
        t += j
        if t > 30:
            break
    w = 0
    m = abs(k)
    while m > 0:
        w += m & 1
        m >>= 1
    z = 1 if (k > 3 and k % 2 == 0) or k == -7 else 2
    r = 5 if -5 < k <= 5 else 6
    acc = 0
    acc += k
    acc *= 3
    acc -= 1
    f = 1
    if k > 0:
        f = 2.5
    p, q = k, k + 1
    p, q = q, p
    out[i, 0] = c
    out[i, 1] = s
    out[i, 2] = t
    out[i, 3] = w
    out[i, 4] = z
    out[i, 5] = r
    out[i, 6] = acc
    out[i, 7] = p - q
    fout[i] = f


out = np.zeros((n, 8), np.int64)
fout = np.zeros(n, np.float64)
control[(n + 63) // 64, 64](v, out, fout)
for i in range(n):
    ref = reference(int(v[i]))
    got = tuple(out[i]) 
    assert got == ref[:7] + (ref[8],), (int(v[i]), got, ref)
    assert fout[i] == ref[7], (int(v[i]), fout[i], ref[7])
print("control flow ok")
