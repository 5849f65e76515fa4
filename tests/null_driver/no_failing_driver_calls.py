# Loading and launching typical kernels makes no failing driver call: tools
# that watch the driver (compute-sanitizer) report every failing call, so
# cuhost asks only for globals a module defines (cuda/image_symbols.h). The
# null driver records each failing call (null_failures.h); this script loads
# a plain kernel, one with a constant array, a checked (debug) kernel with
# its error record, one linked with foreign CUDA C and PTX, and one whose
# module has setup/teardown callbacks, launches each, and asserts the record
# is empty. A setup callback asking for a global the module lacks gets
# cuhost's CUDA_ERROR_NOT_FOUND without a failing driver call. A failing
# call made on purpose at the end shows the record works.
# backends: cuda
# stdout: no failing driver calls ok
import ctypes

import numpy as np
from numba import cuda
from cuda.bindings import driver as binding

null = ctypes.CDLL("libcuda.so.1")
null.cuhostNullFailedCalls.restype = ctypes.c_char_p


def failed_calls():
    return null.cuhostNullFailedCalls().decode()


null.cuhostNullClearFailedCalls()
rng = np.random.default_rng(3)
x = rng.standard_normal(300).astype(np.float32)
d_x = cuda.to_device(x)
d_out = cuda.device_array_like(d_x)


@cuda.jit
def plain(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * 2


TABLE = rng.standard_normal(16).astype(np.float32)


@cuda.jit
def with_constants(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + TABLE[i % 16]


@cuda.jit(debug=True, opt=False)
def checked(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i]


plain[3, 128](d_out, d_x)
with_constants[3, 128](d_out, d_x)
checked[3, 128](d_out, d_x)
plain[3, 128](d_out, x)  # a host array: staged copies
cuda.synchronize()

foreign = cuda.CUSource(r'''
extern "C" __device__ int twice(int* ret, int v) { *ret = 2 * v; return 0; }
''', name="twice.cu")
twice = cuda.declare_device("twice", "int32(int32)", link=foreign)
ptx_item = cuda.PTXSource(b"""
.version 8.0
.target sm_90
.address_size 64
.visible .func (.param .b32 func_retval0) plus_one(.param .b32 plus_one_param_0)
{
 .reg .b32 %r<3>;
 ld.param.u32 %r1, [plus_one_param_0];
 add.s32 %r2, %r1, 1;
 st.param.b32 [func_retval0], %r2;
 ret;
}
""")
plus_one = cuda.declare_device("plus_one", "int32(int32)", link=ptx_item)


@cuda.jit
def with_foreign(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = plus_one(twice(i))


calls = []


def setup(mod):
    calls.append(mod.get_global("magic"))


def teardown(mod):
    pass


magic = cuda.CUSource(r'''
extern "C" __device__ int magic = 41;
extern "C" __device__ int read_magic(int* ret, int x) { *ret = magic + x; return 0; }
''', name="magic.cu", setup_callback=setup, teardown_callback=teardown)
read_magic = cuda.declare_device("read_magic", "int32(int32)", link=magic)


@cuda.jit
def with_callbacks(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = read_magic(i)


ints = cuda.device_array(64, dtype=np.int32)
with_foreign[1, 64](ints)
with_callbacks[1, 64](ints)
cuda.synchronize()
assert len(calls) == 1 and calls[0][0] != 0 and calls[0][1] >= 4, calls


def missing_setup(mod):
    mod.get_global("no_such_variable")


missing = cuda.declare_device("read_magic", "int32(int32)",
                              link=cuda.CUSource(magic.data, name="magic2.cu", setup_callback=missing_setup))


@cuda.jit
def with_missing(out):
    out[0] = missing(1)


try:
    with_missing[1, 1](ints)
    raise AssertionError("a setup callback asking for a missing global succeeded")
except RuntimeError as e:
    assert "CUDA_ERROR_NOT_FOUND for __device__ variable 'no_such_variable'" in str(e), str(e)

assert failed_calls() == "", "failing driver calls:\n" + failed_calls()

# The record works: a free of memory the driver never gave fails, and is recorded.
(err,) = binding.cuMemFree(binding.CUdeviceptr(8))
assert err != binding.CUresult.CUDA_SUCCESS
assert failed_calls() == "cuMemFree CUDA_ERROR_INVALID_VALUE\n", failed_calls()
null.cuhostNullClearFailedCalls()
assert failed_calls() == ""
print("no failing driver calls ok")
