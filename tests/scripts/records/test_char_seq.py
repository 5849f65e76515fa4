# NumPy fixed-width strings (dtype S<n> and U<n>; numba's CharSeq and
# UnicodeCharSeq) in arrays and record fields passed to kernels: storing a
# str or bytes constant truncates it to the width and pads it with NULs, as
# NumPy's own assignment does (checked against NumPy); only ASCII text goes
# into bytes fields. A store into a read-only or mismatched slot is a
# typing error.
# stdout: char seqs ok
import numpy as np
from numba import cuda
from numba.core.errors import TypingError


@cuda.jit
def fill_unicode(arr):
    i = cuda.grid(1)
    if i < arr.size:
        if i % 3 == 0:
            arr[i] = "héllo wörld, long"  # truncated to the width
        elif i % 3 == 1:
            arr[i] = "ab"
        else:
            arr[i] = ""


@cuda.jit
def fill_bytes(arr):
    i = cuda.grid(1)
    if i < arr.size:
        if i % 2 == 0:
            arr[i] = b"0123456789abcdef"
        else:
            arr[i] = b"xy"


def expect_fill(arr, values):
    out = np.zeros_like(arr)
    for i in range(out.size):
        out[i] = values[i % len(values)]
    return out


for width in (1, 5, 12):
    u = np.full(40, "zzzzzzzzzzzzzzzz"[:width], dtype="U%d" % width)
    fill_unicode[2, 32](u)
    assert (u == expect_fill(u, ["héllo wörld, long", "ab", ""])).all(), u
    # The NUL padding is in memory, not only in NumPy's view of it.
    raw = u.view(np.uint32).reshape(40, width)
    assert (raw[1, 2:] == 0).all() and (raw[2] == 0).all()
    s = np.full(33, b"Q" * width, dtype="S%d" % width)
    fill_bytes[2, 32](s)
    assert (s == expect_fill(s, [b"0123456789abcdef", b"xy"])).all(), s
    assert (s.view(np.uint8).reshape(33, width)[1, 2:] == 0).all()

# 2-D arrays and device arrays.
d2 = np.zeros((3, 4), dtype="U6")


@cuda.jit
def fill2(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = "cell"


fill2[(1, 1), (4, 4)](d2)
assert (d2 == "cell").all()
dev = cuda.to_device(np.zeros(10, dtype="S4"))
fill_bytes[1, 32](dev)
assert (dev.copy_to_host() == expect_fill(np.zeros(10, "S4"), [b"0123456789abcdef", b"xy"])).all()

# Record fields.
rec = np.dtype([("n", np.int32), ("name", "U7"), ("tag", "S3"), ("v", np.float64)], align=True)
recs = np.zeros(6, rec)


@cuda.jit
def label(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["n"] = i
        a[i].name = "record-number"
        a[i]["tag"] = b"T"
        a[i]["v"] = i * 0.5


label[1, 8](recs)
ref = np.zeros(6, rec)
for i in range(6):
    ref[i] = (i, "record-number", b"T", i * 0.5)
assert (recs == ref).all(), recs


def typing_error(fn, *args):
    try:
        cuda.jit(fn)[1, 1](*args)
    except TypingError as e:
        return str(e)
    raise AssertionError("no TypingError")


def non_ascii(a):
    a[0] = "é"


msg = typing_error(non_ascii, np.zeros(2, "S4"))
assert "cannot store a value of type str into an element of type [char x 4]" in msg, msg


def number_into_string(a):
    a[0] = 3


msg = typing_error(number_into_string, np.zeros(2, "U4"))
assert "cannot store a value of type int64 into an element of type [unichr x 4]" in msg, msg
# The spellings of the types, and the PTX path (compiled here without a GPU):
# the constant's characters are stored one by one, truncated and padded.
from numba.cuda import types  # noqa: E402

assert str(types.UnicodeCharSeq(5)) == "[unichr x 5]" and str(types.CharSeq(3)) == "[char x 3]"


def put(a):
    a[1] = b"ABCD"


ptx, _ = cuda.compile_ptx(put, "void(array([char x 3], 1d, C))")
stores = [line for line in ptx.splitlines() if "st.global.u8" in line]
assert len(stores) == 3, stores  # "ABC", truncated
print("char seqs ok")
