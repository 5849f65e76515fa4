"""The names of NVIDIA's cuda-python `cuda.core` that numba-cuda code uses,
implemented over cuhost's devices, streams and driver layer.

cuda-python cannot be imported inside cuhost (cuhost's `cuda` package owns
the name), so cuhost provides the part of its API that code written for
numba-cuda reaches for: Device (set_current, create_stream,
create_graph_builder, ...), Stream (from_handle, sync, __cuda_stream__),
GraphBuilder and Graph (stream capture through cuhost.graph), LaunchConfig and launch() for driver
functions (CudaPythonFunction.kernel), and ObjectCode (what LinkableCode
setup and teardown callbacks receive). It follows cuda.core 1.0's API
(`__version__`). Program, ProgramOptions, Linker, LinkerOptions and Buffer
are not provided: they raise NotImplementedError when used.
"""
import collections
import ctypes

import numpy as np

import _cuhost

from .._missing import missing as _missing
from ..cudadrv._contexts import current_context, driver

__version__ = "1.0.0"

# Buffer, Linker, Program and their options are placeholders made by _missing below.
__all__ = ["Buffer", "Device", "Graph", "GraphBuilder", "LaunchConfig", "Linker", "LinkerOptions",  # noqa: F822
           "ObjectCode", "Program", "ProgramOptions", "Stream", "launch"]

_NOTE = " (part of NVIDIA cuda-python's cuda.core that cuhost does not provide)"
_missing(globals(), "Buffer Linker LinkerOptions Program ProgramOptions", _NOTE, prefix="cuda.core")

ComputeCapability = collections.namedtuple("ComputeCapability", ("major", "minor"))


class Stream:
    """A stream (cuda.core's Stream) over a cuhost stream: `handle` (the
    CUstream as an int), sync(), the CUDA stream protocol. cuhost's kernel
    launches and copies take it wherever they take a stream."""

    def __init__(self, stream):
        self._stream = stream

    @classmethod
    def from_handle(cls, handle):
        """A Stream for a CUstream created elsewhere (not owned)."""
        return cls(_cuhost.external_stream(int(handle)))

    @property
    def handle(self):
        return int(self._stream.handle)

    def __cuda_stream__(self):
        return (0, self.handle)

    def __int__(self):
        return self.handle

    def sync(self):
        """Waits for the work queued on the stream."""
        self._stream.synchronize()

    def close(self):
        self._stream = None

    @property
    def device(self):
        return Device()

    def __eq__(self, other):
        return isinstance(other, Stream) and other.handle == self.handle

    def __hash__(self):
        return hash(self.handle)

    def __repr__(self):
        return "<cuda.core Stream 0x%x>" % self.handle


class GraphBuilder(Stream):
    """cuda.core's GraphBuilder: a stream of its own whose kernel launches and
    copies, between begin_building() and end_building(), are captured rather
    than run (the capture of cuhost.graph.capture: CUDA stream capture on a
    GPU, a recorded replay on the CPU backend, with the same refusals);
    complete() gives the Graph, which launch(stream) runs."""

    def __init__(self, stream):
        super().__init__(stream._stream)
        self._capture = None
        self._graph = None

    def begin_building(self, mode="relaxed"):
        if self._capture is not None or self._graph is not None:
            raise RuntimeError("this GraphBuilder has already begun building")
        self._capture = _cuhost._graph_begin_capture(self._stream)
        return self

    @property
    def is_building(self):
        return self._capture is not None

    def end_building(self):
        if self._capture is None:
            raise RuntimeError("end_building() without begin_building()")
        handle, self._capture = self._capture, None
        graph = _cuhost.Graph()
        _cuhost._graph_end_capture(handle, graph, self._stream)
        self._graph = graph
        return self

    def complete(self, options=None):
        if self._graph is None:
            raise RuntimeError("complete() needs a graph built with begin_building() and end_building()")
        return Graph(self._graph)

    def close(self):
        if self._capture is not None:
            handle, self._capture = self._capture, None
            _cuhost._graph_abort_capture(handle)
        super().close()


class Graph:
    """cuda.core's Graph: an executable graph; launch(stream) runs it on the
    given stream (a cuda.core Stream, a numba stream, or anything with the
    CUDA stream protocol)."""

    def __init__(self, graph):
        self._graph = graph

    def launch(self, stream):
        self._graph.launch(getattr(stream, "_stream", stream))

    def close(self):
        self._graph = None


class Device:
    """A device (cuda.core's Device): Device() is the current one."""

    def __init__(self, device_id=None):
        self._id = _cuhost._current_device_id() if device_id is None else int(device_id)

    @property
    def device_id(self):
        return self._id

    @property
    def compute_capability(self):
        return ComputeCapability(_cuhost._device_attribute(self._id, "COMPUTE_CAPABILITY_MAJOR"),
                                 _cuhost._device_attribute(self._id, "COMPUTE_CAPABILITY_MINOR"))

    @property
    def name(self):
        return _cuhost._device_name(self._id)

    @property
    def uuid(self):
        return driver.get_device(self._id).uuid[len("GPU-"):]

    def set_current(self):
        """Makes the device current on this thread (its primary context)."""

        current_context(self._id)

    def create_stream(self, obj=None, options=None):
        """A new stream on the device (or a Stream over `obj`'s __cuda_stream__)."""
        if obj is not None:
            return Stream.from_handle(obj.__cuda_stream__()[1])
        return Stream(_cuhost.stream())

    def create_graph_builder(self):
        """A GraphBuilder: the work queued on it between begin_building() and
        end_building() becomes a graph (cuhost.graph's stream capture)."""
        return GraphBuilder(Stream(_cuhost.stream()))

    def sync(self):
        _cuhost.synchronize()

    def __eq__(self, other):
        return isinstance(other, Device) and other._id == self._id

    def __hash__(self):
        return hash(self._id)

    def __repr__(self):
        return "<cuda.core Device %d (%s)>" % (self._id, self.name)


def _dims(value):
    dims = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not 1 <= len(dims) <= 3 or any(int(d) < 1 for d in dims):
        raise ValueError("a launch dimension must be 1 to 3 positive ints, got %r" % (value,))
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


class LaunchConfig:
    """A launch's grid, block, dynamic shared memory and cooperativeness."""

    def __init__(self, grid=1, block=1, shmem_size=0, is_cooperative=False, cooperative_launch=None, cluster=None):
        self.grid = _dims(grid)
        self.block = _dims(block)
        self.shmem_size = int(shmem_size)
        self.is_cooperative = bool(is_cooperative if cooperative_launch is None else cooperative_launch)
        self.cluster = cluster

    @property
    def cooperative_launch(self):
        return self.is_cooperative


def _kernel_argument(arg):
    """A ctypes value holding one kernel argument (kept alive by the caller)."""
    if isinstance(arg, ctypes._SimpleCData):
        return arg
    if isinstance(arg, np.generic):
        return np.array(arg)
    if isinstance(arg, bool):
        return ctypes.c_bool(arg)
    if isinstance(arg, int):
        return ctypes.c_int64(arg)
    if isinstance(arg, float):
        return ctypes.c_double(arg)
    if hasattr(arg, "__cuda_array_interface__"):
        return ctypes.c_void_p(arg.__cuda_array_interface__["data"][0])
    raise TypeError("cannot pass %s to a kernel through launch()" % type(arg).__name__)


def _address(value):
    return value.ctypes.data if isinstance(value, np.ndarray) else ctypes.addressof(value)


def launch(stream, config, kernel, *args):
    """Launches a driver function (e.g. a CudaPythonFunction's `kernel`) on
    `stream`. cuhost's own kernels are launched with kernel[grid, block]."""

    if _cuhost.backend() != "cuda":
        raise _cuhost.CudaAPIError(801, "cuda.core.launch: the CPU backend runs only the kernels cuhost compiles; "
                                        "launch them with kernel[griddim, blockdim](...)")
    handle = stream.__cuda_stream__()[1] if hasattr(stream, "__cuda_stream__") else int(stream)
    if handle == 0:
        # Stream 0 is cuhost's default stream everywhere (never the legacy
        # null stream, which does not order with it): the copies numba's
        # driver functions make with stream 0 see this launch's results.
        handle = int(_cuhost.default_stream())
    values = [_kernel_argument(a) for a in args]
    params = (ctypes.c_void_p * max(1, len(values)))(*[_address(v) for v in values])
    if config.is_cooperative:
        raise NotImplementedError("cuda.core.launch of a cooperative kernel is not implemented in cuhost")
    driver.cuLaunchKernel(int(kernel), *config.grid, *config.block, config.shmem_size, int(handle),
                          ctypes.addressof(params), 0)


class ObjectCode:
    """Compiled or linkable code (cuda.core's ObjectCode): `code`,
    `code_type` and `name`; a loaded module's ObjectCode also has `handle`,
    the library the module was loaded as (what setup and teardown callbacks
    of LinkableCode look up __device__ variables in)."""

    def __init__(self, code=None, code_type=None, name="", handle=None):
        self.code = code
        self.code_type = code_type
        self.name = name
        self._handle = handle

    @property
    def handle(self):
        if self._handle is None:
            raise RuntimeError("this ObjectCode is not loaded: it has no handle")
        return self._handle

    @classmethod
    def from_ptx(cls, module, name=""):
        return cls(module, "ptx", name)

    @classmethod
    def from_cubin(cls, module, name=""):
        return cls(module, "cubin", name)

    @classmethod
    def from_ltoir(cls, module, name=""):
        return cls(module, "ltoir", name)

    @classmethod
    def from_fatbin(cls, module, name=""):
        return cls(module, "fatbin", name)

    @classmethod
    def from_object(cls, module, name=""):
        return cls(module, "object", name)

    @classmethod
    def from_library(cls, module, name=""):
        return cls(module, "library", name)

    def __repr__(self):
        if self._handle is not None:
            return "<ObjectCode loaded as 0x%x>" % int(self._handle)
        return "<ObjectCode %s %s>" % (self.code_type, self.name)
