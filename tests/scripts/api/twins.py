# numba-cuda's module paths and cuhost's are one module each: `numba.cuda.X`
# is the very module `cuda.X` (same object, one execution), numba's own
# error/type/extension paths lead to numba-cuda's modules, and
# numba.cuda.core.config is numba.cuda.config.
# stdout: twins ok
import importlib
import sys

import cuda
import numba
from numba import cuda as numba_cuda

assert numba_cuda is cuda and numba.cuda is cuda
assert sys.modules["numba.cuda"] is cuda, sys.modules.get("numba.cuda")

twins = ["types", "typing", "typing.templates", "typing.typeof", "core", "core.errors", "np", "np.numpy_support",
         "cudadrv", "cudadrv.driver", "cudadrv.devicearray", "cudadrv.devices", "cudadrv.linkable_code",
         "cudadrv.nvrtc", "cudadrv.error", "cudadrv.runtime", "cudadrv.libs", "cudadrv.dummyarray", "cudadrv.nvvm",
         "compiler", "dispatcher", "extending", "utils", "args", "kernels", "kernels.reduction", "launchconfig",
         "libdevice", "random", "cg", "fp16", "bf16", "vector_types", "errors", "api", "descriptor", "flags",
         "cudadecl", "cudaimpl", "serialize", "cuda_paths", "deviceufunc", "memory_management",
         "memory_management.nrt", "misc.special", "typeconv", "datamodel.models", "cloudpickle", "core.ir",
         "core.compiler_machinery", "libdevicefuncs", "config"]
for name in twins:
    a = importlib.import_module("numba.cuda." + name)
    b = importlib.import_module("cuda." + name)
    assert a is b, (name, a, b)
    assert sys.modules["numba.cuda." + name] is sys.modules["cuda." + name], name
    # The module keeps its real name and spec (imported once, under cuda.X).
    assert a.__name__ == "cuda." + name and a.__spec__.name == "cuda." + name, (name, a.__name__, a.__spec__)

# Attribute access on the package and import give the same objects.
assert numba_cuda.cudadrv.driver is importlib.import_module("numba.cuda.cudadrv.driver")
from numba.cuda.cudadrv import driver, devicearray  # noqa: E402
assert driver is cuda.cudadrv.driver and devicearray.DeviceNDArray is cuda.DeviceNDArray

# One configuration module under three names.
import numba.cuda.core.config as core_config  # noqa: E402
from numba.cuda import config  # noqa: E402
assert core_config is config is cuda.config is sys.modules["cuda.core.config"]

# numba's own paths (no base numba in cuhost) are numba-cuda's modules.
import numba.core.errors  # noqa: E402
import numba.errors  # noqa: E402
import numba.extending  # noqa: E402
import numba.core.extending  # noqa: E402
import numba.core.typing.typeof  # noqa: E402
assert numba.core.errors is numba.errors is cuda.core.errors
assert numba.extending is numba.core.extending is cuda.extending
assert numba.types is numba.core.types is cuda.types is sys.modules["numba.types"]
assert numba.core.typing.typeof is cuda.typing.typeof
assert numba.typeof is cuda.typing.typeof.typeof

# The names exported by both paths are the same objects.
from numba.cuda.cudadrv.linkable_code import CUSource  # noqa: E402
assert CUSource is cuda.CUSource is cuda.compiler.CUSource
from numba.cuda.compiler import compile_ptx  # noqa: E402
assert compile_ptx is cuda.compile_ptx
from numba.cuda.dispatcher import CUDADispatcher  # noqa: E402
assert isinstance(cuda.jit(lambda x: None), CUDADispatcher)

# A path numba-cuda does not have is still an import error, under both names.
for bad in ("numba.cuda.no_such_module", "cuda.no_such_module", "numba.cuda.cudadrv.no_such_module"):
    try:
        importlib.import_module(bad)
        raise AssertionError("imported " + bad)
    except ModuleNotFoundError:
        pass

# NVIDIA cuda-python's names that numba-cuda's tests import resolve inside cuhost.
from cuda.core._utils.cuda_utils import CUDAError, NVRTCError  # noqa: E402
import _cuhost  # noqa: E402
assert CUDAError is _cuhost.CudaAPIError and NVRTCError is _cuhost.NvrtcError
from cuda.bindings.driver import cuLibraryGetGlobal  # noqa: E402,F401

assert cuda.HAS_NUMBA is True  # cuhost's numba package: numba-cuda's interface (njit for kernels)
print("twins ok")
