# A numba-cuda name cuhost does not implement yet imports, and using it
# raises NotImplementedError naming it (never a silent stub): calling,
# attribute access, indexing, truth, isinstance, instantiating a subclass,
# and calling it inside a kernel (a TypingError that shows the same words).
# Whole modules of numba-cuda's compiler internals behave the same.
# stdout: not implemented ok
import numpy as np

import numba
from numba import cuda
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
from numba.cuda.core.compiler_machinery import FunctionPass
from numba.cuda.extending import overload
from cuda.core import ObjectCode


def raises(fn, text):
    try:
        fn()
    except NotImplementedError as e:
        assert str(e) == text, (str(e), text)
        return
    raise AssertionError("no NotImplementedError: " + text)


MSG = "numba.cuda.random.create_xoroshiro128p_states is not implemented in cuhost yet"
raises(lambda: create_xoroshiro128p_states(16, seed=1), MSG)
raises(lambda: create_xoroshiro128p_states.copy_to_host, MSG)
raises(lambda: create_xoroshiro128p_states[0], MSG)
raises(lambda: bool(create_xoroshiro128p_states), MSG)
raises(lambda: list(create_xoroshiro128p_states), MSG)
raises(lambda: isinstance(3, ObjectCode), "cuda.core.ObjectCode is not implemented in cuhost yet (NVIDIA "
                                          "cuda-python's cuda.core; cuhost does not drive the GPU through cuda-python)")
raises(lambda: overload(len), "numba.cuda.extending.overload is not implemented in cuhost yet")
raises(lambda: numba.njit(lambda x: x), "numba.njit is not implemented in cuhost yet (cuhost has no base numba CPU "
                                        "compiler: numba.cuda.HAS_NUMBA is False)")
raises(lambda: cuda.vectorize(["float32(float32)"]), "numba.cuda.np.ufunc.vectorize is not implemented in cuhost yet")
raises(lambda: cuda.float32x4(1, 2, 3, 4), "numba.cuda.vector_types.float32x4 is not implemented in cuhost yet "
                                           "(cuhost kernels have no vector types yet)")
assert cuda.float4 is cuda.float32x4 and cuda.int2 is cuda.int32x2  # numba-cuda's C aliases

# Probes by Python machinery see plain attribute errors, not NotImplementedError.
assert not hasattr(create_xoroshiro128p_states, "__wrapped__")
assert not hasattr(create_xoroshiro128p_states, "__cuda_array_interface__")
assert create_xoroshiro128p_states.__name__ == "create_xoroshiro128p_states"
assert "not implemented in cuhost" in repr(create_xoroshiro128p_states)
assert "not implemented in cuhost" in create_xoroshiro128p_states.__doc__


# A class deriving from an unimplemented base is defined; creating one is the use that fails.
class MyPass(FunctionPass):
    _name = "my_pass"


raises(MyPass, "numba.cuda.core.compiler_machinery.FunctionPass is not implemented in cuhost yet (cuhost compiles "
               "kernels in C++ and has no numba compiler internals)")

# A wholly unimplemented module: any name imports, every use fails; dunders stay AttributeErrors.
import numba.cuda.core.ir as ir  # noqa: E402
raises(lambda: ir.Var(None, "x", None), "numba.cuda.core.ir.Var is not implemented in cuhost yet (cuhost compiles "
                                        "kernels in C++ and has no numba compiler internals)")
assert ir.Var is ir.Var
assert not hasattr(ir, "__all__")
import numba.cuda.core.rewrites.static_getitem  # noqa: E402,F401  (submodules of unimplemented packages)

# Names cuhost has are not placeholders.
from numba.cuda._missing import NotImplementedInCuhost  # noqa: E402
for name in ("jit", "to_device", "compile_ptx", "declare_device", "CUSource", "shared", "syncthreads", "grid"):
    assert not isinstance(getattr(cuda, name), NotImplementedInCuhost), name


# Inside a kernel, the compiler's error names the placeholder.
@cuda.jit
def k(out):
    out[0] = xoroshiro128p_uniform_float32(0, 0)


try:
    k[1, 1](np.zeros(1, np.float32))
    raise AssertionError("kernel using a placeholder compiled")
except cuda.TypingError as e:
    assert "numba.cuda.random.xoroshiro128p_uniform_float32: not implemented in cuhost yet" in str(e), str(e)
print("not implemented ok")
