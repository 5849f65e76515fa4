"""np.random in numba.njit functions on the host: numba's own generator
state (a Mersenne Twister per thread, seeded as NumPy's legacy
RandomState.seed(int), so one seed gives NumPy's numbers), kept by cuhost's
CPU runtime (engine/cpu/np_random_runtime.cpp) apart from the
interpreter's np.random, as numba keeps it. Registered as CPU-target
overloads: kernels do not have np.random (numba-cuda's CUDA target has no
such functions; cuda.random is theirs). Covered: np.random.seed(int) and the
scalar forms of np.random.random / random_sample / rand (the ones taking a
size return a new array, which host calls cannot return yet)."""

import numpy as np

from cuda import types
from cuda.cgutils import get_or_insert_function
from cuda.extending import intrinsic, overload


def _llvm():
    # Lazy: llvmlite is needed only when a function using np.random compiles.
    from llvmlite import ir

    return ir


@intrinsic
def _runtime_seed(typingctx, seed):
    if seed != types.uint32:
        return None

    def codegen(context, builder, signature, args):
        ir = _llvm()
        fn = get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [ir.IntType(32)]), "cuhost_cpu_np_random_seed"
        )
        builder.call(fn, [args[0]])
        return context.get_dummy_value()

    return types.void(types.uint32), codegen


@intrinsic
def _runtime_double(typingctx):
    def codegen(context, builder, signature, args):
        ir = _llvm()
        fn = get_or_insert_function(builder.module, ir.FunctionType(ir.DoubleType(), []), "cuhost_cpu_np_random_double")
        return builder.call(fn, [])

    return types.float64(), codegen


def _omitted(arg):
    return arg is None or isinstance(arg, (types.NoneType, types.Omitted))


@overload(np.random.seed, target="cpu")
def _seed(seed):
    if isinstance(seed, types.Integer):

        def impl(seed):
            _runtime_seed(np.uint32(seed))

        return impl
    return None


def _scalar_sample(size=None):
    if _omitted(size):

        def impl(size=None):
            return _runtime_double()

        return impl
    return None


overload(np.random.random, target="cpu")(_scalar_sample)
overload(np.random.random_sample, target="cpu")(_scalar_sample)


@overload(np.random.rand, target="cpu")
def _rand(*size):
    if not size:
        return lambda *size: _runtime_double()
    return None
