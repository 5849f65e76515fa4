# LinkableCode setup and teardown callbacks, on every backend: setup runs
# once per module before its first launch (each specialization is a module)
# and receives a cuda.core ObjectCode whose handle reaches the module's
# __device__ variables (cuLibraryGetGlobal) -- here it initializes one;
# Context.reset() runs the teardowns, and the next launch sets up again.
# stdout: module callbacks ok
import numpy as np
from numba import cuda
from cuda.core import ObjectCode
from cuda.bindings.driver import cuLibraryGetGlobal, cuMemcpyHtoD, CUresult

source = """
__device__ int base = 0;
extern "C" __device__ int read_base(int* out, int x) {
    *out = base + x;
    return 0;
}
"""
events = []


def setup(module):
    assert isinstance(module, ObjectCode)
    result, pointer, size = cuLibraryGetGlobal(module.handle, b"base")
    assert result == CUresult.CUDA_SUCCESS and size == 4, (result, size)
    value = np.array([1000], np.int32)
    cuMemcpyHtoD(pointer, value.ctypes.data, size)
    events.append(("setup", module.handle))


def teardown(module):
    events.append(("teardown", module.handle))


lib = cuda.CUSource(source, setup_callback=setup, teardown_callback=teardown)
read_base = cuda.declare_device("read_base", "int32(int32)", link=[lib])


@cuda.jit
def kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = read_base(x + i)


out = np.zeros(8, np.int32)
assert events == []
kernel[1, 8](out, 5)
assert (out == 1005 + np.arange(8)).all(), out
kernel[1, 8](out, 6)  # the same module: no second setup
assert [e[0] for e in events] == ["setup"]
kernel[1, 8](out, 7.0)  # another specialization: another module
assert [e[0] for e in events] == ["setup", "setup"] and events[0][1] != events[1][1]
cuda.current_context().reset()
assert [e[0] for e in events[2:]] == ["teardown", "teardown"]
assert {e[1] for e in events[:2]} == {e[1] for e in events[2:]}
kernel[1, 8](out, 1)  # loaded again
assert events[-1][0] == "setup" and (out == 1001 + np.arange(8)).all()
print("module callbacks ok")
