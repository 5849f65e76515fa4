# Two threads compile kernels whose device functions call each other
# (mutual recursion, entered from opposite ends) while capturing them gives
# up the GIL (a global whose __cuda_array_interface__ sleeps). A function
# captured inside another's capture is only complete when that whole capture
# is, so the second thread must wait for it instead of typing a callee whose
# source is not captured yet. Both kernels compute what the same Python
# functions compute on random data.
# stdout: concurrent captures ok
import threading
import time

import numpy as np
from numba import cuda


class SlowArray:
    """A device-array-like global whose interface gives up the GIL when read."""

    def __init__(self, values):
        self._a = cuda.to_device(values)

    @property
    def __cuda_array_interface__(self):
        time.sleep(0.2)
        return self._a.__cuda_array_interface__


w1 = np.random.default_rng(31).standard_normal(4)
w2 = np.random.default_rng(37).standard_normal(4)
slow1, slow2 = SlowArray(w1), SlowArray(w2)


@cuda.jit(device=True)
def f1(n):
    t = slow1[n % 4]
    if n <= 0:
        return t
    return f2(n - 1) + t


@cuda.jit(device=True)
def f2(n):
    t = slow2[n % 4]
    if n <= 0:
        return t
    return f1(n - 1) * 0.5 + t


@cuda.jit
def k1(out):
    out[0] = f1(5)


@cuda.jit
def k2(out):
    out[0] = f2(6)


def p1(n):
    t = w1[n % 4]
    return t if n <= 0 else p2(n - 1) + t


def p2(n):
    t = w2[n % 4]
    return t if n <= 0 else p1(n - 1) * 0.5 + t


results, errors = {}, []


def run(name, kernel):
    try:
        out = np.zeros(1)
        kernel[1, 1](out)
        results[name] = out[0]
    except BaseException as e:  # reported below
        errors.append(repr(e))


threads = [threading.Thread(target=run, args=(n, k)) for n, k in (("k1", k1), ("k2", k2))]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=120)
assert not any(t.is_alive() for t in threads), "a compiling thread never finished"
assert not errors, errors
np.testing.assert_allclose(results["k1"], p1(5), rtol=1e-12)
np.testing.assert_allclose(results["k2"], p2(6), rtol=1e-12)
print("concurrent captures ok")
