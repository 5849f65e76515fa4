# Python device functions compiled for foreign code with cuda.compile and
# abi="c": named after the function, or abi_info={"abi_name": ...} (a
# mangled C++ name works); the declared signature is the C signature
# (return type included); The C ABI is not supported for kernels.
# stdout: compile c abi ok
from numba import cuda, types


def madd(x, y):
    return x * y + 1


ptx, resty = cuda.compile(madd, "float32(float32, float32)", device=True, abi="c", output="ptx")
assert resty == types.float32, resty
assert ".visible .func (.param .b32 func_retval0) madd(" in ptx, ptx
assert ".param .b32 madd_param_0" in ptx and ".param .b32 madd_param_1" in ptx, ptx

ptx, resty = cuda.compile(madd, "float64(float64, float64)", device=True, abi="c",
                          abi_info={"abi_name": "_Z4maddff"}, output="ptx")
assert resty == types.float64
assert ".visible .func (.param .b64 func_retval0) _Z4maddff(" in ptx, ptx


def store(p, i, v):
    p[i] = v


ptx, resty = cuda.compile(store, types.void(types.CPointer(types.int32), types.int64, types.int32), device=True,
                          abi="c", abi_info={"abi_name": "store_i32"})
assert resty == types.void, resty
assert ".visible .func store_i32(" in ptx, ptx    # a real void function: no return parameter

# The numba ABI: status in the return register, result through a pointer.
ptx, resty = cuda.compile(madd, "float32(float32, float32)", device=True, abi="numba")
assert resty == types.float32
assert "func_retval0" in ptx
# ...and its environment global, named after the function as numba names it
# (_ZN08NumbaEnv + the function's mangled name), common so that modules
# defining the same function link; the C ABI has none.
symbol = ptx.split(".visible .func (.param .b32 func_retval0) ")[1].split("(")[0]
env = "_ZN08NumbaEnv%d%sE" % (len(symbol), symbol) if not symbol.startswith("_ZN") else "_ZN08NumbaEnv" + symbol[3:]
assert ".common .global .align 8 .u64 %s;" % env in ptx, ptx
c_ptx, _ = cuda.compile(madd, "float32(float32, float32)", device=True, abi="c")
assert "NumbaEnv" not in c_ptx, c_ptx

for make in (lambda: cuda.jit(abi="c")(madd),
             lambda: cuda.jit("void(float32, float32)", abi="c")(madd),
             lambda: cuda.compile(madd, "void(float32, float32)", device=False, abi="c"),
             lambda: cuda.compile_ptx(madd, "void(float32, float32)", abi="c")):
    try:
        make()
    except NotImplementedError as e:
        assert "The C ABI is not supported for kernels" in str(e), str(e)
    else:
        raise AssertionError("a kernel was compiled with abi='c'")
print("compile c abi ok")
