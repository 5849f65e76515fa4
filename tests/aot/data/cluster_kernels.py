# A kernel jitted with cluster_dim and one without, run once (the export
# holds what the script ran), for tests/aot/test_export_cluster.py.
import numpy as np
from numba import cuda


@cuda.jit(cluster_dim=(2, 1))
def ranks(out):
    c = cuda.cg.this_cluster()
    out[cuda.blockIdx.y, cuda.blockIdx.x] = c.block_rank()
    c.sync()


@cuda.jit
def plain(out):
    out[cuda.blockIdx.y, cuda.blockIdx.x] = cuda.blockIdx.x


ranked = cuda.device_array((2, 4), np.int32)
ranks[(4, 2), 32](ranked)
assert (ranked.copy_to_host() == np.tile(np.array([0, 1], np.int32), (2, 2))).all(), ranked.copy_to_host()
plain[(4, 2), 32](ranked)
