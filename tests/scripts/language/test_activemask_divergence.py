# activemask() in divergent branches names only the lanes of its own branch
# (two calls, one per branch, in the same warp), the vote functions refuse
# a float or boolean mask and a float predicate with numba-cuda's messages,
# and a kernel compiled for one signature (numba-cuda's "specialized"
# dispatcher) reads an array of another dtype of the same size as its own.
# stdout: activemask ok
import numpy as np
from numba import cuda
from numba.cuda.core.errors import TypingError


@cuda.jit
def by_parity(out):
    i = cuda.grid(1)
    if i % 3 == 0:
        out[i] = cuda.activemask()
    else:
        out[i] = cuda.activemask()


out = np.zeros(64, np.uint32)
by_parity[1, 64](out)
lanes = np.arange(32)
thirds = np.uint32(sum(1 << int(j) for j in lanes if j % 3 == 0))
others = np.uint32(0xFFFFFFFF) ^ thirds
for i in range(64):
    # Lane i % 32 in warp i // 32; (i % 3) is not (lane % 3) for the second warp.
    warp_lanes = [j for j in range(32) if ((i // 32) * 32 + j) % 3 == 0]
    mask = np.uint32(sum(1 << j for j in warp_lanes))
    want = mask if i % 3 == 0 else np.uint32(0xFFFFFFFF) ^ mask
    assert out[i] == want, (i, hex(out[i]), hex(want))
assert out[0] == thirds and out[1] == others


def vote(mask, predicate, result):
    i = cuda.grid(1)
    if i < result.shape[0]:
        result[i] = cuda.all_sync(mask[i], predicate[i])


for sig, message in (("void(float32[:], int32[:], int32[:])", "Mask type must be an integer. Got float32"),
                     ("void(boolean[:], int32[:], int32[:])", "Mask type must be an integer. Got bool"),
                     ("void(int32[:], float64[:], int32[:])", "Predicate must be an integer or boolean. Got float64")):
    try:
        cuda.jit(sig)(vote)
    except TypingError as e:
        assert message in str(e), str(e)
    else:
        raise AssertionError("no TypingError for " + sig)


def decrement(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] -= 1


data = np.arange(1, 33, dtype=np.uint32).reshape(4, 8)
cuda.jit("void(int32[:, :])")(decrement)[1, (4, 8)](data)
assert (data == np.arange(32, dtype=np.uint32).reshape(4, 8)).all()
try:
    cuda.jit(["void(int32[:, :])"])(decrement)[1, (4, 8)](data)
except TypeError as e:
    assert "No matching definition" in str(e)
else:
    raise AssertionError("a list of signatures checks argument types")
try:
    cuda.jit("void(int32[:, :])")(decrement)[1, (4, 8)](np.zeros((4, 8), np.int64))
except TypeError as e:
    assert "No matching definition" in str(e)
else:
    raise AssertionError("an element of another size cannot be reinterpreted")
print("activemask ok")
