"""numba.cuda.memory_management.nrt: statistics of kernels' heap allocations.

numba-cuda's NRT is a device-side allocator with reference counting that
kernels use for arrays they create (np.empty, arr.copy() ...); `rtsys`
reports how many allocations and frees (of memory and of meminfo records)
kernels made, and tests compare those counts around a piece of work to find
leaks.

Arrays a cuhost kernel creates live in local, shared or constant memory
(cuda.local.array, cuda.shared.array, global NumPy arrays); no kernel calls
a heap allocator, so the counters below count real events and stay zero.
A kernel feature that allocates must report through `_record`.
"""
from collections import namedtuple

from .._missing import missing as _missing

__all__ = ["rtsys"]

# The folder of numba-cuda's NRT C headers, for foreign code that calls the
# allocator: cuhost ships no such allocator.
_missing(globals(), "get_include", " (cuhost kernels have no device heap allocator)")

_nrt_mstats = namedtuple("nrt_mstats", ["alloc", "free", "mi_alloc", "mi_free"])


class _Runtime:
    """The one allocation-statistics runtime of the process (numba's rtsys)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._stats_enabled = False
            cls._instance._counts = {"alloc": 0, "free": 0, "mi_alloc": 0, "mi_free": 0}
        return cls._instance

    # numba-cuda compiles and loads its allocator module on first use; cuhost
    # has none to load, so initialization only has to be idempotent.
    def initialize(self, stream=None):
        pass

    def ensure_initialized(self, stream=None):
        pass

    def allocate(self, stream=None):
        pass

    def ensure_allocated(self, stream=None):
        pass

    def close(self):
        self._stats_enabled = False

    def memsys_enable_stats(self, stream=None):
        """Start counting allocations and frees."""
        self._stats_enabled = True

    def memsys_disable_stats(self, stream=None):
        """Stop counting."""
        self._stats_enabled = False

    def memsys_stats_enabled(self, stream=None):
        return self._stats_enabled

    def _record(self, alloc=0, free=0, mi_alloc=0, mi_free=0):
        """Counts heap events of a finished launch (only while stats are enabled)."""
        if self._stats_enabled:
            c = self._counts
            c["alloc"] += alloc
            c["free"] += free
            c["mi_alloc"] += mi_alloc
            c["mi_free"] += mi_free

    def get_allocation_stats(self, stream=None):
        """(alloc, free, mi_alloc, mi_free) so far; RuntimeError when stats are disabled."""
        if not self._stats_enabled:
            raise RuntimeError("NRT stats are disabled.")
        return _nrt_mstats(**self._counts)

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
