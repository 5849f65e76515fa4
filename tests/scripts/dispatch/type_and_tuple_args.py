# Kernel arguments that are NumPy scalar classes (numba's NumberClass, a dtype
# known at compile time) and tuples of arrays the kernel writes through.
# stdout: type and tuple arguments ok
import numpy as np
from numba import cuda
from numba.cuda import types, void, int32
from numba.cuda.typing.typeof import typeof

assert typeof(np.float32) == types.NumberClass(types.float32)
assert typeof(np.int32).instance_type == types.int32
assert str(typeof(np.uint8)) == "class(uint8)"


def fill_local(out, src, dty):
    tmp = cuda.local.array(64, dty)
    for i in range(64):
        tmp[i] = src[i] * 1.5
    for i in range(64):
        out[i] = tmp[i]


src = np.random.default_rng(7).uniform(-100, 100, 64)
k = cuda.jit(fill_local)
for dty in (np.float32, np.float64, np.int16):
    out = np.zeros(64)
    k[1, 1](out, src, dty)
    np.testing.assert_array_equal(out, (src * 1.5).astype(dty).astype(np.float64))
assert len(k.signatures) == 3, k.signatures

eager = cuda.jit(void(int32[::1], typeof(np.int32)))(lambda a, d: None)


def shared_sum(a, dty):
    sm = cuda.shared.array(32, dty)
    i = cuda.threadIdx.x
    sm[i] = i
    cuda.syncthreads()
    a[i] = sm[31 - i]


k = cuda.jit(shared_sum)
spec = k.specialize(np.zeros(32, np.int32), np.float64)
assert spec.get_shared_mem_per_block() == 32 * 8
a = np.zeros(32, np.int32)
spec[1, 32](a, np.float64)
np.testing.assert_array_equal(a, np.arange(31, -1, -1))


@cuda.jit
def add_pairs(x):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]


rng = np.random.default_rng(3)
x1, x2 = rng.random(100), rng.random(100)
if cuda.backend() == "cpu":  # the kernel reads host memory in place
    x0 = np.zeros(100)
    add_pairs[4, 32]((x0, x1, x2))
    np.testing.assert_array_equal(x0, x1 + x2)
else:
    # On a GPU, host arrays inside tuple arguments are not copied to the
    # device yet (numba-cuda copies them in and back): a clear TypeError.
    try:
        add_pairs[4, 32]((np.zeros(100), x1, x2))
    except TypeError as e:
        assert "cannot pass a numpy.ndarray as array(float64, 1d, C) to kernel 'add_pairs'" in str(e), str(e)
    else:
        raise AssertionError("host arrays in a tuple accepted on a GPU")
    x1, x2 = cuda.to_device(x1), cuda.to_device(x2)
d0 = cuda.to_device(np.zeros(100))
add_pairs[4, 32]((d0, x1, x2))
h1, h2 = (x.copy_to_host() if hasattr(x, "copy_to_host") else x for x in (x1, x2))
np.testing.assert_array_equal(d0.copy_to_host(), h1 + h2)
# The same array twice in one tuple: no aliasing assumption breaks it.
y = cuda.to_device(rng.random(100))
expect = y.copy_to_host() + h2
add_pairs[4, 32]((y, y, x2))
np.testing.assert_array_equal(y.copy_to_host(), expect)
print("type and tuple arguments ok")
