# numba-cuda's configuration-driven warnings, each read when it applies:
# CUDA_LOW_OCCUPANCY_WARNINGS at kernel[grid, block] (a grid of fewer than
# 128 blocks, numba-cuda's threshold on every device), CUDA_WARN_ON_IMPLICIT_COPY when a launch is
# given a host array (a GPU launch copies it; the CPU backend warns alike),
# and debug with optimization (config.CUDA_DEBUGINFO_DEFAULT / config.OPT
# as the defaults of cuda.jit's debug and opt).
# stdout: warnings ok
import warnings

import numpy as np
from numba import cuda
from numba.cuda.core import config
from numba.cuda.core.errors import NumbaInvalidConfigWarning, NumbaPerformanceWarning


def caught(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn()
    return [(type(x.message), str(x.message)) for x in w]


def set_config(name, value):
    old = getattr(config, name)
    setattr(config, name, value)
    return old


@cuda.jit
def add_one(r, x):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = x[i] + 1


small, large = 127, 128
old = set_config("CUDA_LOW_OCCUPANCY_WARNINGS", 1)
got = caught(lambda: add_one[small, 1])
assert got == [(NumbaPerformanceWarning, "Grid size %d will likely result in GPU under-utilization due to low "
                "occupancy." % small)], got
assert caught(lambda: add_one[large, 1]) == []
assert caught(lambda: add_one[(64, 2), 1]) == []  # the whole grid counts
assert len(caught(lambda: add_one[(8, 2, 7), 1])) == 1
config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
assert caught(lambda: add_one[1, 7]) == []
config.CUDA_LOW_OCCUPANCY_WARNINGS = old

rng = np.random.default_rng(7)
x = rng.random(64)
r = np.zeros_like(x)
old = set_config("CUDA_WARN_ON_IMPLICIT_COPY", 1)
got = caught(lambda: add_one[large, 64](r, x))
np.testing.assert_array_equal(r, x + 1)
# Both backends warn: the CPU backend reads host memory directly, but the same launch copies on a GPU.
assert got == [(NumbaPerformanceWarning, "Host array used in CUDA kernel will incur copy overhead to/from "
                "device.")], got
dx, dr = cuda.to_device(x), cuda.device_array_like(x)
assert caught(lambda: add_one[large, 64](dr, dx)) == []
config.CUDA_WARN_ON_IMPLICIT_COPY = 0
assert caught(lambda: add_one[large, 64](r, x)) == []
config.CUDA_WARN_ON_IMPLICIT_COPY = old

debug_opt = [(NumbaInvalidConfigWarning, "debug=True with opt=True is not supported by CUDA. This may result in a "
              "crash - set debug=False or opt=False.")]
assert caught(lambda: cuda.jit(debug=True)) == debug_opt
assert caught(lambda: cuda.jit(debug=True, opt=True)) == debug_opt
assert caught(lambda: cuda.jit(debug=True, opt=False)) == []
assert caught(lambda: cuda.jit()) == []
old_debug, old_opt = set_config("CUDA_DEBUGINFO_DEFAULT", 1), config.OPT
assert caught(lambda: cuda.jit()) == debug_opt
assert caught(lambda: cuda.jit(opt=False)) == []
config.OPT = config._OptLevel(0)
assert caught(lambda: cuda.jit()) == []
config.CUDA_DEBUGINFO_DEFAULT, config.OPT = old_debug, old_opt
print("warnings ok")
