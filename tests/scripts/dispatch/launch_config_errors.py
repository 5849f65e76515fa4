# Every malformed launch configuration gives a precise error before any compile.
# stdout: all launch configuration errors checked
from numba import cuda


@cuda.jit
def k(a):
    a[0] = 1


def expect(cfg, exc, text):
    try:
        k[cfg]
    except exc as e:
        assert text in str(e), (cfg, str(e))
        return
    raise AssertionError("no %s for %r" % (exc.__name__, cfg))


shape_msg = "launch configuration of kernel 'k' must be [blocks, threads]"
expect(5, ValueError, shape_msg)
expect((1,), ValueError, shape_msg)
expect((1, 2, 0, 0, 0), ValueError, shape_msg)
expect((0, 32), ValueError, "griddim dimensions must be positive, got 0 in dimension 0")
expect((1, -4), ValueError, "blockdim dimensions must be positive, got -4 in dimension 0")
expect(((2, 0), 32), ValueError, "griddim dimensions must be positive, got 0 in dimension 1")
expect((1, (1, 2, 3, 4)), ValueError, "blockdim must be a sequence of 1, 2 or 3 integers, got [1, 2, 3, 4]")
expect(((), 1), ValueError, "griddim must be a sequence of 1, 2 or 3 integers, got []")
expect((1.5, 32), TypeError, "griddim must be a sequence of integers, got [1.5]")
expect((1, "32"), TypeError, "blockdim must be a sequence of integers, got ['32']")
expect((1, (32, 2.0)), TypeError, "blockdim must be a sequence of integers, got [32, 2.0]")
expect((1, 2048), cuda.CudaAPIError, "cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE: a block of 2048 x 1 x 1 = 2048 threads exceeds the limit of 1024 threads per block")
expect((1, (32, 32, 2)), cuda.CudaAPIError, "32 x 32 x 2 = 2048 threads exceeds the limit")
expect((1, 32, 0, -1), ValueError, "dynamic shared memory size must be between 0 and 2**32-1 bytes, got -1")
expect((1, 32, 0, 1.0), TypeError, "dynamic shared memory size must be an int (bytes), got float")
expect((1, 32, "stream"), TypeError, "")

# Valid forms build launchers carrying their configuration.
l = k[(2, 3), (4, 5, 6), 0, 128]
assert l.griddim == (2, 3, 1) and l.blockdim == (4, 5, 6) and l.sharedmem == 128, (l.griddim, l.blockdim)
l = k[7, 64]
assert l.griddim == (7, 1, 1) and l.blockdim == (64, 1, 1)
assert k[7, 64] is l  # a repeated configuration reuses the launcher
assert k[8, 64] is not l

# Calling without a configuration, and forall validation.
try:
    k([0])
    raise AssertionError("no error")
except ValueError as e:
    assert str(e).startswith("kernel 'k': launch configuration was not specified. Use the syntax "
                             "k[blockspergrid, threadsperblock]"), str(e)
for bad, exc in [(-1, ValueError), (2.5, TypeError)]:
    try:
        k.forall(bad)
        raise AssertionError("no error for forall(%r)" % bad)
    except exc:
        pass
assert "forall(10)" in repr(k.forall(10))
print("all launch configuration errors checked")
