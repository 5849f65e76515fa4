# LinkableCode setup/teardown callbacks: setup runs once per loaded module
# before its first launch, receives the module handle and can find a
# __device__ variable with get_global; teardown runs when modules unload at exit.
# backends: cuda
# stdout: callbacks ok
# stdout: teardown ran for 1 module(s)
import numpy as np
from numba import cuda

calls = []


def setup(mod):
    ptr, size = mod.get_global("magic")
    assert isinstance(mod.handle, int) and mod.handle != 0
    assert ptr != 0 and size == 4, (ptr, size)
    calls.append(("setup", mod.handle))


def teardown(mod):
    calls.append(("teardown", mod.handle))
    print("teardown ran for %d module(s)" % sum(1 for c in calls if c[0] == "teardown"))


src = cuda.CUSource(r'''
extern "C" __device__ int magic = 41;
extern "C" __device__ int read_magic(int* ret, int x) { *ret = magic + x; return 0; }
''', name="magic.cu", setup_callback=setup, teardown_callback=teardown)
read_magic = cuda.declare_device("read_magic", "int32(int32)", link=src)


@cuda.jit
def k(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = read_magic(i)


out = np.zeros(64, np.int32)
k[1, 64](out)
np.testing.assert_array_equal(out, 41 + np.arange(64))
k[1, 64](out)  # same module: no second setup
assert [c[0] for c in calls] == ["setup"], calls

try:
    def bad_setup(mod):
        mod.get_global("no_such_variable")
    bad = cuda.declare_device("read_magic", "int32(int32)",
                              link=cuda.CUSource(src.data, name="magic2.cu", setup_callback=bad_setup))

    @cuda.jit
    def k2(out):
        out[0] = bad(1)

    k2[1, 1](out)
    raise AssertionError("failing setup callback ignored")
except RuntimeError as e:
    assert "setup callback of 'magic2.cu' failed for kernel 'k2'" in str(e) and "no_such_variable" in str(e), str(e)
print("callbacks ok")
