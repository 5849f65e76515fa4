"""The driver object of numba-cuda's driver layer (numba's Driver), below the
devices and contexts that use it.

`driver` calls the driver entry points of cuda.bindings.driver and raises
CudaAPIError when one fails; it initializes lazily (its first use calls
`driver.cuInit(0)`), and records why it could not (NUMBA_DISABLE_CUDA, a
failed cuInit) for cuda.cuda_error(). On the CPU backend the entry points
are the CPU device's (engine/cpu/driver_model.h). Module loading, linking
and the memory managers reach the driver here without going through the
contexts (_contexts.py), which in turn use them.
"""
import functools
import os
import threading

import _cuhost

from .. import config
from .._bindings import driver as binding
from .error import CudaDriverError, CudaSupportError

CudaAPIError = _cuhost.CudaAPIError

# numba-cuda's default-stream flag and the lowest compute capability it supports.
CU_STREAM_DEFAULT = 0
MIN_REQUIRED_CC = (3, 5)

_DISABLED_MESSAGE = ("CUDA is disabled due to setting NUMBA_DISABLE_CUDA=1 in the environment, or because CUDA is "
                     "unsupported on 32-bit systems.")


class Driver:
    """The CUDA driver (numba's Driver): `driver.cuXxx(...)` calls the entry
    point and returns its outputs (one value, a tuple, or None), raising
    CudaAPIError(code, "Call to cuXxx results in CUDA_ERROR_...") on failure."""

    _singleton = None

    def __new__(cls):
        if cls._singleton is None:
            cls._singleton = object.__new__(cls)
        return cls._singleton

    def __init__(self):
        if getattr(self, "_constructed", False):
            return
        self._constructed = True
        self.devices = {}
        self.is_initialized = False
        self.initialization_error = None
        self.pid = None
        if config.DISABLE_CUDA:
            self.is_initialized = True
            self.initialization_error = _DISABLED_MESSAGE

    def ensure_initialized(self):
        if self.is_initialized:
            return
        self.is_initialized = True
        try:
            self.cuInit(0)
        except CudaAPIError as e:
            description = "%s (%s)" % (e.msg, e.code)
            self.initialization_error = description
            raise CudaSupportError("Error at driver init: %s" % description) from e
        else:
            self.pid = os.getpid()

    @property
    def is_available(self):
        self.ensure_initialized()
        return self.initialization_error is None

    def __getattr__(self, fname):
        if fname.startswith("_"):
            raise AttributeError(fname)
        self.ensure_initialized()
        if self.initialization_error is not None:
            raise CudaSupportError("Error at driver init: \n%s:" % self.initialization_error)
        libfn = getattr(binding, fname)

        def safe_cuda_api_call(*args):
            return self._check_error(fname, libfn(*args))

        safe_cuda_api_call = functools.wraps(libfn)(safe_cuda_api_call)
        safe_cuda_api_call._cuhost_entry_point = True
        setattr(self, fname, safe_cuda_api_call)
        return safe_cuda_api_call

    # numba-cuda makes its synchronous host<->device copies through these
    # entry points, and code written for it replaces them to watch or forbid
    # transfers; cuhost's copies are C++, so a replacement is handed to them
    # (python/transfer_overrides.h) and the driver's own function takes back.
    _TRANSFER_ENTRY_POINTS = {"cuMemcpyHtoD": "htod", "cuMemcpyDtoH": "dtoh"}

    def __setattr__(self, name, value):
        kind = self._TRANSFER_ENTRY_POINTS.get(name)
        if kind is not None:
            _cuhost._set_transfer_override(kind, None if getattr(value, "_cuhost_entry_point", False) else value)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        kind = self._TRANSFER_ENTRY_POINTS.get(name)
        if kind is not None:
            _cuhost._set_transfer_override(kind, None)
        object.__delattr__(self, name)

    def _detect_fork(self):
        if self.pid is not None and os.getpid() != self.pid:
            raise CudaDriverError("CUDA initialized before forking")

    def _check_error(self, fname, returned):
        retcode, retval = returned[0], returned[1:]
        if retcode != binding.CUresult.CUDA_SUCCESS:
            name = getattr(retcode, "name", str(retcode))
            if retcode == binding.CUresult.CUDA_ERROR_NOT_INITIALIZED:
                self._detect_fork()
            raise CudaAPIError(retcode, "Call to %s results in %s" % (fname, name))
        if len(retval) == 1:
            return retval[0]
        return retval or None

    def get_device(self, devnum=0):
        dev = self.devices.get(devnum)
        if dev is None:
            dev = _device_class(devnum)
            self.devices[devnum] = dev
        return dev

    def get_device_of_identity(self, identity):
        """The device whose get_device_identity() is `identity` (numba's Device.from_identity)."""
        for devid in range(self.get_device_count()):
            d = self.get_device(devid)
            if d.get_device_identity() == identity:
                return d
        raise RuntimeError("No device of %s is found. Target device may not be visible in this process." % identity)

    def get_device_count(self):
        return self.cuDeviceGetCount()

    def list_devices(self):
        return list(self.devices.values())

    def reset(self):
        for dev in self.devices.values():
            dev.reset()

    def pop_active_context(self):
        """Pops the thread's current context and returns its handle (None when none is current)."""
        with self.get_active_context() as ac:
            if ac.devnum is not None:
                return self.cuCtxPopCurrent()
        return None

    def get_active_context(self):
        return _ActiveContext()

    def get_version(self):
        """The driver's version as (major, minor)."""
        version = self.cuDriverGetVersion()
        major = version // 1000
        return major, (version - major * 1000) // 10


class _ActiveContext:
    """The thread's current context while the block runs: `context_handle`
    (None when there is none) and `devnum`."""

    _tls_cache = threading.local()

    def __enter__(self):
        is_top = False
        cache = self._tls_cache
        try:
            hctx, devnum = cache.ctx_devnum
        except AttributeError:
            hctx = driver.cuCtxGetCurrent()
            if int(hctx) == 0:
                hctx = None
            if hctx is None:
                devnum = None
            else:
                devnum = int(driver.cuCtxGetDevice())
                cache.ctx_devnum = (hctx, devnum)
                is_top = True
        self._is_top = is_top
        self.context_handle = hctx
        self.devnum = devnum
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self._is_top:
            del self._tls_cache.ctx_devnum

    def __bool__(self):
        return self.context_handle is not None


def _no_device_class(devnum):
    raise RuntimeError("cuda.cudadrv needs its _contexts module imported (it registers the Device class)")


# The Device class lives with the contexts (_contexts.py), which are built on
# this driver object: _contexts.py registers it when it is imported.
_device_class = _no_device_class


def register_device_class(cls):
    global _device_class
    _device_class = cls


driver = Driver()


def require_driver():
    """Initializes the driver on first use; CudaSupportError when it cannot be used."""
    d = driver
    if not d.is_initialized:
        d.ensure_initialized()
    if d.initialization_error is not None:
        raise CudaSupportError("Error at driver init: \n%s:" % d.initialization_error)
