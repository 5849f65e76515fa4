"""Modules loaded from PTX or cubins through the driver (numba-cuda's
Context.create_module_ptx / create_module_image): their functions and
__device__ variables. cuhost's own kernels are loaded by its C++ runtime;
these are for code the script brings as text or binaries.

The CPU backend runs only what cuhost compiles: loading PTX or a cubin
there raises CudaAPIError (CUDA_ERROR_NOT_SUPPORTED) saying so.
"""
import weakref

import _cuhost

from .._bindings import driver as binding
from . import _memory
from ._driver_object import driver


class FuncAttr:
    """A function's resource use (numba's FuncAttr)."""

    def __init__(self, regs, shared, local, const, maxthreads):
        self.regs = regs
        self.shared = shared
        self.local = local
        self.const = const
        self.maxthreads = maxthreads

    def __repr__(self):
        return "FuncAttr(regs=%d, shared=%d, local=%d, const=%d, maxthreads=%d)" % (
            self.regs, self.shared, self.local, self.const, self.maxthreads)


class CudaPythonModule:
    """A loaded module: get_function(name), get_global_symbol(name), unload()."""

    def __init__(self, context, handle, setup_callbacks=None, teardown_callbacks=None):
        self.context = context
        self.handle = handle
        self._teardown_callbacks = list(teardown_callbacks or ())
        self._loaded = True
        for callback in setup_callbacks or ():
            callback(self)

    def get_function(self, name):
        return CudaPythonFunction(self, driver.cuModuleGetFunction(self.handle, name), name)

    def get_global_symbol(self, name):
        """(MemoryPointer to the variable, its size in bytes)."""
        pointer, size = driver.cuModuleGetGlobal(self.handle, name)
        return _memory.MemoryPointer(self.context, pointer, size), size

    def unload(self):
        if not self._loaded:
            return
        for callback in self._teardown_callbacks:
            callback(self)
        self._loaded = False
        driver.cuModuleUnload(self.handle)

    def __repr__(self):
        return "<CUDA module 0x%x>" % int(self.handle)


class CudaPythonFunction:
    """A function of a loaded module: its handle (`kernel` for launches through
    cuda.core), its attributes and cache configuration."""

    griddim = 1, 1, 1
    blockdim = 1, 1, 1
    stream = 0
    sharedmem = 0

    def __init__(self, module, handle, name):
        self.module = module
        self.handle = handle
        self.kernel = handle
        self.name = name
        attr = binding.CUfunction_attribute
        get = lambda a: driver.cuFuncGetAttribute(a, handle)  # noqa: E731
        self.attrs = FuncAttr(regs=get(attr.CU_FUNC_ATTRIBUTE_NUM_REGS),
                              shared=get(attr.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
                              local=get(attr.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
                              const=get(attr.CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES),
                              maxthreads=get(attr.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK))

    def __repr__(self):
        return "<CUDA function %s>" % self.name

    @property
    def device(self):
        return self.module.context.device

    def cache_config(self, prefer_equal=False, prefer_cache=False, prefer_shared=False):
        cache_config_for(self.handle, prefer_equal, prefer_cache, prefer_shared)

    def set_shared_memory_carveout(self, carveout):
        set_carveout_for(self.handle, carveout)


def cache_config_for(handle, prefer_equal=False, prefer_cache=False, prefer_shared=False):
    """cuFuncSetCacheConfig with numba's flags (the last one given wins)."""
    cache = binding.CUfunc_cache
    flag = cache.CU_FUNC_CACHE_PREFER_NONE
    if prefer_equal:
        flag = cache.CU_FUNC_CACHE_PREFER_EQUAL
    elif prefer_cache:
        flag = cache.CU_FUNC_CACHE_PREFER_L1
    elif prefer_shared:
        flag = cache.CU_FUNC_CACHE_PREFER_SHARED
    driver.cuFuncSetCacheConfig(handle, flag)


def check_carveout(carveout):
    """ValueError unless `carveout` is -1 (the default) or a percentage 0-100."""
    carveout = int(carveout)
    if not (carveout == -1 or 0 <= carveout <= 100):
        raise ValueError("Carveout must be between -1 and 100")
    return carveout


def set_carveout_for(handle, carveout):
    attr = binding.CUfunction_attribute.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
    driver.cuFuncSetAttribute(handle, attr, check_carveout(carveout))


def _load(context, image, setup_callbacks, teardown_callbacks):
    if _cuhost.backend() != "cuda":
        raise _cuhost.CudaAPIError(binding.CUresult.CUDA_ERROR_NOT_SUPPORTED,
                                   "Call to cuModuleLoadData results in CUDA_ERROR_NOT_SUPPORTED: the CPU backend "
                                   "cannot load PTX or cubins (it runs the kernels cuhost compiles); run on a GPU")
    handle = driver.cuModuleLoadData(image)
    module = CudaPythonModule(weakref.proxy(context), handle, setup_callbacks, teardown_callbacks)
    context.modules[int(handle)] = module
    return module


def load_module_ptx(context, ptx):
    """Loads PTX text (str or bytes) as a module of `context`."""
    data = ptx.encode() if isinstance(ptx, str) else bytes(ptx)
    return _load(context, data + b"\0", None, None)


def load_module_image(context, image, setup_callbacks=None, teardown_callbacks=None):
    """Loads a cubin, fatbin or PTX image (bytes) as a module of `context`."""
    data = bytes(image)
    if not data.endswith(b"\0"):
        data += b"\0"
    return _load(context, data, setup_callbacks, teardown_callbacks)
