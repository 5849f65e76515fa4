"""The precision rules by which one cuhost backend's outputs may differ from
another's for the same generated program (backends.py), written once so
that the harness and docs/RELIABILITY.md ("Precision rules, CPU backend
against CUDA backend") say the same thing.

- Integers: bit for bit.
- Floats from exactly specified operations (+ - * / // % sqrt fabs
  copysign, conversions, min/max): bit for bit; two NaNs are equal whatever
  their sign or payload (neither backend promises a NaN's bits).
- A transcendental `math.*` result (an `of` slot whose last write at run
  time may be `math.f(...)`, gen.Program.math_writers; the widest bound of
  those functions): libdevice on the GPU, the host's
  libm (glibc) on the CPU backend; each is within its documented bound of
  the correctly rounded result, so the two may be up to the sum of both
  bounds apart (ulps of the result's own type). Both NaN or both the same
  infinity, else within the bound.
- The same backend with and without optimization (the CPU backend against
  itself at NUMBA_OPT=0, the self-test of the harness): LLVM's optimizer
  folds a libm call on a constant argument at compile time, computing it
  in the compiler's own (correctly rounded) way, where the unoptimized code
  calls glibc at run time; the two may be glibc's bound plus one ulp apart
  (`math.cosh(np.float32(1.0))`: 1.5430806875 folded, glibc's coshf
  1.5430805683, one float32 ulp).
- fma contraction: NVPTX kernels compiled with optimization fuse `a * b +
  c` into one `fma` (nvptx_backend.cpp, AllowFPOpFusion::Fast); the CPU
  backend never does. A difference is put down to contraction only when the
  program has a float multiply and the same program compiled for the GPU
  without optimization (NUMBA_OPT=0: no contraction) agrees with the CPU
  backend under the rules above; a fused result may then reach any output,
  integers included (through a comparison or a conversion), so no ulp bound
  is claimed for it.
- float32 atomic adds (the `wf32` work array): PTX's `atom.add.f32`
  flushes subnormal inputs and results to sign-preserving zero (PTX ISA,
  `atom`), as numba-cuda's kernels do; the CPU backend keeps them. A `wf32`
  element that is a subnormal on one side and a zero of the same sign on
  the other is equal (fuzz seed 49129: 1.8e-39 against 0.0).
- Float-to-int conversions of NaN, infinities and out-of-range values are
  undefined (x86 gives INT_MIN, the GPU saturates): backends.py counts a
  difference `undefined` when the CPU side rerun with saturating
  conversions (CUHOST_SATURATING_FLOAT_TO_INT, side flag `:sat`) agrees.
"""
import struct

# Documented maximum errors in ulps of the result type, full range.
# libdevice: CUDA C++ Programming Guide, "Mathematical Functions", standard
# functions (compute capability >= 5.2). glibc: the GNU C Library manual,
# "Known Maximum Errors in Math Functions", x86_64.
LIBDEVICE_ULPS = {
    # name: (float32, float64)
    "sin": (2, 2), "cos": (2, 2), "tan": (4, 2), "exp": (2, 1), "exp2": (2, 1),
    "log": (1, 1), "log2": (1, 1), "log10": (2, 1), "log1p": (1, 1), "expm1": (1, 1),
    "atan": (2, 2), "atan2": (3, 2), "sinh": (3, 2), "cosh": (2, 1), "tanh": (2, 1),
    "asinh": (3, 3), "erf": (2, 2), "cbrt": (1, 1), "pow": (4, 2), "hypot": (3, 2),
}
GLIBC_ULPS = {
    "sin": (1, 1), "cos": (1, 1), "tan": (1, 1), "exp": (1, 1), "exp2": (1, 1),
    "log": (1, 1), "log2": (1, 2), "log10": (2, 2), "log1p": (1, 1), "expm1": (1, 1),
    "atan": (1, 1), "atan2": (2, 1), "sinh": (2, 2), "cosh": (2, 2), "tanh": (2, 2),
    "asinh": (2, 2), "erf": (1, 1), "cbrt": (1, 4), "pow": (1, 1), "hypot": (1, 1),
}


def math_tolerance(fn, f32, kind):
    """How many ulps two results of `fn` may be apart: a libdevice and a
    glibc one (kind "libdevice-libm"), or a folded and a glibc one ("folded-libm")."""
    i = 0 if f32 else 1
    if kind == "folded-libm":
        return GLIBC_ULPS[fn][i] + 1
    return LIBDEVICE_ULPS[fn][i] + GLIBC_ULPS[fn][i]


def as_float(bits, size):
    return struct.unpack("<d" if size == 8 else "<f", struct.pack("<Q" if size == 8 else "<I", bits))[0]


def ordered(x, size):
    """x's position on the line of floats of its width (adjacent floats
    differ by 1; -0.0 and +0.0 are both 0; infinities follow the largest)."""
    if size == 8:
        i = struct.unpack("<q", struct.pack("<d", x))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)
    i = struct.unpack("<i", struct.pack("<f", x))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFF)


def is_float32(x):
    try:
        return x != x or struct.unpack("<f", struct.pack("<f", x))[0] == x
    except OverflowError:   # beyond float32's range
        return False


def ulp_distance(x, y, size):
    return abs(ordered(x, size) - ordered(y, size))


class Rules:
    """Which math rule applies between two sides: "libdevice-libm" (one side
    on the GPU), "folded-libm" (one backend at two optimization levels) or
    None (bit for bit)."""

    def __init__(self, math):
        self.math = math

    @staticmethod
    def between(a, b):
        """The rule for side specs like "cpu", "cuda:opt0" (backends.py)."""
        ba, bb = a.split(":")[0], b.split(":")[0]
        if ba != bb:
            return Rules("libdevice-libm")
        if ("opt0" in a.split(":")) != ("opt0" in b.split(":")):
            return Rules("folded-libm")
        return Rules(None)


def writers_of(prog, slot):
    """The math functions whose write may be `of[slot]`'s last at run time."""
    writers = getattr(prog, "math_writers", None)
    if writers is None:   # a Program from before the generator tracked them
        fn = prog.inexact_fn.get(slot)
        return [fn[0]] if fn else []
    return [fn for fn, _ in writers.get(slot, [])]


FLT_MIN = 2.0 ** -126  # the smallest normal float32


def flushed_subnormal(x, y):
    """One is a float32 subnormal, the other a zero of its sign."""
    for u, v in ((x, y), (y, x)):
        if v == 0.0 and 0.0 < abs(u) < FLT_MIN and struct.pack("<f", u)[3] >> 7 == struct.pack("<f", v)[3] >> 7:
            return True
    return False


def compare(prog, a, b, rules, array_dtypes):
    """'' when outputs `a` and `b` (lists of bit patterns per output array,
    runner.py's "out") agree under `rules`, else the first difference.
    array_dtypes: the dtype name of each output array, in order."""
    for (name, dt), xa, xb in zip(array_dtypes, a, b):
        for j, (x, y) in enumerate(zip(xa, xb)):
            if x == y:
                continue
            if not dt.startswith("float"):
                return "%s[%d]: %d against %d" % (name, j, x, y)
            size = 8 if dt == "float64" else 4
            fx, fy = as_float(x, size), as_float(y, size)
            if fx != fx and fy != fy:
                continue
            if name == "wf32" and flushed_subnormal(fx, fy):
                continue
            writers = writers_of(prog, j) if name == "of" and rules.math else []
            if writers and fx == fx and fy == fy:
                # A float32 result widened into `of`: measured in float32 ulps.
                # Both values exactly float32 is what tells it: the
                # generator's width tracking can miss a float32 result
                # (math.tan of a float32 is float32 in numba's typing), and a
                # float64 result lands on two float32 values by chance only
                # for exact values, whose distance is large in both units.
                f32 = is_float32(fx) and is_float32(fy)
                d = ulp_distance(fx, fy, 4 if f32 else 8)
                # The slot's last write at run time is one of `writers`
                # (a branch decides which): the widest of their bounds.
                name_, tol = max(((w, math_tolerance(w, f32, rules.math)) for w in writers),
                                 key=lambda wt: wt[1])
                if d <= tol:
                    continue
                return "%s[%d]: %r against %r, %d ulps apart, math.%s allows %d" % (
                    name, j, fx, fy, d, name_, tol)
            return "%s[%d]: %r against %r" % (name, j, fx, fy)
    return ""
