"""numba.cuda.memory_management.nrt: the kernels' heap allocations and their statistics.

numba-cuda's NRT is a device-side allocator with reference counting: with
numba.cuda.config.CUDA_ENABLE_NRT on, kernels and device functions create
arrays (np.empty, np.zeros, np.arange, ...) on the heap, and each is freed
when its last reference dies (docs/NRT.md). `rtsys` reports how many
allocations and frees (of memory and of meminfo records) kernels made while
counting was on; tests compare those counts around a piece of work to find
leaks. The counters live where kernels update them atomically (device
memory on the GPU, the runtime's memory on the CPU backend); `_cuhost`
reads and switches them.
"""

import os as _os
from collections import namedtuple

import _cuhost

from .. import config as _config

__all__ = ["rtsys", "get_include"]


def get_include():
    """The folder of nrt.cuh, which foreign CUDA C++ includes to call NRT_Allocate/NRT_Free."""
    return _os.path.dirname(_os.path.abspath(__file__))


_nrt_mstats = namedtuple("nrt_mstats", ["alloc", "free", "mi_alloc", "mi_free"])


class _Runtime:
    """The one allocation-statistics runtime of the process (numba's rtsys)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._stats_enabled = False
        return cls._instance

    # numba-cuda compiles and loads its allocator module on first use;
    # cuhost's lives in each kernel's module, so initialization only applies
    # the NUMBA_CUDA_NRT_STATS setting.
    def initialize(self, stream=None):
        if _config.CUDA_NRT_STATS:
            self.memsys_enable_stats(stream)

    def ensure_initialized(self, stream=None):
        pass

    def allocate(self, stream=None):
        pass

    def ensure_allocated(self, stream=None):
        pass

    def close(self):
        self.memsys_disable_stats()

    def memsys_enable_stats(self, stream=None):
        """Start counting allocations and frees."""
        _cuhost._nrt_set_counting(True)
        self._stats_enabled = True

    def memsys_disable_stats(self, stream=None):
        """Stop counting."""
        _cuhost._nrt_set_counting(False)
        self._stats_enabled = False

    def memsys_stats_enabled(self, stream=None):
        return self._stats_enabled

    def get_allocation_stats(self, stream=None):
        """(alloc, free, mi_alloc, mi_free) so far; RuntimeError when stats are disabled."""
        if not self._stats_enabled:
            raise RuntimeError("NRT stats are disabled.")
        return _nrt_mstats(*_cuhost._nrt_counts())

    def memsys_get_stats_alloc(self, stream=None):
        return self.get_allocation_stats().alloc

    def memsys_get_stats_free(self, stream=None):
        return self.get_allocation_stats().free

    def memsys_get_stats_mi_alloc(self, stream=None):
        return self.get_allocation_stats().mi_alloc

    def memsys_get_stats_mi_free(self, stream=None):
        return self.get_allocation_stats().mi_free

    def print_memsys(self, stream=None):
        print(self.get_allocation_stats())


rtsys = _Runtime()
