# cuda.local.array and cuda.shared.array take numba-cuda's `alignment=`: the
# array's address is a multiple of it (static and dynamic shared memory,
# local memory, scalar and record dtypes, after an odd-sized shared array),
# the PTX declares it, and bad values fail as numba-cuda's do: a literal
# integer is required (TypingError naming RequireLiteralValue), and it must
# be positive, a power of two, a multiple of 8 and at most 4096 (ValueError).
# stdout: alignment ok
# stdout: errors ok
import re

import numpy as np
from numba import cuda
from numba.core.errors import TypingError

record = np.dtype([("a", np.uint8), ("b", np.int32), ("c", np.float64)], align=True)

for dtype in (np.uint8, np.float64, record):
    for align in (None, 8, 16, 64, 256, 1024):

        @cuda.jit
        def where(out, vals):
            odd = cuda.shared.array(3, dtype=np.uint8)  # moves the next array off any large boundary
            s = cuda.shared.array((2, 3), dtype=dtype, alignment=align)
            loc = cuda.local.array(5, dtype=dtype, alignment=align)
            dyn = cuda.shared.array(0, dtype=np.float32, alignment=align)
            i = cuda.grid(1)
            dyn[i] = vals[i]
            cuda.syncthreads()
            vals[i] = dyn[31 - i] * 2  # the arrays still work as arrays
            if i == 0:
                out[0] = s.ctypes.data
                out[1] = loc.ctypes.data
                out[2] = dyn.ctypes.data
                odd[0] = 1

        out = np.zeros(3, np.uint64)
        vals = np.random.default_rng(3).standard_normal(32).astype(np.float32)
        expect = vals[::-1] * 2
        where[1, 32, 0, 128](out, vals)
        np.testing.assert_array_equal(vals, expect)
        a = align or 8
        assert all(int(x) % a == 0 for x in out), (dtype, align, [hex(int(x)) for x in out])


@cuda.jit("void(uint64[:])")
def declared(out):
    s = cuda.shared.array(10, dtype=np.uint8, alignment=256)
    loc = cuda.local.array(10, dtype=np.uint8, alignment=128)
    out[0] = s.ctypes.data
    out[1] = loc.ctypes.data


ptx = declared.inspect_asm(declared.signatures[0])
# Shared arrays are declared with their alignment. ptxas places a thread's
# local frame on a 16-byte boundary only (a local array asked for 64 bytes
# was seen at ...410 on an H200), so a larger local alignment is made at run
# time: the frame is declared 16-aligned and the address rounded up.
assert ".shared .align 256" in ptx and ".local .align 16" in ptx, ptx
assert re.search(r"neg\.s64\s+%rd\d+, %rd\d+;\s+and\.b64\s+%rd\d+, %rd\d+, (127|112);", ptx), ptx
print("alignment ok")

for bad, error, text in ((3, ValueError, "Alignment must be a power of 2"), (0, ValueError, "Alignment must be positive"),
                         (-8, ValueError, "Alignment must be positive"),
                         (4, ValueError, "Alignment must be a multiple of 8"),
                         (8192, ValueError, "Alignment must be at most 4096, not 8192"),
                         (1 << 33, ValueError, "Alignment must be at most 4096, not 8589934592"),
                         ("16", TypingError, "RequireLiteralValue: alignment must be a constant integer"),
                         (2.0, TypingError, "RequireLiteralValue: alignment must be a constant integer")):
    for kind in ("local", "shared"):

        @cuda.jit
        def wrong(out):
            if kind == "local":
                arr = cuda.local.array(4, dtype=np.uint8, alignment=bad)
            else:
                arr = cuda.shared.array(4, dtype=np.uint8, alignment=bad)
            out[0] = arr.ctypes.data

        try:
            wrong[1, 1](np.zeros(1, np.uint64))
        except error as e:
            assert text in str(e), (bad, str(e))
            assert "array_alignment.py" in str(e), str(e)  # the location of the call
        else:
            raise AssertionError("alignment=%r was accepted" % (bad,))
print("errors ok")
