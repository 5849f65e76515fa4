# A numba-cuda name cuhost does not implement yet imports, and using it
# raises NotImplementedError naming it (never a silent stub): calling,
# attribute access, indexing, truth, isinstance, instantiating a subclass,
# and calling it inside a kernel (a TypingError that shows the same words).
# Whole modules of numba-cuda's compiler internals behave the same.
# stdout: not implemented ok
import numpy as np

import numba
from numba import cuda
from numba.cuda.cudadrv.libs import open_cudalib
from numba.cuda.core.compiler_machinery import FunctionPass
from numba.cuda.extending import box
from cuda.core import Program


def raises(fn, text):
    try:
        fn()
    except NotImplementedError as e:
        assert str(e) == text, (str(e), text)
        return
    raise AssertionError("no NotImplementedError: " + text)


MSG = "numba.cuda.cudadrv.libs.open_cudalib is not implemented in cuhost yet"
raises(lambda: open_cudalib(16), MSG)
raises(lambda: open_cudalib.copy_to_host, MSG)
raises(lambda: open_cudalib[0], MSG)
raises(lambda: bool(open_cudalib), MSG)
raises(lambda: list(open_cudalib), MSG)
raises(lambda: isinstance(3, Program), "cuda.core.Program is not implemented in cuhost yet (part of NVIDIA "
                                       "cuda-python's cuda.core that cuhost does not provide)")
raises(lambda: box(object), "numba.cuda.extending.box is not implemented in cuhost yet")
raises(lambda: numba.cfunc("int64(int64)"), "numba.cfunc is not implemented in cuhost yet (cuhost compiles "
                                            "numba.jit in nopython mode only)")


def doubled(x):
    return 2 * x


raises(lambda: numba.jit(parallel=True)(doubled)(1), "doubled uses parallel=True (numba's parallel accelerator), "
                                                     "which cuhost's numba.jit does not compile (it compiles "
                                                     "nopython-mode functions only)")
assert cuda.float4 is cuda.float32x4 and cuda.int2 is cuda.int32x2  # numba-cuda's C aliases

# Probes by Python machinery see plain attribute errors, not NotImplementedError.
assert not hasattr(open_cudalib, "__wrapped__")
assert not hasattr(open_cudalib, "__cuda_array_interface__")
assert open_cudalib.__name__ == "open_cudalib"
assert "not implemented in cuhost" in repr(open_cudalib)
assert "not implemented in cuhost" in open_cudalib.__doc__


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
    out[0] = open_cudalib(0, 0)


try:
    k[1, 1](np.zeros(1, np.float32))
    raise AssertionError("kernel using a placeholder compiled")
except cuda.TypingError as e:
    assert "numba.cuda.cudadrv.libs.open_cudalib: not implemented in cuhost yet" in str(e), str(e)
print("not implemented ok")
