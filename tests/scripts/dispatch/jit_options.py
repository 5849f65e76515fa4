# The decorator's forms and option errors, device functions called from the host.
# stdout: jit options checked
from numba import cuda
from numba.cuda import types


def f(a):
    a[0] = 1


def raises(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        assert text in str(e), (text, str(e))
        return
    raise AssertionError("expected %s(%s)" % (exc.__name__, text))


raises(TypeError, "unexpected option 'fast_math'", cuda.jit, fast_math=True)
raises(TypeError, "unexpected option 'bogus'", lambda: cuda.jit(f, bogus=1))
raises(NotImplementedError, "Unsupported ABI: fortran", cuda.jit, abi="fortran")
raises(NotImplementedError, "kernels cannot use the C ABI", lambda: cuda.jit(abi="c")(f))
raises(TypeError, "opt must be a bool or an int", lambda: cuda.jit(opt="high")(f))
raises(ValueError, "inline must be True, False, 'always' or 'never'", lambda: cuda.jit(inline="sometimes")(f))
raises(TypeError, "max_registers must be an int", lambda: cuda.jit(max_registers="many")(f))
raises(TypeError, "Expected path to file or a LinkableCode object", lambda: cuda.jit(link=[42])(f))
raises(TypeError, "invalid signature", lambda: cuda.jit([3.5])(f))
raises(TypeError, "must return void", lambda: cuda.jit("int32(int32[::1])")(f))
raises(TypeError, "already jitted", cuda.jit, cuda.jit(f))

# Every accepted option and form builds a dispatcher (nothing compiles yet).
k = cuda.jit(f)
assert k.__name__ == "f" and k.py_func is f and isinstance(k, cuda.Dispatcher)
k2 = cuda.jit(debug=True, lineinfo=True, opt=0, fastmath=True, inline="always", lto=False, cache=False,
              max_registers=32, link=[])(f)
assert k2.targetoptions["max_registers"] == 32
d = cuda.jit(device=True, abi="c", abi_info={"abi_name": "f_c"})(lambda x: x)


@cuda.jit(device=True)
def dev(x):
    return x + 1


raises(TypeError, "'dev' is a device function and is not callable from the host", dev, 1)
raises(TypeError, "'dev' is a device function and cannot be launched", lambda: dev[1, 1])
assert "device function" in repr(dev) and "kernel" in repr(k)

# Signature objects and lists of signatures are accepted for device functions lazily.
sig = types.float32(types.float32, types.int32)
dv = cuda.jit(sig, device=True)(lambda x, n: x)
assert dv.signatures == [(types.float32, types.int32)], dv.signatures
dv2 = cuda.jit(["float64(float64)", types.int32(types.int32)], device=True)(lambda x: x)
assert [tuple(map(str, s)) for s in dv2.signatures] == [("float64",), ("int32",)], dv2.signatures
print("jit options checked")
