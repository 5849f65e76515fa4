# numba.cuda.config's compile dumps (DUMP_BYTECODE, DUMP_LLVM, DUMP_ASSEMBLY
# print numba's banners and the text to sys.stdout after a compile), compile
# warnings issued as Python warnings once the compile returns (print() of
# more than 32 items), ZeroDivisionError from debug division checks as
# numba-cuda raises it (still a cuda.KernelError), and numba.cuda.cloudpickle
# keeping a dynamic class's state within a process.
# stdout: dumps and warnings ok
import contextlib
import io
import warnings

import numpy as np
from numba import cuda
from numba.cuda import cloudpickle, config
from numba.cuda.core.errors import NumbaWarning
from numba.cuda.serialize import _numba_unpickle


def add_half(a, b):
    b[cuda.grid(1)] = a[cuda.grid(1)] + 1.5


out = io.StringIO()
old = (config.DUMP_BYTECODE, config.DUMP_LLVM, config.DUMP_ASSEMBLY)
config.DUMP_BYTECODE = config.DUMP_LLVM = config.DUMP_ASSEMBLY = 1
try:
    with contextlib.redirect_stdout(out):
        cuda.jit("void(float64[::1], float64[::1])")(add_half)
finally:
    config.DUMP_BYTECODE, config.DUMP_LLVM, config.DUMP_ASSEMBLY = old
text = out.getvalue()
assert "BYTECODE DUMP add_half" in text and "BINARY_OP(arg=0" in text, text
assert "LLVM DUMP add_half" in text and '!"kernel", i32 1' in text, text
assert "ASSEMBLY add_half" in text and ".visible .entry" in text, text


@cuda.jit
def many(r):
    print(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15],
          r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23], r[24], r[25], r[26], r[27], r[28], r[29], r[30],
          r[31], r[32])


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        many[1, 1](np.arange(33))
msgs = [str(w.message) for w in caught if issubclass(w.category, NumbaWarning)]
assert any("cannot print more than 32 items" in m for m in msgs), msgs
if cuda.backend() == "cpu":  # on a GPU, vprintf writes to the process's stdout, past Python's sys.stdout
    assert " ".join(["%lld"] * 33) in printed.getvalue(), printed.getvalue()


@cuda.jit(debug=True, opt=False)
def divide(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]


r = np.zeros(2)
try:
    divide[1, 1](r, np.zeros(1), np.ones(1))
except ZeroDivisionError as e:
    assert str(e).endswith("tid=[0, 0, 0] ctaid=[0, 0, 0]: division by zero"), str(e)
else:
    raise AssertionError("no ZeroDivisionError")
assert list(r) == [0.0, 0.0], r  # the thread stopped at the division


class Klass:
    classvar = None


saved = cloudpickle.dumps(Klass)
Klass.classvar = 100
assert cloudpickle.loads(saved) is Klass and Klass.classvar == 100
blob = cloudpickle.dumps([1, 2])
assert _numba_unpickle(1, blob, 7) is _numba_unpickle(1, blob, 7)
print("dumps and warnings ok")
