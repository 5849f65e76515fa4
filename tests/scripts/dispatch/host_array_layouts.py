# Host NumPy arrays passed to a kernel keep their layout: an F-contiguous
# array matches an F signature (its device copy on a GPU keeps F order, as
# numba's to_device does), a C one a C signature, a strided one 'A'.
# stdout: layouts ok
import numpy as np
from numba import cuda


@cuda.jit("void(float64[:, ::1], float64[::1, :], float64[:, :])")
def combine(out, f_in, a_in):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = f_in[i, j] * 2.0 + a_in[i, j]
        f_in[i, j] = -1.0


rng = np.random.default_rng(5)
f_in = np.asfortranarray(rng.random((9, 13)))
wide = rng.random((18, 26))
a_in = wide[::2, ::2]
f_before = f_in.copy()
out = np.zeros((9, 13))
combine[(2, 2), (8, 8)](out, f_in, a_in)
np.testing.assert_array_equal(out, f_before * 2.0 + a_in)
assert (f_in == -1.0).all() and f_in.flags.f_contiguous  # written back in place
print("layouts ok")
