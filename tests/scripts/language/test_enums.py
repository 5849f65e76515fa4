# Enum and IntEnum members in kernels (numba's EnumMember / IntEnumMember):
# members as arguments and as constants (`Color.red`, `Color["red"]`),
# ==, !=, `is` and `is not` between members of one class (their values,
# tuples included) and of different classes (never identical), IntEnum
# members as integers in arithmetic and comparisons, members returned from
# device functions and from njit functions to Python (boxed as the member),
# and members in a vectorize ufunc. Results are checked against Python.
# stdout: enums ok
from enum import Enum, IntEnum

import numpy as np
from numba import cuda, njit, vectorize
from numba.core.errors import TypingError


class Color(Enum):
    red = 1
    green = 2
    blue = 3


class Planet(Enum):
    VENUS = (4.869e24, 6.0518e6)
    EARTH = (5.976e24, 6.37814e6)


class Shape(IntEnum):
    circle = 2
    square = 500


class Level(IntEnum):
    low = 2
    high = 7


def compare(a, b, out):
    out[0] = a == b
    out[1] = a != b
    out[2] = a is b
    out[3] = a is not b


compare_k = cuda.jit(compare)
pairs = [(Color.red, Color.red), (Color.red, Color.blue), (Planet.EARTH, Planet.EARTH),
         (Planet.VENUS, Planet.EARTH), (Shape.circle, Level.low), (Shape.square, Level.high),
         (Shape.circle, Shape.circle)]
for a, b in pairs:
    got = np.zeros(4, np.bool_)
    expect = np.zeros(4, np.bool_)
    compare_k[1, 1](a, b, got)
    compare(a, b, expect)
    assert (got == expect).all(), (a, b, got, expect)


@cuda.jit
def lookups(out):
    out[0] = Color.red == Color["red"]
    out[1] = Color["green"] != Color.blue
    out[2] = Color["blue"] is Color.blue


got = np.zeros(3, np.bool_)
lookups[1, 1](got)
assert got.all()


@cuda.jit(device=True)
def pick(k):
    return Color.green if k % 3 == 0 else Color.blue


@cuda.jit
def picks(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = pick(i) == Color.green


got = np.zeros(50, np.bool_)
picks[2, 32](got)
assert (got == (np.arange(50) % 3 == 0)).all()


@njit
def member(pred):
    return Color.red if pred else Color.green


assert member(True) is Color.red and member(False) is Color.green


@njit
def level_of(x):
    return Level.high if x > 3 else Level.low


assert level_of(5) is Level.high and level_of(1) is Level.low


@cuda.jit
def arith(x, lvl, out):
    i = cuda.grid(1)
    if i < x.size:
        if x[i] > Shape.square:
            out[i] = x[i] - Shape.circle * lvl
        else:
            out[i] = x[i] + Level.high


rng = np.random.default_rng(3)
x = rng.integers(0, 1000, 300)
out = np.zeros(300, np.int64)
arith[5, 64](x, Level.high, out)
assert (out == np.where(x > 500, x - 2 * 7, x + 7)).all()


@vectorize("int64(int64)", target="cuda")
def classify(v):
    if v >= Shape.square:
        return Shape["square"]
    return Level.low


assert (classify(x) == np.where(x >= 500, 500, 2)).all()


# A plain Enum member is no number; members of string values have no kernel type.
class Name(Enum):
    a = "x"


def typing_error(fn):
    try:
        cuda.jit(fn)[1, 1](np.zeros(1))
    except TypingError as e:
        return str(e)
    raise AssertionError("no TypingError")


def add(o):
    o[0] = Color.red + 1


def named(o):
    o[0] = Name.a == Name.a


assert "cannot add Enum<int64>(Color) and int64" in typing_error(add)
assert "Untyped global name 'Name.a'" in typing_error(named)
print("enums ok")
