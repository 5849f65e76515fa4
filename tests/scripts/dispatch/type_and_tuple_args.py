# Kernel arguments that are NumPy scalar classes (numba's NumberClass, a dtype
# known at compile time) and tuples of arrays the kernel writes through
# (device arrays, and host arrays copied in and back on a GPU).
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
# Host arrays inside tuple arguments: read in place on the CPU, copied in and
# (unless read-only) back on a GPU, at any depth, as numba-cuda does.
x0 = np.zeros(100)
add_pairs[4, 32]((x0, x1, x2))
np.testing.assert_array_equal(x0, x1 + x2)


@cuda.jit
def nested(r, x):
    r[0] = x[0][0]
    r[1] = x[0][1]
    r[2] = x[1]
    r[3] = x[2][0][1]
    x[2][0][0] = x[2][1] * 2


z = rng.integers(-50, 50, 2)
inner = rng.integers(-50, 50, 3)
ro = rng.integers(-50, 50, 2)
ro.flags.writeable = False
r = np.zeros(4, np.int64)
nested[1, 1](r, (z, 10, (inner, 21)))
np.testing.assert_array_equal(r, [z[0], z[1], 10, inner[1]])
assert inner[0] == 42, inner
nested[1, 1](r, (ro, -3, (inner, 4)))
np.testing.assert_array_equal(r, [ro[0], ro[1], -3, inner[1]])
assert inner[0] == 8, inner
if cuda.backend() == "cuda":
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
