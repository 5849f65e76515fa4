"""Stand-in for numba-cuda's `numba.cuda.testing` (test infrastructure).

The wheel's own module imports cuda-python's pathfinder, numba-cuda's driver
internals and pytest fixtures from numba-cuda's source tree, none of which
exist inside cuhost. This file gives the same base class and skip decorators
with the skip conditions of a real GPU of compute capability 9.0 (never the
simulator): a test is skipped only for what the machine lacks (a tool, a
header, a library), never because it fails under cuhost. On cuhost's CPU
backend the device counts as compute capability 9.0 as well.
"""
import os
import platform
import shutil
import unittest
from io import StringIO
from pathlib import Path

import numpy as np

from numba import cuda
from numba.cuda import config
from numba.cuda.tests.support import TestCase

numba_cuda_dir = Path(__file__).parent
test_data_dir = numba_cuda_dir / "tests" / "data"


def _config(name, default):
    return getattr(config, name, default)


class CUDATestCase(TestCase):
    """Base class of tests that use a CUDA device; FileCheck assertions on a
    dispatcher's assembly or LLVM IR (patterns in the kernel's docstring)."""

    FLOAT16_RTOL = np.finfo(np.float16).eps
    _dump_failed_filechecks = False

    def setUp(self):
        self._low_occupancy_warnings = _config("CUDA_LOW_OCCUPANCY_WARNINGS", 0)
        self._warn_on_implicit_copy = _config("CUDA_WARN_ON_IMPLICIT_COPY", 0)
        config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
        config.CUDA_WARN_ON_IMPLICIT_COPY = 0

    def tearDown(self):
        config.CUDA_LOW_OCCUPANCY_WARNINGS = self._low_occupancy_warnings
        config.CUDA_WARN_ON_IMPLICIT_COPY = self._warn_on_implicit_copy

    @staticmethod
    def _ir_texts(result, signature):
        if isinstance(result, str):
            assert signature is None, "Cannot use signature because the kernel was only compiled for one signature"
            return [result]
        return list(result.values()) if signature is None else [result[signature]]

    def _filecheck_dispatcher(self, texts, dispatcher, prefixes, options):
        assert texts, "No output found for the given signature."
        assert dispatcher.__doc__ is not None, (
            "Kernel docstring is required. To pass checks explicitly, use assertFileCheckMatches.")
        for text in texts:
            assert text, "IR content is empty for the given signature."
            self.assertFileCheckMatches(text, check_patterns=dispatcher.__doc__, check_prefixes=prefixes, **options)

    def assertFileCheckAsm(self, ir_producer, signature=None, check_prefixes=("ASM",), **extra_filecheck_options):
        self._filecheck_dispatcher(self._ir_texts(ir_producer.inspect_asm(), signature), ir_producer,
                                   check_prefixes, extra_filecheck_options)

    def assertFileCheckLLVM(self, ir_producer, signature=None, check_prefixes=("LLVM",), **extra_filecheck_options):
        self._filecheck_dispatcher(self._ir_texts(ir_producer.inspect_llvm(), signature), ir_producer,
                                   check_prefixes, extra_filecheck_options)

    def assertFileCheckMatches(self, ir_content, check_patterns, check_prefixes=("CHECK",),
                               **extra_filecheck_options):
        """FileCheck (the `filecheck` package, a test dependency) of ir_content."""
        from filecheck.finput import FInput
        from filecheck.matcher import Matcher
        from filecheck.options import Options
        from filecheck.parser import Parser, pattern_for_opts

        opts = Options(match_filename="-", check_prefixes=list(check_prefixes), **extra_filecheck_options)
        parser = Parser(opts, StringIO(check_patterns), *pattern_for_opts(opts))
        matcher = Matcher(opts, FInput(fname="-", content=ir_content), parser)
        matcher.stderr = StringIO()
        if matcher.run() != 0:
            self.fail("FileCheck failed:\n%s" % matcher.stderr.getvalue())


# --- skip conditions: what the machine has -----------------------------------

def skip_on_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(_config("ENABLE_CUDASIM", False), reason)


def skip_unless_cudasim(reason):
    assert isinstance(reason, str)
    return unittest.skipUnless(_config("ENABLE_CUDASIM", False), reason)


def _has_base_numba():
    try:
        from numba.cuda import HAS_NUMBA
    except ImportError:
        return False
    return bool(HAS_NUMBA)


skip_on_standalone_numba_cuda = unittest.skipUnless(_has_base_numba(), "requires base numba install")


def skip_unless_conda_cudatoolkit(reason):
    assert isinstance(reason, str)
    prefix = os.environ.get("CONDA_PREFIX")
    conda_toolkit = bool(prefix) and os.path.isdir(os.path.join(prefix, "nvvm"))
    return unittest.skipUnless(conda_toolkit, reason)


def skip_if_external_memmgr(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(_config("CUDA_MEMORY_MANAGER", "default") != "default", reason)


def skip_under_cuda_memcheck(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def _cuda_home():
    return os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"


def _nvdisasm():
    return shutil.which("nvdisasm") or (
        os.path.join(_cuda_home(), "bin", "nvdisasm")
        if os.path.exists(os.path.join(_cuda_home(), "bin", "nvdisasm")) else None)


def skip_without_nvdisasm(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(_nvdisasm() is None, reason)


def skip_with_nvdisasm(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(_nvdisasm() is not None, reason)


def skip_on_arm(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(platform.machine().lower().startswith(("arm", "aarch")), reason)


def skip_on_wsl2(reason):
    assert isinstance(reason, str)
    return unittest.skipIf("wsl2" in platform.release().lower(), reason)


def _include_dir():
    return _config("CUDA_INCLUDE_PATH", None) or os.path.join(_cuda_home(), "include")


def skip_if_cuda_includes_missing(fn):
    return unittest.skipUnless(os.path.isfile(os.path.join(_include_dir(), "cuda.h")),
                               "CUDA include dir not available on this system")(fn)


def skip_if_curand_kernel_missing(fn):
    return unittest.skipUnless(os.path.isfile(os.path.join(_include_dir(), "curand_kernel.h")),
                               "curand_kernel.h not available on this system")(fn)


def _compute_capability():
    if getattr(cuda, "backend", lambda: "cuda")() != "cuda":
        return (9, 0)  # the CPU backend stands for a compute capability 9.0 device
    return tuple(cuda.get_current_device().compute_capability)


def cc_X_or_above(major, minor):
    return _compute_capability() >= (major, minor)


def skip_unless_cc_50(fn):
    return unittest.skipUnless(cc_X_or_above(5, 0), "requires cc >= 5.0")(fn)


def skip_unless_cc_53(fn):
    return unittest.skipUnless(cc_X_or_above(5, 3), "requires cc >= 5.3")(fn)


def skip_unless_cc_60(fn):
    return unittest.skipUnless(cc_X_or_above(6, 0), "requires cc >= 6.0")(fn)


def skip_unless_cc_75(fn):
    return unittest.skipUnless(cc_X_or_above(7, 5), "requires cc >= 7.5")(fn)


def skip_unless_cc_90(fn):
    return unittest.skipUnless(cc_X_or_above(9, 0), "requires cc >= 9.0")(fn)


def xfail_unless_cudasim(fn):
    return fn if _config("ENABLE_CUDASIM", False) else unittest.expectedFailure(fn)


def cudadevrt_missing():
    lib = os.path.join(_cuda_home(), "lib64", "libcudadevrt.a")
    return not os.path.isfile(lib)


def skip_if_cudadevrt_missing(fn):
    return unittest.skipIf(cudadevrt_missing(), "cudadevrt missing")(fn)


def skip_if_nvjitlink_missing(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(False, reason)  # cuhost links with nvJitLink always


def skip_on_nvjitlink_13_1_sm_120(reason):
    assert isinstance(reason, str)
    return unittest.skipIf(_compute_capability() == (12, 0), reason)


class ForeignArray:
    """Hides a device array behind its __cuda_array_interface__ alone, as an
    array from another library looks."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
