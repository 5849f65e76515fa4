"""cuda.mma: PTX's register-fragment tensor-core instructions (mma.sync,
ldmatrix, cp.async), cuhost's extension (numba-cuda has none).

Fragments are tuples of the lane's 32-bit registers laid out as PTX's ISA
documents them for each lane of the warp, so kernels can keep them in
registers and feed them from shared memory as fast GEMMs do::

    a = cuda.mma.ldmatrix(sA, row_offset)               # 4 x uint32 (x4)
    b = cuda.mma.ldmatrix(sB, row_offset, 2, trans=True)
    d = cuda.mma.mma_sync(cuda.mma.m16n8k16_f16, a, b, (acc0, acc1, acc2, acc3))
    cuda.mma.cp_async(sA, dst_offset, A, src_offset)     # 16 bytes, global -> shared
    cuda.mma.commit_group()
    cuda.mma.wait_group(1)

Typing and lowering live in the engine (sema/typing/mma.cpp,
codegen/lowering/mma.cpp); docs/HOPPER.md describes the layouts, the CPU
backend's model and its rounding. On the host these names only exist to be
referenced from kernels.
"""
from .device_api import _DeviceConstant, _DeviceOnly

__all__ = ["mma_sync", "ldmatrix", "cp_async", "commit_group", "wait_group", "to_tf32", "m16n8k16_f16",
           "m16n8k16_bf16", "m16n8k8_tf32", "m16n8k32_e4m3", "m16n8k32_e5m2"]


mma_sync = _DeviceOnly("mma.mma_sync")
ldmatrix = _DeviceOnly("mma.ldmatrix")
cp_async = _DeviceOnly("mma.cp_async")
commit_group = _DeviceOnly("mma.commit_group")
wait_group = _DeviceOnly("mma.wait_group")
to_tf32 = _DeviceOnly("mma.to_tf32")
m16n8k16_f16 = _DeviceConstant("mma.m16n8k16_f16")
m16n8k16_bf16 = _DeviceConstant("mma.m16n8k16_bf16")
m16n8k8_tf32 = _DeviceConstant("mma.m16n8k8_tf32")
m16n8k32_e4m3 = _DeviceConstant("mma.m16n8k32_e4m3")
m16n8k32_e5m2 = _DeviceConstant("mma.m16n8k32_e5m2")
