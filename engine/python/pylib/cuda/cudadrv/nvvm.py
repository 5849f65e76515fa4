"""numba.cuda.cudadrv.nvvm: NVVM, numba-cuda's LLVM-IR-to-PTX compiler.

cuhost does not use NVVM: it compiles kernels to PTX with LLVM's own NVPTX
backend and links libdevice itself, so is_available() is False. What code
written for numba-cuda does with this module to compile LLVM IR of its own
(an llvmlite module: add_ir_version, set_cuda_kernel, NVVM().data_layout,
compile_ir) goes to that NVPTX backend; the rest of the NVVM interface
raises NotImplementedError when used. The address-space numbers are the
NVPTX ones, which both compilers share.
"""
import _cuhost

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


# NVVM IR version 2.0 and debug metadata version 3.2 (NVVM 2.0, CUDA 12/13).
_IR_VERSION = (2, 0, 3, 2)
# The NVPTX target's data layout (LLVM 19), which compile_ir gives every module.
_DATA_LAYOUT = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"


class NVVM:
    """What numba-cuda code reads of its NVVM object: the data layout and the
    versions (those of NVVM 2.0, whose IR the NVPTX backend reads here)."""

    data_layout = _DATA_LAYOUT

    def get_version(self):
        return (2, 0)

    def get_ir_version(self):
        return _IR_VERSION

    @property
    def is_nvvm70(self):
        return True


def add_ir_version(mod):
    """Adds the nvvmir.version named metadata to an llvmlite module."""
    i32 = _llvmlite_ir().IntType(32)
    mod.add_named_metadata("nvvmir.version", [i32(v) for v in _IR_VERSION])


def set_cuda_kernel(function):
    """Marks an llvmlite function as a kernel (nvvm.annotations' "kernel")."""
    ir = _llvmlite_ir()
    module = function.module
    md = module.add_metadata([function, ir.MetaDataString(module, "kernel"), ir.IntType(32)(1)])
    module.add_named_metadata("nvvm.annotations", md)


def set_launch_bounds(kernel, max_threads_per_block, min_blocks_per_sm=None, max_blocks_per_cluster=None):
    """Adds the maxntidx / minctasm / maxclusterrank annotations of a kernel."""
    ir = _llvmlite_ir()
    module = kernel.module
    for key, value in (("maxntidx", max_threads_per_block), ("minctasm", min_blocks_per_sm),
                       ("maxclusterrank", max_blocks_per_cluster)):
        if value:
            md = module.add_metadata([kernel, ir.MetaDataString(module, key), ir.IntType(32)(int(value))])
            module.add_named_metadata("nvvm.annotations", md)


def compile_ir(llvmir, **options):
    """PTX (bytes) for LLVM IR text or a list of texts (llvmlite modules'
    str()), linked into one module as NVVM's compilation unit does and
    compiled by LLVM's NVPTX backend for `arch` ("compute_90"; default: the
    current device), at `opt` (0-3, default 3), with `fastmath`. Malformed
    IR is an NvvmError."""
    texts = [llvmir] if isinstance(llvmir, (str, bytes)) else list(llvmir)
    texts = [t.decode() if isinstance(t, bytes) else str(t) for t in texts]
    arch = options.get("arch")
    if arch:
        digits = "".join(ch for ch in str(arch) if ch.isdigit())
        major, minor = int(digits[:-1]), int(digits[-1])
    else:
        major, minor = _cuhost._current_cc()
    try:
        ptx = _cuhost._compile_ir_to_ptx(texts, major, minor, int(options.get("opt", 3)),
                                         bool(options.get("fastmath", False)))
    except _cuhost.CompileError as e:
        raise NvvmError("Failed to compile\n\n%s" % (e,)) from e
    return ptx.encode()


def _llvmlite_ir():
    from llvmlite import ir

    return ir


_missing(globals(), """
    CompilationUnit LibDevice llvm_replace
    llvm150_to_70_ir ir_cas ir_numba_atomic_binary ir_numba_atomic_minmax ir_numba_atomic_inc ir_numba_atomic_dec
""")
