# The CUDA backend's host side of the NRT (docs/NRT.md) over the null
# driver, where kernels do not run: loading a kernel that allocates binds
# its counters' pointer to the context's device block (one cuMemAlloc per
# context, the address copied into the module's cuhost_nrt_stats_ptr),
# a kernel without allocations binds nothing, rtsys switches counting and
# reads the block through the driver (nothing counted: nothing ran), and
# no driver call fails along the way.
# backends: cuda
# stdout: null driver nrt ok
import ctypes

import numpy as np
from _null_calls import call_counts as counts
from _null_calls import clear_call_counts as clear
from numba import cuda
from numba.cuda import config
from numba.cuda.memory_management import rtsys

null = ctypes.CDLL("libcuda.so.1")
null.cuhostNullFailedCalls.restype = ctypes.c_char_p
null.cuhostNullClearFailedCalls()
assert cuda.get_current_device().name == "cuhost null driver"

config.CUDA_ENABLE_NRT = True


@cuda.jit
def allocates(out):
    t = np.arange(out.size)
    for i in range(out.size):
        out[i] = t[i]


@cuda.jit
def plain(out):
    out[0] = 1


out = cuda.device_array(8, np.int64)
plain[1, 1](out)
cuda.synchronize()
clear()
plain[1, 1](out)
assert "cuMemAlloc" not in counts(), counts()

clear()
allocates[1, 1](out)
cuda.synchronize()
c = counts()
assert c.get("cuMemAlloc") == 1 and c.get("cuLibraryGetGlobal", 0) >= 1, c
ptx = next(iter(allocates.inspect_asm().values()))
assert ".visible .global .align 8 .u64 cuhost_nrt_stats_ptr" in ptx, ptx[:2000]


@cuda.jit
def allocates_too(out):
    t = np.zeros(3)
    out[0] = t.size


clear()
allocates_too[1, 1](out)
cuda.synchronize()
assert "cuMemAlloc" not in counts(), counts()  # one block per context

rtsys.memsys_enable_stats()
assert rtsys.memsys_stats_enabled()
clear()
allocates[1, 1](out)
stats = rtsys.get_allocation_stats()
assert stats == (0, 0, 0, 0), stats
assert counts().get("cuMemcpyDtoH", 0) >= 1, counts()
rtsys.memsys_disable_stats()
try:
    rtsys.get_allocation_stats()
except RuntimeError as e:
    assert "NRT stats are disabled." in str(e)
else:
    raise AssertionError("stats read while disabled")
failed = null.cuhostNullFailedCalls().decode()
assert not failed, failed
print("null driver nrt ok")
