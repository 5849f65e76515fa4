"""numba.cuda.cudadrv.runtime: the CUDA toolkit version cuhost runs with.

numba-cuda reports the toolkit by the version of its NVRTC; cuhost does the
same with the NVRTC it is built with.
"""
import _cuhost

SUPPORTED_TOOLKIT_MAJOR_VERSIONS = (12, 13)


def get_version():
    """(major, minor) of the CUDA toolkit (NVRTC) cuhost uses."""
    major, _, minor = _cuhost.versions()["nvrtc"].partition(".")
    return int(major), int(minor.split(".")[0] or 0)


class Runtime:
    """numba-cuda's runtime object: the toolkit version and whether it is supported."""

    def get_version(self):
        return get_version()

    def is_supported_version(self):
        return get_version()[0] in SUPPORTED_TOOLKIT_MAJOR_VERSIONS

    @property
    def supported_versions(self):
        return tuple((major, 0) for major in SUPPORTED_TOOLKIT_MAJOR_VERSIONS)


runtime = Runtime()
