# The GPU code of libdevice calls: compile_ptx gives the PTX instruction each
# function stands for (directed rounding modifiers, prmt, sad, tanh.approx,
# correctly rounded sqrt unless fastmath), signatures with out-parameters
# return tuples, and wrong arguments are TypingErrors naming the function.
import numpy as np
from numba import cuda
from numba.cuda import float32, float64, int32, uint32, libdevice
from numba.cuda.libdevicefuncs import create_signature, functions
from numba.cuda import types


def ptx_of(body, argtypes, fastmath=False):
    ns = {}
    exec("from numba.cuda import libdevice\ndef f(r, a, b, c):\n    r[0] = " + body, ns)
    ptx, _ = cuda.compile_ptx(ns["f"], argtypes, fastmath=fastmath)
    return ptx


d3 = (float64[::1], float64, float64, float64)
f3 = (float32[::1], float32, float32, float32)
i3 = (int32[::1], int32, int32, int32)
u3 = (uint32[::1], uint32, uint32, uint32)
cases = [
    ("libdevice.dadd_rd(a, b)", d3, "add.rm.f64"),
    ("libdevice.dmul_ru(a, b)", d3, "mul.rp.f64"),
    ("libdevice.ddiv_rz(a, b)", d3, "div.rz.f64"),
    ("libdevice.fmaf_rz(a, b, c)", f3, "fma.rz.f32"),
    ("libdevice.fsqrt_rd(a)", f3, "sqrt.rm.f32"),
    ("libdevice.float2int_rn(a)", (int32[::1], float32, float32, float32), "cvt.rni.s32.f32"),
    ("libdevice.double2ull_ru(a)", (types.uint64[::1], float64, float64, float64), "cvt.rpi.u64.f64"),
    ("libdevice.byte_perm(a, b, c)", i3, "prmt.b32"),
    ("libdevice.usad(a, b, c)", u3, "sad.u32"),
    ("libdevice.fast_tanhf(a)", f3, "tanh.approx.f32"),
    ("libdevice.fast_sinf(a)", f3, "sin.approx"),
    ("libdevice.sqrtf(a)", f3, "sqrt.rn.f32"),
    ("libdevice.brev(a)", i3, "brev.b32"),
    ("libdevice.popc(a)", i3, "popc.b32"),
    ("max(a, b)", f3, "max.f32"),
    ("min(a, b)", d3, "min.f64"),
]
for body, sig, insn in cases:
    ptx = ptx_of(body, sig)
    assert insn in ptx, (body, insn)
    assert "llvm.nvvm" not in ptx, body
assert "sqrt.approx.ftz.f32" in ptx_of("libdevice.sqrtf(a)", f3, fastmath=True)

# Out-parameters: the Python signature returns a tuple.
assert str(create_signature(*functions["__nv_sincos"])) == "UniTuple(float64 x 2)(float64)"
assert str(create_signature(*functions["__nv_frexpf"])) == "Tuple(float32, int32)(float32)"
assert str(create_signature(*functions["__nv_remquo"])) == "Tuple(float64, int32)(float64, float64)"
assert str(create_signature(*functions["__nv_umin"])) == "uint32(uint32, uint32)"
retty, args = functions["__nv_modf"]
assert [a.is_ptr for a in args] == [False, True] and args[1].ty == float64
ptx = ptx_of("libdevice.sincos(a)[1] + libdevice.frexp(b)[1]", d3)
assert "ld.param" in ptx and "st.global" in ptx


def typing_error(body, argtypes, text):
    try:
        ptx_of(body, argtypes)
    except Exception as e:
        assert type(e).__name__ == "TypingError", (body, type(e), e)
        assert text in str(e), (body, str(e))
    else:
        raise AssertionError("no error for " + body)


typing_error("libdevice.sinf(a, b)", f3, "sinf")
typing_error("libdevice.sincos((a, b))", d3, "libdevice.sincos() argument 1 must be float64, not UniTuple(float64 x 2)")
typing_error("libdevice.no_such_function(a)", d3, "no_such_function")

# Kernels run with the same results on the host backend and the GPU.
@cuda.jit
def k(out, x):
    i = cuda.grid(1)
    if i < x.size:
        s, c = libdevice.sincosf(x[i])
        out[i] = libdevice.fmaf_rd(s, c, x[i])


x = np.linspace(-3, 3, 64, dtype=np.float32)
out = np.zeros_like(x)
k[1, 64](out, x)
assert np.allclose(out, np.sin(x) * np.cos(x) + x, rtol=1e-5)
print("libdevice ptx ok")
# stdout: libdevice ptx ok
