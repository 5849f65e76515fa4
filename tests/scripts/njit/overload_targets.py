# numba's target-specific @overload: a function compiled for the host
# (numba.njit) takes the target="cpu" implementation, else the generic one,
# and never a target="cuda" one; a kernel takes the CUDA one, else the
# generic one, and never a CPU one. The same overloaded function and the same
# calling chain are used from both, so the choice is made per target, also
# for implementations that call other overloaded functions, and the typed
# callees of one target are not reused for the other.
# stdout: overload targets ok
import numpy as np
from numba import cuda, njit
from numba.core.extending import overload


def scale(x):
    pass


def scale_twice(x):
    pass


def cuda_only(x):
    pass


@overload(scale, target="generic")
def _scale_generic(x):
    return lambda x: x * 3


@overload(scale, target="cuda")
def _scale_cuda(x):
    return lambda x: x * 5


@overload(scale, target="cpu")
def _scale_cpu(x):
    return lambda x: x * 7


@overload(scale_twice, target="generic")
def _scale_twice_generic(x):
    def impl(x):
        return scale(scale(x)) + 1

    return impl


@overload(cuda_only, target="cuda")
def _cuda_only(x):
    return lambda x: x - 1


def both(x):
    return scale_twice(x)


host_both = njit(both)
device_both = cuda.jit(device=True)(both)


@cuda.jit
def kernel(xs, out):
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = device_both(xs[i])
        out[i] += cuda_only(xs[i]) * 0


xs = np.random.default_rng(23).integers(-1000, 1000, size=50)
out = np.zeros_like(xs)
kernel[1, 64](xs, out)
np.testing.assert_array_equal(out, xs * 25 + 1)  # CUDA's implementation, twice
for x in xs[:10]:
    assert host_both(int(x)) == int(x) * 49 + 1, (x, host_both(int(x)))  # the CPU's, twice
kernel[1, 64](xs, out)  # the kernel's choice is unchanged after the host's typing
np.testing.assert_array_equal(out, xs * 25 + 1)


@njit
def host_cuda_only(x):
    return cuda_only(x)


try:
    host_cuda_only(3)
except Exception as e:
    assert type(e).__name__ == "TypingError", type(e)
    assert "cuda_only" in str(e), str(e)
else:
    raise AssertionError("a target='cuda' overload was used on the host")
print("overload targets ok")
