# cuda.compile_ptx / cuda.compile: PTX that nvJitLink accepts for sm_90, the
# C ABI naming of device functions, result types as cuda.types objects.
# stdout: compile api ok
import _cuhost
from numba import cuda
from numba.cuda import types


def add(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = x[i] + y[i]


ptx, resty = cuda.compile_ptx(add, "void(float32[::1], float32[::1], float32[::1])")
assert ".visible .entry" in ptx, ptx[:300]
assert resty == types.void, resty
assert _cuhost._link_ptx_for_test(ptx, "sm_90") > 0


def f(x, y):
    return x * y


code, resty = cuda.compile(f, "float32(float32, float32)", device=True, abi="c", abi_info={"abi_name": "f_c"})
assert ".visible .func (.param .b32 func_retval0) f_c(" in code, code
assert resty == types.float32, resty

code, resty = cuda.compile_ptx(f, types.float64(types.float64, types.float64), device=True)
assert resty == types.float64 and ".visible .func" in code

for call, exc, text in [
    (lambda: cuda.compile_ptx(add, "void(float32[::1], float32[::1], float32[::1])", abi="c"), NotImplementedError,
     "The C ABI is not supported for kernels"),
    (lambda: cuda.compile(f, "float32(float32, float32)", abi="fortran"), NotImplementedError, "Unsupported ABI: fortran"),
    (lambda: cuda.compile(f, "float32(float32, float32)", output="sass"), NotImplementedError, "sass"),
    (lambda: cuda.compile_ptx(f, 42), TypeError, "invalid signature"),
]:
    try:
        call()
        raise AssertionError("no error: " + text)
    except exc as e:
        assert text in str(e), str(e)
print("compile api ok")
