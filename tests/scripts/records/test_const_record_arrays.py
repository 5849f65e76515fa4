# Global NumPy arrays of records are constants of the kernel, read directly
# or through cuda.const.array_like: packed and aligned dtypes, nested
# arrays, an empty record array (its length), and a tuple of record arrays.
# stdout: const record arrays ok
import numpy as np
from numba import cuda

PACKED = np.array([(1.5, 2, 7), (3.25, -4, 9), (-1.0, 6, 11)], dtype=[("x", np.float64), ("y", np.int64),
                                                                    ("z", np.uint8)])
ALIGNED = np.array([(1, 2, 3, 0xDEADBEEF, 8), (4, 5, 6, 0xBEEFDEAD, 10)],
                   dtype=np.dtype([("a", np.uint8), ("b", np.uint8), ("x", np.uint8), ("y", np.uint32),
                                   ("z", np.uint8)], align=True))
NESTED = np.zeros(2, dtype=[("v", np.float32, (3,)), ("n", np.int16)])
NESTED["v"] = [[1, 2, 3], [4, 5, 6]]
NESTED["n"] = [-3, 12]
EMPTY = np.array([], dtype=[("x", float), ("y", int)])
BOTH = (PACKED, ALIGNED)


@cuda.jit
def read(out, lengths):
    i = cuda.grid(1)
    if i < PACKED.shape[0]:
        out[i, 0] = PACKED[i].x
        out[i, 1] = PACKED[i]["y"]
        out[i, 2] = PACKED[i].z
    c = cuda.const.array_like(ALIGNED)
    if i < c.shape[0]:
        out[i, 3] = c[i]["y"]
        out[i, 4] = c[i]["z"] + c[i]["a"]
    if i < NESTED.shape[0]:
        out[i, 5] = NESTED[i].v[0] + NESTED[i].v[2] + NESTED[i].n
    if i == 0:
        lengths[0] = len(EMPTY)
        lengths[1] = len(cuda.const.array_like(EMPTY))
        lengths[2] = BOTH[1][1].b + BOTH[0][2].y


out = np.zeros((3, 6))
lengths = np.full(3, -1, np.int64)
read[1, 3](out, lengths)
want = np.zeros((3, 6))
want[:, 0] = PACKED["x"]
want[:, 1] = PACKED["y"]
want[:, 2] = PACKED["z"]
want[:2, 3] = ALIGNED["y"]
want[:2, 4] = ALIGNED["z"].astype(int) + ALIGNED["a"]
want[:2, 5] = NESTED["v"][:, 0] + NESTED["v"][:, 2] + NESTED["n"]
assert np.array_equal(out, want), (out, want)
assert list(lengths) == [0, 0, 5 + 6], lengths
print("const record arrays ok")
