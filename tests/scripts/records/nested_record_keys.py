# Nested records by string key, literal index and attribute, in any mix:
# r["m"]["pos"]["x"], r["m"].pos["y"], r.m["pos"].k, r[1][2][0], as reads,
# writes and augmented assignments (+=, -=, *=, //=, ^=), on record arrays, a
# record variable (r = a[i]), record arguments and records passed to device
# functions, through arrays of records nested in records, three levels deep,
# on packed (NumPy's default) and aligned (align=True) dtypes, on an aligned
# record nested in a packed one and on records nested at an odd offset;
# keys from literal_unroll; a["m"]["pos"]["x"] and a.m.q as views of every
# element; iteration over an array field of records. Results against NumPy
# on random data; an augmented assignment evaluates its record once. The PTX
# of the packed accesses is byte-wise (a packed element sits at any byte,
# and so does an aligned record nested in it). Refusals: numba's error
# class, message and the line:column of the access.
# stdout: nested record keys ok
import re

import numpy as np
from numba import cuda, literal_unroll

rng = np.random.default_rng(2026)
N = 29


def dtypes(align):
    inner = np.dtype([("x", np.float32), ("y", np.int16), ("k", np.int8)], align=align)
    mid = np.dtype([("s", np.int32), ("q", np.int16, (2,)), ("pos", inner), ("t", np.int8)], align=align)
    outer = np.dtype([("id", np.int32), ("m", mid), ("v", np.float32, (3,)), ("pts", inner, (2,)),
                      ("flag", np.int8)], align=align)
    return outer


packed = dtypes(False)
aligned = dtypes(True)
# Offsets NumPy gives the packed layout: every scalar field at a multiple of
# its alignment within its record (numba-cuda's rule), the 47-byte elements
# (and the 7-byte records of `pts`) at any byte.
assert packed.itemsize == 47 and packed.fields["pts"][1] == 32 and packed["m"].fields["pos"][1] == 8
assert aligned.itemsize == 56 and aligned["m"].fields["pos"][1] == 8


def sample(dtype, n=N):
    a = np.zeros(n, dtype)
    a["id"] = rng.integers(-1000, 1000, n)
    a["m"]["s"] = rng.integers(-10**6, 10**6, n)
    a["m"]["q"] = rng.integers(-300, 300, (n, 2))
    a["m"]["pos"]["x"] = rng.standard_normal(n)
    a["m"]["pos"]["y"] = rng.integers(-3000, 3000, n)
    a["m"]["pos"]["k"] = rng.integers(-50, 50, n)
    a["m"]["t"] = rng.integers(-100, 100, n)
    a["v"] = rng.standard_normal((n, 3))
    a["pts"]["x"] = rng.standard_normal((n, 2))
    a["pts"]["y"] = rng.integers(-3000, 3000, (n, 2))
    a["pts"]["k"] = rng.integers(-50, 50, (n, 2))
    a["flag"] = rng.integers(-100, 100, n)
    return a


@cuda.jit
def reads(a, out, iout):
    i = cuda.grid(1)
    if i < a.size:
        r = a[i]
        out[i, 0] = a[i]["m"]["pos"]["x"]
        out[i, 1] = a[i]["m"].pos["x"] * 2
        out[i, 2] = a[i].m["pos"].x + r["v"][2]
        out[i, 3] = r[1][2][0]  # the same field by literal index
        out[i, 4] = a[i]["pts"][1]["x"] - r.pts[0]["x"]
        out[i, 5] = a[i][1][-2]["x"]  # a negative literal index wraps as in Python
        iout[i, 0] = a[i]["m"]["pos"]["y"] + r["m"]["pos"].k
        iout[i, 1] = r["m"]["s"] + a[i].m["q"][1]
        iout[i, 2] = a[i]["pts"][0].y + a[i].pts[1]["k"] + r["m"]["t"] + r.flag


@cuda.jit
def writes(a, xs, ks):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["m"]["pos"]["x"] = xs[i]
        a[i]["m"].pos["y"] = ks[i] * 3
        a[i].m["pos"].k = ks[i] % 100 - 50
        r = a[i]
        r["m"]["s"] = ks[i] - 7
        r["m"]["q"][0] = ks[i] // 2
        r.pts[1]["x"] = xs[i] + 1
        r["pts"][0]["y"] = ks[i] + 1
        r[1][2][2] = 5  # m.pos.k by index, after the write above


@cuda.jit
def updates(a, xs, ks):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["m"]["pos"]["x"] += xs[i]
        a[i]["m"]["pos"]["y"] -= 3
        a[i].m["pos"]["k"] *= 2
        a[i]["m"].s //= 3
        r = a[i]
        r["m"]["s"] ^= ks[i]
        r.m["q"][1] += ks[i]
        r["pts"][1]["x"] *= 0.5
        r["pts"][0].y += 11
        r[1][2][1] += 1  # m.pos.y again, by index
        r["v"][0] -= xs[i]
        r["flag"] += 1


def expect_updates(a, xs, ks):
    e = a.copy()
    e["m"]["pos"]["x"] += xs
    e["m"]["pos"]["y"] -= 3
    e["m"]["pos"]["k"] *= 2
    e["m"]["s"] //= 3
    e["m"]["s"] ^= ks.astype(np.int32)
    e["m"]["q"][:, 1] += ks.astype(np.int16)
    e["pts"]["x"][:, 1] *= 0.5
    e["pts"]["y"][:, 0] += 11
    e["m"]["pos"]["y"] += 1
    e["v"][:, 0] -= xs
    e["flag"] += 1
    return e


def assert_records_equal(got, expect, where):
    for name in ("id", "flag", "v", "pts"):
        np.testing.assert_array_equal(got[name], expect[name], err_msg="%s %s" % (where, name))
    for name in ("s", "q", "t", "pos"):
        np.testing.assert_array_equal(got["m"][name], expect["m"][name], err_msg="%s m.%s" % (where, name))


for dtype in (packed, aligned):
    a = sample(dtype)
    out = np.zeros((N, 6), np.float64)
    iout = np.zeros((N, 3), np.int64)
    reads[1, 32](a, out, iout)
    m, pts = a["m"], a["pts"]
    np.testing.assert_array_equal(out[:, 0], m["pos"]["x"])
    np.testing.assert_array_equal(out[:, 1], m["pos"]["x"].astype(np.float64) * 2)
    np.testing.assert_allclose(out[:, 2], m["pos"]["x"] + a["v"][:, 2], rtol=1e-6)
    np.testing.assert_array_equal(out[:, 3], m["pos"]["x"])
    np.testing.assert_allclose(out[:, 4], pts["x"][:, 1] - pts["x"][:, 0], rtol=1e-6)
    np.testing.assert_array_equal(out[:, 5], m["pos"]["x"])
    np.testing.assert_array_equal(iout[:, 0], m["pos"]["y"].astype(np.int64) + m["pos"]["k"])
    np.testing.assert_array_equal(iout[:, 1], m["s"].astype(np.int64) + m["q"][:, 1])
    np.testing.assert_array_equal(
        iout[:, 2], pts["y"][:, 0].astype(np.int64) + pts["k"][:, 1] + m["t"] + a["flag"])

    a = sample(dtype)
    xs = rng.standard_normal(N)
    ks = rng.integers(0, 1000, N)
    e = a.copy()
    writes[1, 32](a, xs, ks)
    e["m"]["pos"]["x"] = xs
    e["m"]["pos"]["y"] = ks * 3
    e["m"]["s"] = ks - 7
    e["m"]["q"][:, 0] = ks // 2
    e["pts"]["x"][:, 1] = xs + 1
    e["pts"]["y"][:, 0] = ks + 1
    e["m"]["pos"]["k"] = 5
    assert_records_equal(a, e, "writes %s" % dtype.isalignedstruct)

    a = sample(dtype)
    xs = rng.standard_normal(N)
    ks = rng.integers(-1000, 1000, N)
    e = expect_updates(a, xs, ks)
    updates[1, 32](a, xs, ks)
    assert_records_equal(a, e, "updates %s" % dtype.isalignedstruct)


# A string key on a structured array (or an array field of records) is
# numba's view of that field of every element; an array field adds its own
# dimensions. Iterating an array of records gives references to elements.
@cuda.jit
def field_views(a, out, iout):
    i = cuda.grid(1)
    if i < a.size:
        xs = a["m"]["pos"]["x"]
        q = a["m"]["q"]
        out[i, 0] = xs[i] + a[i]["pts"]["x"][1]
        out[i, 1] = a["pts"][i, 0]["x"] * a["v"][i, 2]
        iout[i, 0] = q[i, 1] - q.shape[1] + a["pts"]["y"][i, 1] + a.m.q[i, 0] * 3
        total = 0
        for p in a[i]["pts"]:
            total += p["k"]
            p["y"] = total
        iout[i, 1] = total
        a["m"]["t"][i] += 1  # a write through the view


for dtype in (packed, aligned):
    a = sample(dtype)
    e = a.copy()
    out = np.zeros((N, 2), np.float64)
    iout = np.zeros((N, 2), np.int64)
    field_views[1, 32](a, out, iout)
    np.testing.assert_allclose(out[:, 0], e["m"]["pos"]["x"] + e["pts"]["x"][:, 1], rtol=1e-6)
    np.testing.assert_allclose(out[:, 1], e["pts"]["x"][:, 0] * e["v"][:, 2], rtol=1e-6)
    np.testing.assert_array_equal(
        iout[:, 0], e["m"]["q"][:, 1].astype(np.int64) - 2 + e["pts"]["y"][:, 1] + e["m"]["q"][:, 0] * 3)
    np.testing.assert_array_equal(iout[:, 1], e["pts"]["k"].astype(np.int64).sum(axis=1))
    e["pts"]["y"] = np.cumsum(e["pts"]["k"].astype(np.int64), axis=1)
    e["m"]["t"] += 1
    assert_records_equal(a, e, "field views %s" % dtype.isalignedstruct)


# Keys from literal_unroll: one copy of the body per field name.
@cuda.jit
def unrolled_keys(a, v):
    i = cuda.grid(1)
    if i < a.size:
        for key in literal_unroll(("x", "y", "k")):
            a[i]["m"]["pos"][key] += v
        for key in literal_unroll(("s", "q")):
            a[i].m[key] = a[i]["m"][key]  # a scalar and a whole array field, onto themselves


for dtype in (packed, aligned):
    a = sample(dtype)
    e = a.copy()
    unrolled_keys[1, 32](a, 3)
    for key in ("x", "y", "k"):
        e["m"]["pos"][key] += 3
    assert_records_equal(a, e, "unrolled keys %s" % dtype.isalignedstruct)


# A record argument (numba-cuda passes it by reference: writes reach the
# host's record), and nested records passed to device functions.
@cuda.jit(device=True)
def bump(p, v):
    p["x"] += v
    p.y -= 1


@cuda.jit(device=True)
def bump_mid(m, v):
    m["pos"]["k"] += 3
    bump(m["pos"], v)


@cuda.jit
def update_record(r, v):
    r["m"]["pos"]["x"] += v
    r.m["q"][1] *= 2
    r["pts"][1]["y"] -= 9


@cuda.jit
def through_device(a, xs):
    i = cuda.grid(1)
    if i < a.size:
        bump_mid(a[i]["m"], xs[i])
        bump(a[i].pts[1], xs[i])


for dtype in (packed, aligned):
    host = sample(dtype, 4)
    e = host.copy()
    update_record[1, 1](host[2], 1.25)
    e["m"]["pos"]["x"][2] += np.float32(1.25)
    e["m"]["q"][2, 1] *= 2
    e["pts"]["y"][2, 1] -= 9
    assert_records_equal(host, e, "record argument %s" % dtype.isalignedstruct)

    a = sample(dtype)
    xs = rng.standard_normal(N)
    e = a.copy()
    through_device[1, 32](a, xs)
    e["m"]["pos"]["k"] += 3
    e["m"]["pos"]["x"] += xs
    e["m"]["pos"]["y"] -= 1
    e["pts"]["x"][:, 1] += xs
    e["pts"]["y"][:, 1] -= 1
    assert_records_equal(a, e, "device functions %s" % dtype.isalignedstruct)


# The record of an augmented assignment is evaluated once: each claimed
# index is updated exactly once, and the counter counts one claim a step.
@cuda.jit
def claim_each(a, counter, n):
    for _ in range(n):
        a[cuda.atomic.add(counter, 0, 1)]["m"]["pos"]["y"] += 1
    for _ in range(n):
        a[cuda.atomic.add(counter, 0, 1) - n].m.s += 1


a = sample(packed)
e = a.copy()
counter = np.zeros(1, np.int64)
claim_each[1, 1](a, counter, N)
e["m"]["pos"]["y"] += 1
e["m"]["s"] += 1
assert counter[0] == 2 * N, counter
assert_records_equal(a, e, "single evaluation")

# An aligned record nested in a packed one: NumPy keeps the inner record's
# alignment flag, but the 13-byte outer elements put it at any byte, so its
# fields are accessed byte-wise too (a GPU faults on a misaligned wide
# access). A record field may sit at any offset (numba-cuda checks the
# alignment of scalar fields only): a packed record at byte 1, and an aligned
# one there, are read and written byte-wise.
inner_aligned = np.dtype([("x", np.float32), ("y", np.int16)], align=True)
mixed = np.dtype([("id", np.int32), ("pos", inner_aligned), ("z", np.int8)])
assert mixed.itemsize == 13 and mixed.fields["pos"][1] == 4
odd_packed = np.dtype([("c", np.int8), ("inner", np.dtype([("w", np.float64), ("n", np.int32)]))])
odd_aligned = np.dtype([("c", np.int8), ("inner", np.dtype([("w", np.float64), ("n", np.int32)], align=True))])
assert odd_packed.fields["inner"][1] == 1 and odd_aligned.fields["inner"][1] == 1


@cuda.jit
def mixed_update(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["pos"]["x"] += a[i].pos["y"]
        a[i].pos["y"] = a[i]["id"] + 1


@cuda.jit
def odd_update(a):
    for i in range(a.size):
        a[i]["inner"]["w"] *= a[i].inner["n"]
        a[i]["inner"].n -= a[i]["c"]
    for i in range(1, a.size):
        a[i]["inner"] = a[i - 1]["inner"]  # a whole nested record, byte-wise


@cuda.jit
def fields_only(a):  # touches nothing but the records (for the PTX check)
    i = cuda.grid(1)
    if i < a.size:
        a[i]["m"]["pos"]["x"] += a[i].m["pos"]["y"]
        a[i]["pts"][1]["y"] -= a[i]["m"]["s"]
        a[i].m["q"][1] += a[i]["pts"][0].k


b = np.zeros(N, mixed)
b["id"] = rng.integers(-1000, 1000, N)
b["pos"]["x"] = rng.standard_normal(N)
b["pos"]["y"] = rng.integers(-1000, 1000, N)
b["z"] = rng.integers(-100, 100, N)
e = b.copy()
mixed_update[1, 32](b)
e["pos"]["x"] += e["pos"]["y"]
e["pos"]["y"] = e["id"] + 1
for name in ("id", "pos", "z"):
    np.testing.assert_array_equal(b[name], e[name])

for dtype in (odd_packed, odd_aligned):
    b = np.zeros(N, dtype)
    b["c"] = rng.integers(-100, 100, N)
    b["inner"]["w"] = rng.standard_normal(N)
    b["inner"]["n"] = rng.integers(-1000, 1000, N)
    e = b.copy()
    odd_update[1, 1](b)
    e["inner"]["w"] *= e["inner"]["n"]
    e["inner"]["n"] -= e["c"]
    e["inner"][1:] = e["inner"][0]  # each copied its predecessor, itself a copy of element 0
    np.testing.assert_array_equal(b["inner"], e["inner"])
    np.testing.assert_array_equal(b["c"], e["c"])

for dtype in (packed, aligned):
    a = sample(dtype)
    e = a.copy()
    fields_only[1, 32](a)
    e["m"]["pos"]["x"] += e["m"]["pos"]["y"]
    e["pts"]["y"][:, 1] -= e["m"]["s"].astype(np.int16)
    e["m"]["q"][:, 1] += e["pts"]["k"][:, 0]
    assert_records_equal(a, e, "fields only %s" % dtype.isalignedstruct)

# The PTX: no wide global access into a packed element or a record nested
# at any byte; the aligned dtype keeps its wide accesses.
wide_access = re.compile(r"(?:ld|st)\.global(?:\.nc)?\.(?:[usbf](?:16|32|64)|v\d)")
for kernel in (fields_only, mixed_update, odd_update):
    assert kernel.signatures
    for sig in kernel.signatures:
        wide = wide_access.findall(kernel.inspect_asm(sig))
        if ";%d;True)" % aligned.itemsize in str(sig[0]):
            assert wide, (sig, "aligned records keep wide accesses")
        else:
            assert wide == [], (sig, wide)

# Refusals: numba's error class and message, at the access.
SOURCE = open(__file__, encoding="utf-8").read().splitlines()


def where(marker):
    for n, line in enumerate(SOURCE, 1):
        if marker in line and not line.lstrip().startswith(("where(", "expect(")):
            return n, line.index(marker) + 1
    raise AssertionError(marker)


checks = 0


def expect(kind, message, marker, launch):
    global checks
    line, col = where(marker)
    try:
        launch()
    except Exception as err:  # noqa: BLE001 - the class is checked by name
        text = str(err)
        assert type(err).__name__ == kind, (type(err).__name__, text)
        assert message in text, (message, text)
        assert ":%d:%d\n" % (line, col) in text, (line, col, text)
        assert "internal error" not in text, text
        checks += 1
        return
    raise AssertionError("no error for: " + message)


@cuda.jit
def unknown_key(a):
    a[0]["m"]["pos"]["x"] = a[0]["m"]["nope"]


@cuda.jit
def index_out_of_range(a):
    a[0]["m"][4] = 1


@cuda.jit
def runtime_key(a, k):
    a[0]["id"] = a[0]["m"][k]


@cuda.jit
def whole_record_update(a):
    a[0]["m"]["pos"] += a[1]["m"]["pos"]


@cuda.jit
def whole_array_update(a):
    a[0]["m"]["q"] += 1


@cuda.jit
def whole_array_update_attr(a):
    a[0].m.q += 1


@cuda.jit
def record_from_number(a):
    a[0]["m"]["pos"] = 3


@cuda.jit
def index_a_number(a):
    a[0]["m"]["pos"]["x"]["z"] = 1


@cuda.jit
def store_whole_field(a):
    a["m"]["t"] = 1


misaligned = np.dtype([("c", np.int8), ("inner", np.dtype([("b", np.int8), ("w", np.float64)]))])


@cuda.jit
def misaligned_nested(a):
    a[0]["inner"]["w"] += 1


pk = sample(packed, 2)
mid_fields = "('s', 'q', 'pos', 't')"
expect("TypingError", "Field 'nope' was not found in record with fields " + mid_fields, 'a[0]["m"]["nope"]',
       lambda: unknown_key[1, 1](pk))
expect("TypingError", "Requested index 4 is out of range", 'a[0]["m"][4]', lambda: index_out_of_range[1, 1](pk))
expect("TypingError", "a record is indexed by a literal field name or a literal integer, not int64", "k]",
       lambda: runtime_key[1, 1](pk, 1))
pos_type = "Record(x[type=float32;offset=0],y[type=int16;offset=4],k[type=int8;offset=6];7;False)"
expect("TypingError", "cannot add %s and %s" % (pos_type, pos_type), 'a[0]["m"]["pos"] +=',
       lambda: whole_record_update[1, 1](pk))
expect("TypingError", "cannot add unaligned array(int16, 1d, C) and int64", 'a[0]["m"]["q"] +=',
       lambda: whole_array_update[1, 1](pk))
expect("TypingError", "cannot add unaligned array(int16, 1d, C) and int64", "a[0].m.q +=",
       lambda: whole_array_update_attr[1, 1](pk))
expect("TypingError", "cannot store a value of type int64 into a record field of type " + pos_type,
       'a[0]["m"]["pos"] = 3', lambda: record_from_number[1, 1](pk))
expect("TypingError", "'float32' object is not subscriptable", 'a[0]["m"]["pos"]["x"]["z"]',
       lambda: index_a_number[1, 1](pk))
expect("TypeError", "Record(b[type=int8;offset=0],w[type=float64;offset=1];9;False).w of type float64 is not aligned",
       'a[0]["inner"]["w"]', lambda: misaligned_nested[1, 1](np.zeros(2, misaligned)))
expect("TypingError", "cannot assign to field 't' of every element of", 'a["m"]["t"] = 1',
       lambda: store_whole_field[1, 1](pk))
assert checks == 10, checks
print("nested record keys ok")
