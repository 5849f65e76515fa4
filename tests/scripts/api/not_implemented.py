# A numba-cuda name cuhost does not implement yet imports, and using it
# raises NotImplementedError naming it (never a silent stub): calling,
# attribute access, indexing, truth, isinstance, instantiating a subclass,
# and calling it inside a kernel (a TypingError that shows the same words).
# Whole modules of numba-cuda's compiler internals behave the same.
# stdout: not implemented ok
import numpy as np

import numba
from numba import cuda
from numba.cuda.cudadrv.devicearray import ManagedNDArray
from numba.cuda.core.compiler_machinery import FunctionPass
from numba.cuda.extending import box
from cuda.core import ObjectCode


def raises(fn, text):
    try:
        fn()
    except NotImplementedError as e:
        assert str(e) == text, (str(e), text)
        return
    raise AssertionError("no NotImplementedError: " + text)


MSG = "numba.cuda.cudadrv.devicearray.ManagedNDArray is not implemented in cuhost yet"
raises(lambda: ManagedNDArray(16), MSG)
raises(lambda: ManagedNDArray.copy_to_host, MSG)
raises(lambda: ManagedNDArray[0], MSG)
raises(lambda: bool(ManagedNDArray), MSG)
raises(lambda: list(ManagedNDArray), MSG)
raises(lambda: isinstance(3, ObjectCode), "cuda.core.ObjectCode is not implemented in cuhost yet (NVIDIA "
                                          "cuda-python's cuda.core; cuhost does not drive the GPU through cuda-python)")
raises(lambda: box(object), "numba.cuda.extending.box is not implemented in cuhost yet")
raises(lambda: numba.jit(lambda x: x), "numba.jit is not implemented in cuhost yet (cuhost has no base numba CPU "
                                       "compiler)")


@numba.njit
def host_only(x):
    return x


raises(lambda: host_only(1), "host_only is a numba.njit function: cuhost has no base numba CPU compiler, so it runs "
                             "only inside kernels")
assert cuda.float4 is cuda.float32x4 and cuda.int2 is cuda.int32x2  # numba-cuda's C aliases

# Probes by Python machinery see plain attribute errors, not NotImplementedError.
assert not hasattr(ManagedNDArray, "__wrapped__")
assert not hasattr(ManagedNDArray, "__cuda_array_interface__")
assert ManagedNDArray.__name__ == "ManagedNDArray"
assert "not implemented in cuhost" in repr(ManagedNDArray)
assert "not implemented in cuhost" in ManagedNDArray.__doc__


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
    out[0] = ManagedNDArray(0, 0)


try:
    k[1, 1](np.zeros(1, np.float32))
    raise AssertionError("kernel using a placeholder compiled")
except cuda.TypingError as e:
    assert "numba.cuda.cudadrv.devicearray.ManagedNDArray: not implemented in cuhost yet" in str(e), str(e)
print("not implemented ok")
