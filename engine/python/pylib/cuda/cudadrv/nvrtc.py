"""numba.cuda.cudadrv.nvrtc: NVRTC, the CUDA C++ compiler.

cuhost compiles CUDA C++ with NVRTC in C++ (engine/cuda/nvrtc.cpp: the
include paths of `.cu` link items, a content-keyed cache); `compile` is that
compiler, and the architecture helpers answer from the NVRTC cuhost is built
with (the compute capabilities it supports).
"""
import functools
import warnings

import _cuhost

from .. import config as _config
from ..utils import _readenv
from .error import CCSupportError, NvrtcError  # noqa: F401

# Colon-separated folders searched for #includes after the CUDA include directory.
NVRTC_EXTRA_SEARCH_PATHS = _readenv("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", str, "") or getattr(
    _config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")


@functools.cache
def _get_nvrtc_version():
    """(major, minor) of NVRTC."""
    major, _, minor = _cuhost.versions()["nvrtc"].partition(".")
    return int(major), int(minor or 0)


def get_supported_ccs():
    """The compute capabilities NVRTC compiles for, ascending, as (major, minor)."""
    return [(arch // 10, arch % 10) for arch in _cuhost._nvrtc_supported_archs()]


def get_lowest_supported_cc():
    return min(get_supported_ccs())


def _cc_text(cc):
    return ".".join(str(v) for v in cc)


def find_closest_arch(cc):
    """The highest supported compute capability not above `cc` (CCSupportError
    when `cc` is below them all)."""
    supported = get_supported_ccs()
    for i, candidate in enumerate(supported):
        if candidate == tuple(cc):
            return candidate
        if candidate > tuple(cc):
            if i == 0:
                raise CCSupportError("GPU compute capability %d.%d is not supported(requires >=%d.%d)" %
                                     (tuple(cc) + candidate))
            return supported[i - 1]
    return supported[-1]


def get_arch_option(major, minor, arch=""):
    """The NVRTC architecture option ("compute_XY" plus an "a"/"f" suffix)
    for a compute capability: NUMBA_FORCE_CUDA_CC when set, else the closest
    supported one. An architecture-specific suffix needs an exact match."""
    if _config.FORCE_CUDA_CC:
        forced = _config.FORCE_CUDA_CC
        major, minor = forced[0], forced[1]
        arch = forced[2] if len(forced) == 3 else ""
    else:
        new_major, new_minor = find_closest_arch((major, minor))
        if (new_major, new_minor) != (major, minor) and arch != "":
            raise ValueError("Can't use arch-specific compute_%d%d%s with closest found compute capability "
                             "compute_%d%d" % (major, minor, arch, new_major, new_minor))
        major, minor = new_major, new_minor
    return "compute_%d%d%s" % (major, minor, arch)


def _verify_cc_tuple(cc):
    """(major, minor, suffix) of the supported compute capability to compile
    `cc` for (a warning when it is not `cc` itself)."""
    if len(cc) == 3:
        cc, arch = (cc[0], cc[1]), cc[2]
    else:
        cc, arch = tuple(cc), ""
    if arch not in ("", "a", "f"):
        raise ValueError("Invalid architecture suffix '%s' in compute capability %s%s. Expected '', 'a', or 'f'." %
                         (arch, _cc_text(cc), arch))
    supported = get_supported_ccs()
    below = [v for v in supported if v <= cc]
    if not below:
        raise RuntimeError("Device compute capability %s is less than the minimum supported by NVRTC %s. Supported "
                           "compute capabilities are %s." % (_cc_text(cc), _cc_text(_get_nvrtc_version()),
                                                             ", ".join(_cc_text(v) for v in supported)))
    found = max(below)
    if found != cc:
        warnings.warn("Device compute capability %s is not supported by NVRTC %s. Using %s instead." %
                      (_cc_text(cc), _cc_text(_get_nvrtc_version()), _cc_text((*found, arch))))
    return found[0], found[1], arch


def compile(src, name, cc, ltoir=False, lineinfo=False, debug=False):
    """CUDA C/C++ source to PTX (or LTO-IR) for compute capability `cc`:
    returns (code, log) as numba-cuda 0.30 does: `code` a cuda.core
    ObjectCode (its `code` the PTX or LTO-IR as bytes, `code_type` "ptx" or
    "ltoir", `name`), `log` NVRTC's messages as a list ("" when there are
    none). A non-empty log is also reported as a UserWarning "NVRTC log
    messages: ..."; errors raise NvrtcError with it."""
    major, minor, suffix = _verify_cc_tuple(cc)
    if isinstance(src, bytes):
        src = src.decode("utf8")
    options = []
    if lineinfo:
        options.append("-lineinfo")
    if debug:
        options.append("-G")
    code, log = _cuhost._nvrtc_compile(src, name, major, minor, suffix, bool(ltoir), options)
    from ..core._cuda_python import ObjectCode

    return ObjectCode(code, "ltoir" if ltoir else "ptx", name), ([log] if log else "")
