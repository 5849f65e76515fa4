# types.voidptr ("void*", numba's RawPointer) in signatures of C-ABI device
# functions and @intrinsic code, and context.compile_subroutine /
# call_internal: an intrinsic taking two void* compiles a cuda.jit device
# function with numba's ABI (its fndesc's call_conv is a CUDACallConv),
# calls it on the value read through one pointer and stores the result
# through the other (numba-cuda's gh-781). It compiles to PTX and runs in a
# kernel, checked against NumPy.
# stdout: voidptr subroutine ok
import numpy as np
from numba import cuda
from numba.cuda import types
from numba.cuda.core.callconv import CUDACallConv
from numba.cuda.extending import intrinsic

assert str(types.voidptr) == "void*" and repr(types.voidptr) == "void*"
assert isinstance(types.voidptr, types.RawPointer)
assert types.voidptr != types.CPointer(types.int8)
sig = types.void(types.voidptr, types.voidptr)
assert str(sig) == "none(void*, void*)", str(sig)
assert sig.args == (types.voidptr, types.voidptr)


def triple(x):
    return 3 * x


triple_device = cuda.jit(device=True)(triple)
inner_sig = types.int32(types.int32)
seen_conventions = []


@intrinsic
def apply_through_pointers(typingctx, src, dst):
    if src != types.voidptr or dst != types.voidptr:
        return None

    def codegen(context, builder, signature, args):
        src_ptr, dst_ptr = args
        i32p = context.get_value_type(types.int32).as_pointer()
        value = builder.load(builder.bitcast(src_ptr, i32p))
        cres = context.compile_subroutine(builder, triple_device, inner_sig, caching=False)
        seen_conventions.append(cres.fndesc.call_conv)
        result = context.call_internal(builder, cres.fndesc, inner_sig, [value])
        builder.store(result, builder.bitcast(dst_ptr, i32p))
        return context.get_dummy_value()

    return types.void(types.voidptr, types.voidptr), codegen


@intrinsic
def element_address(typingctx, arr, index):
    # void* to arr[index] (a 1-D int32 array).
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = builder.gep(ary.data, [idx])
        return builder.bitcast(ptr, context.get_value_type(types.voidptr))

    return types.voidptr(arr, index), codegen


def wrapper(src, dst):
    return apply_through_pointers(src, dst)


# The C-ABI wrapper over void* compiles (PTX: this backend has no LTO-IR output).
ptx, resty = cuda.compile(wrapper, sig.args, output="ptx")
assert isinstance(resty, types.NoneType), resty
assert ".func" in ptx and "wrapper" in ptx, ptx
assert seen_conventions and all(isinstance(c, CUDACallConv) for c in seen_conventions), seen_conventions


@cuda.jit
def kernel(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        apply_through_pointers(element_address(src, i), element_address(dst, i))


rng = np.random.default_rng(781)
src = rng.integers(-1000, 1000, size=257).astype(np.int32)
dst = np.zeros_like(src)
kernel[3, 128](src, dst)
assert np.array_equal(dst, 3 * src), (dst, src)


# call_internal takes what compile_subroutine returned, nothing else.
@intrinsic
def bad_call(typingctx, x):
    def codegen(context, builder, signature, args):
        return context.call_internal(builder, object(), signature, args)

    return types.int32(types.int32), codegen


@cuda.jit
def bad_kernel(out):
    out[0] = bad_call(out[0])


try:
    bad_kernel[1, 1](np.zeros(1, dtype=np.int32))
except Exception as e:
    assert "call_internal" in str(e), str(e)
else:
    raise AssertionError("call_internal took a foreign fndesc")

print("voidptr subroutine ok")
