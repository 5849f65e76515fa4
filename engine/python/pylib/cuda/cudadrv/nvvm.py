"""numba.cuda.cudadrv.nvvm: NVVM, numba-cuda's LLVM-IR-to-PTX compiler.

cuhost does not use NVVM: it compiles kernels to PTX with LLVM's own NVPTX
backend and links libdevice itself. So is_available() is False and the
NVVM interface raises NotImplementedError when used. The address-space
numbers are the NVPTX ones, which both compilers share.
"""
from .._missing import missing as _missing
from .error import NvvmError, NvvmSupportError, NvvmWarning  # noqa: F401

ADDRSPACE_GENERIC = 0
ADDRSPACE_GLOBAL = 1
ADDRSPACE_SHARED = 3
ADDRSPACE_CONSTANT = 4
ADDRSPACE_LOCAL = 5


class nvvmError(Exception):
    def __str__(self):
        return "\n".join(map(str, self.args))


def is_available():
    """False: cuhost compiles without NVVM."""
    return False


_missing(globals(), """
    NVVM CompilationUnit LibDevice compile_ir llvm_replace set_cuda_kernel set_launch_bounds add_ir_version
    llvm150_to_70_ir ir_cas ir_numba_atomic_binary ir_numba_atomic_minmax ir_numba_atomic_inc ir_numba_atomic_dec
""")
