# The PTX of a kernel that allocates under CUDA_ENABLE_NRT (docs/NRT.md):
# calls of NRT_MemInfo_alloc_aligned, NRT_incref and NRT_decref, defined in
# the module over the device heap's malloc/free, and the counters' pointer
# the loader fills; none of it without allocations.
# stdout: nrt ptx ok
import re

import numpy as np
from numba import cuda
from numba.cuda import config

config.CUDA_ENABLE_NRT = True


@cuda.jit(device=True)
def head(x):
    return x[:5]


@cuda.jit
def g(out):
    x = np.empty(10, np.int64)
    x[0] = 3
    y = head(x)
    out[0] = y[0]


out = np.zeros(1, np.int64)
g[1, 1](out)
assert out[0] == 3
ptx = next(iter(g.inspect_asm().values()))
for name in ("NRT_MemInfo_alloc_aligned", "NRT_incref", "NRT_decref"):
    assert re.search(r"call\.uni[^;]*\n?[^;]*\b" + name + r"\b", ptx), name
    assert re.search(r"\.func[^\n]*\b" + name + r"\(", ptx) or re.search(r"\.func\s*\([^)]*\)\s*" + name, ptx), name
assert re.search(r"\.extern \.func[^\n]*malloc", ptx) and re.search(r"\.extern \.func[^\n]*\bfree\b", ptx)
assert "cuhost_nrt_stats_ptr" in ptx


@cuda.jit
def plain(out):
    out[0] = 1


plain[1, 1](out)
plain_ptx = next(iter(plain.inspect_asm().values()))
assert "NRT_" not in plain_ptx and "malloc" not in plain_ptx
print("nrt ptx ok")
