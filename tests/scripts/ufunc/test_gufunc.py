# @guvectorize(target="cuda"): generalized ufuncs against NumPy on random
# data: matrix products over 1-2 loop dimensions, a pinned (broadcast) input,
# scalar core inputs ("()") and 1-element outputs, several outputs, out= on
# host and device, stream=, dtype casting of host inputs, a dynamic gufunc
# (types from the outputs) and more loop iterations than one grid holds.
# stdout: gufunc ok
import numpy as np
from numba import cuda, guvectorize as numba_guvectorize
from numba.cuda import guvectorize, void, float32, float64, int32

rng = np.random.default_rng(5)


@guvectorize([void(float32[:, :], float32[:, :], float32[:, :]), void(float64[:, :], float64[:, :], float64[:, :])],
             "(m,n),(n,p)->(m,p)")
def matmul(A, B, C):
    m, n = A.shape
    n, p = B.shape
    for i in range(m):
        for j in range(p):
            acc = 0.0
            for k in range(n):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


for dt, tol in ((np.float32, 1e-5), (np.float64, 1e-12)):
    A = rng.standard_normal((37, 3, 4)).astype(dt)
    B = rng.standard_normal((37, 4, 5)).astype(dt)
    C = matmul(A, B)
    assert C.dtype == dt and C.shape == (37, 3, 5)
    np.testing.assert_allclose(C, A @ B, rtol=tol, atol=tol)

# Two loop dimensions; a pinned second input (no loop dimensions).
A = rng.standard_normal((4, 6, 2, 3))
B = rng.standard_normal((3, 2))
np.testing.assert_allclose(matmul(A, B), A @ B, rtol=1e-12)
np.testing.assert_allclose(matmul(A, np.broadcast_to(B, (4, 6, 3, 2)).copy()), A @ B, rtol=1e-12)

# Device inputs: the result stays on the device; out= and stream=.
stream = cuda.stream()
A = rng.standard_normal((101, 2, 4)).astype(np.float32)
B = rng.standard_normal((101, 4, 5)).astype(np.float32)
dA, dB = cuda.to_device(A, stream), cuda.to_device(B, stream)
dC = cuda.device_array((101, 2, 5), np.float32, stream=stream)
r = matmul(dA, dB, out=dC, stream=stream)
assert r is dC
C = dC.copy_to_host(stream=stream)
stream.synchronize()
np.testing.assert_allclose(C, A @ B, rtol=1e-5, atol=1e-5)
np.testing.assert_allclose(matmul(A, dB).copy_to_host(), A @ B, rtol=1e-5, atol=1e-5)
hostC = np.zeros((101, 2, 5), np.float32)
matmul(A, B, hostC)
np.testing.assert_allclose(hostC, A @ B, rtol=1e-5, atol=1e-5)


# Reductions of rows: "(n)->()", host and device outputs.
@guvectorize([void(int32[:], int32[:])], "(n)->()")
def row_sum(x, out):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    out[0] = s


X = rng.integers(-1000, 1000, (300, 7)).astype(np.int32)
np.testing.assert_array_equal(row_sum(X), X.sum(axis=1))
dout = cuda.device_array(300, np.int32)
row_sum(cuda.to_device(X), out=dout)
np.testing.assert_array_equal(dout.copy_to_host(), X.sum(axis=1))


# Scalar core inputs, broadcast scalar, casting of a host input.
@numba_guvectorize(["void(float32, float32[:], float32[:], float32[:])"], "(),(t),(t)->(t)", target="cuda")
def saxpy(a, x, y, out):
    for i in range(out.shape[0]):
        out[i] = a * x[i] + y[i]


x = rng.standard_normal((9, 4)).astype(np.float32)
y = rng.standard_normal((9, 4)).astype(np.float32)
np.testing.assert_allclose(saxpy(np.float32(1.5), x, y), 1.5 * x + y, rtol=1e-6)
a = rng.standard_normal(9).astype(np.float32)
np.testing.assert_allclose(saxpy(a, x, y), a[:, None] * x + y, rtol=1e-6)
np.testing.assert_allclose(saxpy(2, x[0], y[0]), 2 * x[0] + y[0], rtol=1e-6)
x16 = x.astype(np.float16)
np.testing.assert_allclose(saxpy(np.float32(1.5), x16, y), 1.5 * x16.astype(np.float32) + y, rtol=1e-6)


# Several outputs, allocated or given.
@guvectorize([void(float64[:], float64[:], float64[:])], "(n)->(n),()")
def scale_and_norm(x, scaled, norm):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    s = s ** 0.5
    norm[0] = s
    for i in range(x.shape[0]):
        scaled[i] = x[i] / s


V = rng.standard_normal((50, 3))
scaled, norms = scale_and_norm(V)
np.testing.assert_allclose(norms, np.linalg.norm(V, axis=1), rtol=1e-12)
np.testing.assert_allclose(scaled, V / np.linalg.norm(V, axis=1)[:, None], rtol=1e-12)


# A dynamic gufunc: its loop types come from the arrays, outputs included.
@guvectorize("(n),(n)->(n)")
def dyn_mul(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * b[i]


p = rng.standard_normal((5, 8))
o = np.zeros_like(p)
dyn_mul(p, p, o)
np.testing.assert_allclose(o, p * p, rtol=1e-12)

# Many loop iterations: more than one grid of threads (grid-stride).
Z = rng.integers(0, 100, (200_000, 2)).astype(np.int32)
np.testing.assert_array_equal(row_sum(Z), Z.sum(axis=1))
assert matmul.__name__ == "matmul"
print("gufunc ok")
