"""The GPU architectures cuhost compiles for.

numba-cuda asks NVRTC which compute capabilities it supports; cuhost's
kernels are compiled by LLVM's NVPTX backend, so the supported list is that
backend's processors (engine/codegen/nvptx_backend.cpp). numba's names in
numba.cuda.cudadrv.nvrtc re-export these.
"""
import _cuhost


def get_supported_ccs():
    """The compute capabilities PTX can be emitted for, as ascending (major, minor) tuples."""
    return [tuple(cc) for cc in _cuhost._supported_ccs()]


def get_lowest_supported_cc():
    return min(get_supported_ccs())


def find_closest_arch(cc):
    """The supported compute capability closest to `cc` from below (the
    newest one for newer chips); CCSupportError when `cc` is older than all."""
    from .cudadrv.error import CCSupportError

    cc = tuple(cc[:2])
    supported = get_supported_ccs()
    if cc < supported[0]:
        raise CCSupportError("GPU compute capability %d.%d is not supported (requires >=%d.%d)"
                             % (cc + supported[0]))
    return max(s for s in supported if s <= cc)
