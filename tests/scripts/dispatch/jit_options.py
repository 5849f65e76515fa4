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
raises(NotImplementedError, "The C ABI is not supported for kernels", lambda: cuda.jit(abi="c")(f))
raises(TypeError, "opt must be a bool or an int", lambda: cuda.jit(opt="high")(f))
raises(ValueError, "inline must be True, False, 'always' or 'never'", lambda: cuda.jit(inline="sometimes")(f))
raises(TypeError, "max_registers must be an int", lambda: cuda.jit(max_registers="many")(f))
raises(TypeError, "max_registers must be an int, not bool", lambda: cuda.jit(max_registers=True)(f))
raises(ValueError, "max_registers must be a positive int, not 0", lambda: cuda.jit(max_registers=0)(f))
raises(ValueError, "max_registers must be a positive int, not -4", lambda: cuda.jit(max_registers=-4)(f))
raises(ValueError, "max_registers must be a positive int, not 1" + "0" * 30, lambda: cuda.jit(max_registers=10**30)(f))
raises(TypeError, "Expected path to file or a LinkableCode object", lambda: cuda.jit(link=[42])(f))
raises(TypeError, "invalid signature", lambda: cuda.jit([3.5])(f))
raises(TypeError, "CUDA kernel must have void return type", lambda: cuda.jit("int32(int32[::1])")(f))
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
raises(RuntimeError, "Cannot compile a device function as a kernel", lambda: dev[1, 1])
assert "device function" in repr(dev) and "kernel" in repr(k)

# Signature objects and lists of signatures are accepted for device functions lazily.
sig = types.float32(types.float32, types.int32)
dv = cuda.jit(sig, device=True)(lambda x, n: x)
assert dv.signatures == [(types.float32, types.int32)], dv.signatures
dv2 = cuda.jit(["float64(float64)", types.int32(types.int32)], device=True)(lambda x: x)
assert [tuple(map(str, s)) for s in dv2.signatures] == [("float64",), ("int32",)], dv2.signatures

# lineinfo=True (and debug=True) put .file/.loc directives naming this script
# and the kernel's lines into the PTX; without them there is none.
# max_registers=N becomes the kernel's .maxnreg N.
import os  # noqa: E402
import re  # noqa: E402

import numpy as np  # noqa: E402


def scaled(out, x):
    i = cuda.grid(1)  # line 71
    if i < out.size:
        out[i] = x[i] * 3.0 + 1.0  # line 73


def loc_lines(ptx):
    return {int(m) for m in re.findall(r"\.loc\s+\d+\s+(\d+)\s+\d+", ptx)}


xs = np.random.default_rng(3).standard_normal(64).astype(np.float32)
plain = cuda.jit(scaled)
lined = cuda.jit(lineinfo=True)(scaled)
debugged = cuda.jit(debug=True)(scaled)
capped = cuda.jit(max_registers=32)(scaled)
for kern in (plain, lined, debugged, capped):
    out = np.zeros_like(xs)
    kern[2, 32](out, xs)
    assert np.allclose(out, xs * 3.0 + 1.0), kern
ptx_plain = plain.inspect_asm(plain.signatures[0])
ptx_lined = lined.inspect_asm(lined.signatures[0])
assert not loc_lines(ptx_plain) and ".file" not in ptx_plain, ptx_plain
assert ".maxnreg" not in ptx_plain, ptx_plain
script = os.path.basename(__file__)
assert re.search(r'\.file\s+\d+\s+"[^"]*%s"' % re.escape(script), ptx_lined), ptx_lined
# The def line starts the function; line 0 marks instructions merged from several lines.
assert {70, 71, 73} <= loc_lines(ptx_lined) <= {0, 70, 71, 72, 73}, loc_lines(ptx_lined)
assert {71, 73} <= loc_lines(debugged.inspect_asm(debugged.signatures[0]))
assert re.search(r"\.maxnreg\s+32\b", capped.inspect_asm(capped.signatures[0]))
print("jit options checked")
