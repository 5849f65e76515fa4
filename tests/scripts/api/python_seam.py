# The Python seam (docs/DESIGN.md): C++ reaches pylib only through the hooks
# `import cuda` installs, and types cross as handles read by the engine's one
# type parser (_cuhost.parse_type), never as text parsed in Python.
# stdout: seam ok
# stdout: handles ok
import random
import warnings

import numpy as np

import _cuhost
import cuda
from cuda import types
from cuda._type_spelling import from_handle, to_type

# Every slot C++ reads is filled by `import cuda` (except host_array_view,
# which numba.core installs), and an unknown name is refused.
names = _cuhost.hook_names()
assert "launch_preparation" in names and "fold_arguments" in names and "extension_bridge" in names, names
try:
    _cuhost.register_hook("no_such_hook", print)
except ValueError as e:
    assert str(e) == "unknown cuhost hook 'no_such_hook'", str(e)
else:
    raise AssertionError("an unknown hook name was accepted")
try:
    _cuhost.install_hooks(print)
except TypeError as e:
    assert "keyword arguments only" in str(e), str(e)
else:
    raise AssertionError("install_hooks took a positional argument")

# Handles: fields, not text.
h = _cuhost.parse_type("readonly array(float32, 2d, F)")
assert isinstance(h, _cuhost.TypeHandle)
assert (h.kind, h.ndim, h.layout, h.readonly, h.aligned) == ("array", 2, "F", True, True), h
assert h.dtype.kind == "named" and h.dtype.spelling == "float32"
assert h.dtype == _cuhost.parse_type("float32") and hash(h.dtype) == hash(_cuhost.parse_type("float32"))
assert _cuhost.parse_type("float32[:, ::1]") == _cuhost.parse_type("array(float32, 2d, C)")
t = _cuhost.parse_type("Tuple(int64, float32)")
assert t.kind == "tuple" and not t.uniform and [x.spelling for x in t.items] == ["int64", "float32"]
assert _cuhost.parse_type("UniTuple(int8 x 3)").uniform
c = _cuhost.parse_type("[unichr x 7]")
assert (c.kind, c.length, c.unicode) == ("charseq", 7, True)
assert _cuhost.parse_type("CPointer(uint16)").inner.spelling == "uint16"
assert _cuhost.parse_type("datetime64[ns]").unit == "ns"

# The parser's own errors reach Python with its classes and messages.
for bad, cls in [("array(float32, 1d", SyntaxError), ("notatype", NameError)]:
    try:
        _cuhost.parse_type(bad)
    except cls:
        pass
    else:
        raise AssertionError("parse_type(%r) did not raise %s" % (bad, cls.__name__))
try:
    _cuhost.parse_type(3)
except TypeError as e:
    assert str(e) == "parse_type() takes a str, not int", str(e)

# Spellings to cuda.types objects through the handles, for random compositions.
rng = random.Random(1234)
scalars = [types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint32, types.float32,
           types.float64, types.complex64, types.complex128, types.boolean]


def random_type(depth):
    choice = rng.randrange(5 if depth < 3 else 1)
    if choice == 0:
        return rng.choice(scalars)
    if choice == 1:  # (the engine spells a 1-d F array as C, as numba does)
        ndim = rng.randrange(1, 4)
        return types.Array(rng.choice(scalars), ndim, rng.choice("CFA" if ndim > 1 else "CA"),
                           readonly=rng.random() < 0.3)
    if choice == 2:
        return types.UniTuple(random_type(depth + 1), rng.randrange(1, 4))
    if choice == 3:
        return types.Tuple([random_type(depth + 1) for _ in range(rng.randrange(2, 4))])
    return types.CPointer(rng.choice(scalars))


for _ in range(300):
    ty = random_type(0)
    back = to_type(str(ty))
    assert back == ty and str(back) == str(ty), (ty, back)
    assert from_handle(_cuhost.parse_type(str(ty))) == ty

# What the engine does not read as a type stays an opaque type of that name.
opaque = to_type("Literal[int](1)")
assert type(opaque) is types.Type and str(opaque) == "Literal[int](1)"

# The jit option list has one home, the engine's.
assert _cuhost.jit_option_names()[:4] == ("device", "inline", "forceinline", "fastmath")
try:
    cuda.jit(not_an_option=1)
except TypeError as e:
    assert str(e) == ("cuda.jit() got an unexpected option 'not_an_option' (known: %s)"
                      % ", ".join(_cuhost.jit_option_names())), str(e)
else:
    raise AssertionError("an unknown jit option was accepted")


# The hooks at work: a launch with a cuda.In hint (launch_preparation) and a
# record read back through record_from_view.
@cuda.jit
def double(src, dst):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = 2 * src[i]


src = np.random.default_rng(7).random(37)
dst = np.zeros_like(src)
with warnings.catch_warnings(record=True) as caught:  # the performance_warning class, from its hook
    warnings.simplefilter("always")
    double[1, 64](cuda.In(src), cuda.Out(dst))
assert [w.category for w in caught] == [cuda.core.errors.NumbaPerformanceWarning], caught
assert np.array_equal(dst, 2 * src), (dst, src)
rec_t = np.dtype([("a", np.int32), ("b", np.float64)])
host = np.zeros(3, dtype=rec_t)
host["a"] = [4, 5, 6]
host["b"] = src[:3]
d = cuda.to_device(host)
rec = d[1]
assert type(rec).__name__ == "DeviceRecord", type(rec)
assert rec.copy_to_host()["a"] == 5 and rec.copy_to_host()["b"] == src[1]
print("seam ok")

# typeof and signatures cross as handles too (records keep their dtype).
from cuda.typing.typeof import typeof  # noqa: E402

assert isinstance(_cuhost._typeof(np.zeros((2, 3), np.float32)), _cuhost.TypeHandle)
assert typeof(np.zeros((2, 3), np.float32)) == types.Array(types.float32, 2, "C")
assert typeof(np.zeros((2, 3), np.int16).T) == types.Array(types.int16, 2, "F")
rec_array_type = typeof(host)
assert isinstance(rec_array_type, types.Array) and rec_array_type.ndim == 1 and rec_array_type.layout == "C"
assert rec_array_type.dtype == typeof(host[0]), (rec_array_type.dtype, typeof(host[0]))
f64 = types.Array(types.float64, 1, "C")
assert double.signatures == [(f64, f64)], double.signatures
print("handles ok")
