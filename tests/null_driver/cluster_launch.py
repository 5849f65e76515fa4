# A kernel jitted with cluster_dim launches through cuLaunchKernelEx with
# CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION on the CUDA backend (the null driver
# records the shape it got); a grid that is not a whole number of clusters is
# refused before the driver is asked.
# backends: cuda
# stdout: null driver cluster launch ok
import ctypes

import numpy as np
from numba import cuda

null = ctypes.CDLL("libcuda.so.1")


def last_cluster():
    out = (ctypes.c_uint * 3)()
    null.cuhostNullLastCluster(out)
    return tuple(out)


@cuda.jit(cluster_dim=(2, 2))
def ranks(out):
    c = cuda.cg.this_cluster()
    out[cuda.blockIdx.y, cuda.blockIdx.x] = c.block_rank()
    c.sync()


out = cuda.device_array((4, 6), np.int32)
assert last_cluster() == (0, 0, 0), last_cluster()
ranks[(6, 4), 32](out)
cuda.synchronize()
assert last_cluster() == (2, 2, 1), last_cluster()
try:
    ranks[(5, 4), 32](out)
    raise AssertionError("a grid of 5 x 4 blocks in 2 x 2 clusters ran")
except ValueError as e:
    assert "is not a whole number of clusters" in str(e), str(e)
print("null driver cluster launch ok")
