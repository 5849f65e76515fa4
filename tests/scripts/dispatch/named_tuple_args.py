# Named tuples (collections.namedtuple, typing.NamedTuple) as kernel
# arguments: numba's NamedTuple/NamedUniTuple types, fields read by name or
# index, one specialization per class.
# stdout: named tuple arguments ok
from collections import namedtuple
from typing import NamedTuple

import numpy as np
from numba import cuda
from numba.cuda.typing.typeof import typeof

Point = namedtuple("Point", ("x", "y"))
Particle = namedtuple("Particle", ("pos", "mass", "tag"))


class Box(NamedTuple):
    lo: float
    hi: float


assert str(typeof(Point(1, 2))) == "Point(int64 x 2)", str(typeof(Point(1, 2)))
assert str(typeof(Particle(1.0, 2.5, 3))) == "Particle(float64, float64, int64)"


@cuda.jit
def read_fields(r, p):
    r[0] = p.x
    r[1] = p.y
    r[2] = p[0] + p[1]
    r[3] = len(p)


r = np.zeros(4, np.int64)
read_fields[1, 1](r, Point(7, -3))
np.testing.assert_array_equal(r, [7, -3, 4, 2])


@cuda.jit
def scale(out, a, part):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * part.mass + part.pos - part.tag


rng = np.random.default_rng(11)
a = rng.random(100)
out = np.zeros_like(a)
p = Particle(0.25, 3.5, 2)
scale[4, 32](out, a, p)
np.testing.assert_allclose(out, a * p.mass + p.pos - p.tag, rtol=1e-15, atol=1e-14)  # fma on a GPU


@cuda.jit
def clip(x, box):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = min(max(x[i], box.lo), box.hi)


x = rng.uniform(-2, 2, 64)
expect = np.clip(x, -0.5, 0.75)
clip[2, 32](x, Box(-0.5, 0.75))
np.testing.assert_array_equal(x, expect)

# Another class with the same fields is another type: a second specialization.
Other = namedtuple("Other", ("x", "y"))
read_fields[1, 1](r, Other(1, 2))
np.testing.assert_array_equal(r, [1, 2, 3, 2])
assert len(read_fields.signatures) == 2, read_fields.signatures

try:

    @cuda.jit
    def bad(r, p):
        r[0] = p.z

    bad[1, 1](r, Point(1, 2))
    raise SystemExit("an unknown field was accepted")
except cuda.TypingError as e:
    assert "z" in str(e), str(e)
print("named tuple arguments ok")
