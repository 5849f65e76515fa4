# An @intrinsic keeps its function's metadata, with numba's __module__: the
# module under the name the user imported it by. A module of the `cuda`
# package imported through numba's path (numba.cuda.X) reports
# "numba.cuda.X", one imported as cuda.Y reports "cuda.Y", and a script's
# own intrinsics report "__main__".
# stdout: intrinsic module names ok
import inspect
import os
import sys
import tempfile

import cuda
from numba.cuda import types
from numba.cuda.extending import intrinsic

SOURCE = '''
from numba.cuda import types
from numba.cuda.extending import intrinsic


def make():
    @intrinsic
    def twice(typingctx, a: int):
        """twice docstring"""
        def codegen(context, builder, signature, args):
            return builder.add(args[0], args[0])
        return types.int64(types.int64), codegen
    return twice
'''


@intrinsic
def here(typingctx, x):
    return types.void(x), lambda context, builder, signature, args: None


assert here.__module__ == "__main__", here.__module__

with tempfile.TemporaryDirectory() as folder:
    for name in ("_probe_via_numba", "_probe_via_cuda"):
        with open(os.path.join(folder, name + ".py"), "w") as f:
            f.write(SOURCE)
    cuda.__path__.append(folder)
    try:
        import numba.cuda._probe_via_numba as via_numba
        import cuda._probe_via_cuda as via_cuda
    finally:
        cuda.__path__.remove(folder)

    # The module object is cuhost's `cuda.X` under both names.
    assert via_numba is sys.modules["cuda._probe_via_numba"]
    assert via_numba.__name__ == "cuda._probe_via_numba"

    twice = via_numba.make()
    assert twice.__module__ == "numba.cuda._probe_via_numba", twice.__module__
    assert twice.__name__ == "twice"
    assert twice.__qualname__ == "make.<locals>.twice", twice.__qualname__
    assert twice.__doc__ == "twice docstring"
    assert inspect.get_annotations(twice) == {"a": int}

    other = via_cuda.make()
    assert other.__module__ == "cuda._probe_via_cuda", other.__module__

    # Imported later through the other path: still the name of the first import.
    import numba.cuda._probe_via_cuda as again
    assert again is via_cuda and via_cuda.make().__module__ == "cuda._probe_via_cuda"

    # The intrinsic still works in a kernel.
    import numpy as np

    @cuda.jit
    def k(out):
        out[0] = twice(np.int64(21))

    out = np.zeros(1, dtype=np.int64)
    k[1, 1](out)
    assert out[0] == 42, out

print("intrinsic module names ok")
