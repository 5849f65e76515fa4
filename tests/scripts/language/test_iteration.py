# Loop forms beyond range: enumerate/zip (nested either way, with ranges,
# arrays and tuples), for/else and while/else (break skips the else),
# nested tuple targets, and pow().
import numpy as np
from numba import cuda

rng = np.random.default_rng(5)
tup = (1.5, -2.0, 3.25)


@cuda.jit
def loops(x, y, out, stop):
    for i, (a, b) in enumerate(zip(x, y)):
        out[0, i] = a * b + i
    for (i, a), r in zip(enumerate(x, 3), range(20, 0, -3)):
        out[1, i] = a + r
    for i, v in enumerate(tup):
        out[2, i] = v
    # for/else and while/else
    found = -1
    for i in range(x.size):
        if x[i] > stop:
            found = i
            break
    else:
        found = 1000
    out[3, 0] = found
    j = 0
    while j < x.size:
        if x[j] < -stop:
            break
        j += 1
    else:
        j = 2000
    out[3, 1] = j
    for i in range(3):
        for k in range(3):
            if k == 1:
                break
        else:
            out[3, 2] = -1  # never: the inner break skips it
    p, (q, r) = x[0], (x[1], x[2])
    out[3, 3] = p + q * r
    out[3, 4] = pow(x[0], 3) + pow(2, 10)


def reference(x, y, stop):
    out = np.zeros((4, 16))
    for i, (a, b) in enumerate(zip(x, y)):
        out[0, i] = a * b + i
    for (i, a), r in zip(enumerate(x, 3), range(20, 0, -3)):
        out[1, i] = a + r
    for i, v in enumerate(tup):
        out[2, i] = v
    for i in range(x.size):
        if x[i] > stop:
            found = i
            break
    else:
        found = 1000
    out[3, 0] = found
    j = 0
    while j < x.size:
        if x[j] < -stop:
            break
        j += 1
    else:
        j = 2000
    out[3, 1] = j
    out[3, 3] = x[0] + x[1] * x[2]
    out[3, 4] = x[0] ** 3 + 2 ** 10
    return out


for stop in (0.5, 1.0, 10.0):
    x = rng.standard_normal(9)
    y = rng.standard_normal(12)
    out = np.zeros((4, 16))
    loops[1, 1](x, y, out, stop)
    np.testing.assert_allclose(out, reference(x, y, stop))
print("ok")
