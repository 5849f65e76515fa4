# A kernel's source is cut from its file by indentation; where that cut
# cannot be right (a string or a continued line that dips below the kernel's
# indentation), capture falls back to inspect and compiles the same kernel,
# with error locations still pointing at the file's lines and columns.
# stdout: capture fallback ok
import numpy as np
from numba import cuda


def make():
    @cuda.jit
    def shifted(out, xs):
        note = """a docstring-like string
with a line at column 0
        """
        i = cuda.grid(1)
        if i < out.size:
            out[i] = xs[i] + (3 +
4)

    return shifted


k = make()
rng = np.random.default_rng(3)
xs = rng.integers(-100, 100, 64).astype(np.int64)
out = np.zeros(64, np.int64)
k[1, 64](out, xs)
np.testing.assert_array_equal(out, xs + 7)


def make_bad():
    @cuda.jit
    def bad(out):
        s = """text
at column 0"""
        out[0] = undefined_name


    return bad


try:
    make_bad()[1, 1](np.zeros(1))
except Exception as e:
    msg = str(e)
    assert type(e).__name__ == "NameError", type(e)
    assert "capture_fallback.py:37" in msg, msg
    assert "name 'undefined_name' is not defined" in msg, msg
else:
    raise AssertionError("no error")
print("capture fallback ok")
