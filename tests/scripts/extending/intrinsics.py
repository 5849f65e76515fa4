# @intrinsic: typing functions return (signature, codegen) and codegen builds
# LLVM IR with llvmlite, linked into the kernel on both targets: integer and
# float arithmetic, tuples, a void intrinsic, keyword arguments; a codegen
# that returns nothing for a non-void signature is a LoweringError; intrinsics
# pickle by value and come back as the same object; NVVM intrinsics work on
# the GPU (PTX checked everywhere) and are a clear error on the CPU backend.
# stdout: intrinsics ok
import pickle

import _cuhost
import numpy as np
from llvmlite import ir
from numba import cuda
from numba.cuda import cgutils, types
from numba.cuda.core.errors import LoweringError
from numba.cuda.extending import intrinsic


@intrinsic
def mul_add(typingctx, a, b, c):
    if not all(isinstance(t, types.Integer) for t in (a, b, c)):
        return None
    sig = types.int64(types.int64, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        x, y, z = args
        return builder.add(builder.mul(x, y), z)
    return sig, codegen


@intrinsic
def fsplit(typingctx, x):
    if not isinstance(x, types.Float):
        return None
    tup = types.UniTuple(types.float64, 2)
    sig = tup(types.float64)

    def codegen(context, builder, signature, args):
        (v,) = args
        half = builder.fmul(v, ir.Constant(ir.DoubleType(), 0.5))
        return context.make_tuple(builder, signature.return_type, [half, builder.fsub(v, half)])
    return sig, codegen


@intrinsic
def nothing(typingctx, a):
    def codegen(context, builder, signature, args):
        return None
    return types.void(a), codegen


@intrinsic
def forgot(typingctx, a):
    def codegen(context, builder, signature, args):
        return None
    return types.int32(types.int32), codegen


@cuda.jit
def kernel(a, b, out_i, out_f):
    i = cuda.grid(1)
    if i < a.size:
        out_i[i] = mul_add(a[i], b[i], 3)
        h, rest = fsplit(float(a[i]))
        out_f[i] = h * 10.0 + rest
        nothing(i)


rng = np.random.default_rng(1)
a = rng.integers(-1000, 1000, 64)
b = rng.integers(-1000, 1000, 64).astype(np.int32)
out_i = np.zeros(64, np.int64)
out_f = np.zeros(64)
kernel[2, 32](a, b, out_i, out_f)
np.testing.assert_array_equal(out_i, a * b + 3)
np.testing.assert_allclose(out_f, a * 5.0 + a * 0.5)


@cuda.jit
def bad(out):
    out[0] = forgot(1)


try:
    bad[1, 1](np.zeros(1, np.int32))
except LoweringError as e:
    assert "non-void function returns None" in e.msg, e.msg
else:
    raise AssertionError("a codegen returning None for int32 must fail")



@intrinsic
def thread_x(typingctx):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(32), [])
        return builder.call(cgutils.get_or_insert_function(builder.module, fnty, "llvm.nvvm.read.ptx.sreg.tid.x"), [])
    return types.int32(), codegen


def tids(out):
    out[cuda.threadIdx.x] = thread_x()


ptx, _ = cuda.compile_ptx(tids, (types.int32[::1],))
assert "%tid.x" in ptx, ptx
ids = np.zeros(32, np.int32)
if _cuhost.backend() == "cuda":
    cuda.jit(tids)[1, 32](ids)
    np.testing.assert_array_equal(ids, np.arange(32))
else:
    try:
        cuda.jit(tids)[1, 32](ids)
    except NotImplementedError as e:
        assert "llvm.nvvm.read.ptx.sreg.tid.x, which exists only on the GPU" in str(e), str(e)
        assert "intrinsics.py" in str(e), str(e)  # where the intrinsic is called
    else:
        raise AssertionError("NVVM intrinsics cannot run on the CPU backend")

again = pickle.loads(pickle.dumps(mul_add))
assert again is mul_add
assert mul_add.__name__ == "mul_add" and repr(mul_add) == "<intrinsic mul_add>"
print("intrinsics ok")
