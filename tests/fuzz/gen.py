"""Random program generator for the differential fuzzer.

One seed gives one program: a kernel body `k(...)` plus device functions,
written once and compiled twice (cuhost's @cuda.jit on the CPU backend, and
numba's own @njit with error_model='numpy', CUDA's error model), and the same
inputs for both (built here from the seed with plain Python numbers, so the
two NumPy versions see identical arrays).

The programs stay inside what both compilers define: no float->int conversion
of a value that may be out of range (guarded), integer division never by -1
(INT_MIN // -1 traps), shift counts masked to 0..63, indices reduced modulo
the extent. Transcendental math (libdevice on cuhost, libm in numba: a few
ulps apart) only feeds `of` slots listed in `inexact`, compared with a
tolerance; everything else is compared bit for bit.

Kinds tracked per expression: 'b' bool, 'i' integer, 'f' float, and whether a
float may be float32 (for the tolerance only).
"""
import os
import random

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
ATOMIC_WORK = {"wi32": "int32", "wi64": "int64", "wu32": "uint32", "wu64": "uint64",
               "wf32": "float32", "wf64": "float64"}
N_OI, N_OF, N_WORK = 12, 10, 6
RANGES = {
    "int8": (-2**7, 2**7 - 1), "int16": (-2**15, 2**15 - 1), "int32": (-2**31, 2**31 - 1),
    "int64": (-2**63, 2**63 - 1), "uint8": (0, 2**8 - 1), "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1),
}
EXACT_MATH_F = ["sqrt", "fabs"]            # float -> float, correctly rounded
EXACT_MATH_F2 = ["copysign"]   # (float, float) -> float, exact (numba has no math.fmod on the CPU)
INEXACT_MATH_F = ["sin", "cos", "tan", "exp", "log", "atan", "tanh", "sinh", "cosh",
                  "log1p", "expm1", "asinh", "erf", "log2", "log10", "cbrt", "exp2"]
INEXACT_MATH_F2 = ["atan2", "pow", "hypot"]
MATH_PRED = ["isnan", "isinf", "isfinite"]


GPU_SIDE = os.environ.get("FUZZ_GPU_SIDE") == "1"


def rand_int(r, dt):
    lo, hi = RANGES[dt]
    c = r.random()
    if c < 0.25:
        v = r.choice([lo, hi, 0, 1 if hi >= 1 else 0, lo + 1, hi - 1, min(hi, 2), max(lo, -1)])
    elif c < 0.6:
        v = max(lo, min(hi, r.randint(-100, 100)))
    else:
        v = r.randint(lo, hi)
    # -x and abs(x) of an int16 stay int16 in numba, so -(-32768) wraps to
    # -32768 on the CPU; ptxas runs neg.s16/abs.s16 in 32-bit registers and
    # the GPU gives 32768, under numba-cuda too
    # (tests/scripts/fuzz/negate_in_own_width.py, abs_in_own_width.py). Not
    # a value the CPU-against-CUDA comparison can judge: never drawn (the
    # random stream is unchanged, only this value moves).
    # abs(x) of the int32 and int64 minimum converted to a float: the CPU
    # (as njit) converts the wrapped minimum, -2**63; ptxas reads abs.s64's
    # result as never negative and converts it as unsigned, +2**63, under
    # numba-cuda too (gpu_questions/abs_min_to_float.py, fuzz seed 43246).
    # Not drawn when a GPU is one side (backends.py sets FUZZ_GPU_SIDE); the
    # comparison with njit keeps these values.
    moved = ("int16", "int32", "int64") if GPU_SIDE else ("int16",)
    return lo + 1 if dt in moved and v == lo else v


def rand_float(r):
    c = r.random()
    if c < 0.1:
        return r.choice([0.0, -0.0, 1.0, -1.0, float("inf"), float("-inf"), float("nan"),
                         5e-324, 1e308, -1e-310, 0.5])
    if c < 0.5:
        return round(r.uniform(-100, 100), r.randint(0, 6))
    return r.uniform(-1, 1) * 10.0 ** r.randint(-40, 40)


BOUND = 3037000493   # BOUND**2 < 2**63: no signed overflow in one + - * of bounded values


def bnd(e):
    return "((%s) %% %d)" % (e, BOUND)


class Var:
    def __init__(self, name, kind, f32=False):
        self.name, self.kind, self.f32 = name, kind, f32


class Program:
    """What the runners need: the source text and how to build the inputs."""

    def __init__(self, seed, source, scalars, arrays, inexact, inexact_fn=None, float_mul=False, math_writers=None):
        self.seed, self.source, self.scalars, self.arrays, self.inexact = (
            seed, source, scalars, arrays, inexact)
        self.inexact_fn = inexact_fn or {}   # slot -> (math function, may be float32)
        self.float_mul = float_mul           # has a float multiply (fma contraction on NVPTX)
        # slot -> every (math function, may be float32) whose write may be the
        # slot's last one at run time: a plain write inside a branch or loop
        # does not end an earlier math write's claim (the branch may not run).
        self.math_writers = math_writers or {}


class Gen:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.n = 0
        self.lines = []
        self.inexact = set()
        self.inexact_fn = {}   # slot -> (math function, may be float32) of its last write
        self.math_writers = {}  # slot -> [(math function, may be float32)] that may write it last
        self.float_mul = False  # a float `*` somewhere: NVPTX may contract it with an add
        self.helpers = []    # (name, [param kinds], return kind, returns tuple)
        self.in_helper = False

    # ---- names and scopes ----
    def fresh(self, p="v"):
        self.n += 1
        return "%s%d" % (p, self.n)

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    # ---- expressions ----
    def leaf(self, scope, kind):
        r = self.r
        cands = [v for v in scope if v.kind == kind]
        c = r.random()
        if cands and c < 0.55:
            v = r.choice(cands)
            if getattr(v, "u64", False):
                return "np.int64(%s)" % v.name, False
            return v.name, v.f32
        if c < 0.75 and self.arrays_of(kind):
            return self.array_read(scope, kind)
        if kind == "b":
            # Bare literals too: numba prunes on them before typing, and so
            # does cuhost (sema/branch_pruning.h).
            return r.choice(["True", "False", "np.bool_(True)", "np.bool_(False)"]), False
        if kind == "i":
            x = r.choice([r.randint(-9, 9), r.randint(-9, 9), 255, 65535, 2**31 - 1, -2**31,
                          2**32, 2**63 - 1, -2**63 + 1, 12345678901])
            return ("(%d)" % x if x < 0 else str(x)), False
        x = rand_float(r)
        if x != x:
            return "math.nan", False
        if x in (float("inf"), float("-inf")):
            return ("math.inf" if x > 0 else "(-math.inf)"), False
        return ("(%r)" % x if str(x).startswith("-") else repr(x)), False

    def const_cond(self):
        """A condition numba decides before typing (dead-branch pruning)."""
        r = self.r
        a, b = r.randint(-3, 3), r.randint(-3, 3)
        return r.choice(["True", "False", "1", "0", "not True", "not 0", "(%d < %d)" % (a, b),
                         "(%d == %d)" % (a, b), "(%d != %d)" % (a, b), "(1 < 2 < %d)" % a,
                         "(None is None)", "(%d + %d > 0)" % (a, b), "(True or %s)" % r.choice(["False", "True"])])

    def cond(self, scope, d):
        """A ternary's or if's condition: now and then a constant one."""
        if self.r.random() < 0.25:
            return self.const_cond()
        return self.expr(scope, "b", d)[0]

    def int_literal(self):
        r = self.r
        x = r.choice([r.randint(-9, 9), r.randint(0, 300), 127, 255, 65535, 2**31 - 1, -2**31, 2**32,
                      2**63 - 1, -2**63 + 1, 12345678901])
        return "(%d)" % x if x < 0 else str(x)

    def arrays_of(self, kind):
        return [a for a in self.read_arrays if (kind == "f") == a[1].startswith("float")
                and kind != "b"]

    def index(self, scope, n):
        saved, self.read_arrays = self.read_arrays, []   # no reads inside an index
        e, _ = self.expr(scope, "i", 1)
        self.read_arrays = saved
        if self.r.random() < 0.3:
            return "-1 - ((%s) %% %d)" % (e, n)
        return "(%s) %% %d" % (e, n)

    def u64_sources(self, scope):
        """A raw uint64 value (a uint64 scalar or array element), or None."""
        r = self.r
        cands = [v.name for v in scope if getattr(v, "u64", False)]
        arrs = [a for a in self.read_arrays if a[1] == "uint64"]
        if arrs and (not cands or r.random() < 0.5):
            name, _, shape = r.choice(arrs)
            return "%s[%s]" % (name, ", ".join(self.index(scope, n) for n in shape))
        return r.choice(cands) if cands else None

    def array_read(self, scope, kind):
        name, dt, shape = self.r.choice(self.arrays_of(kind))
        idx = ", ".join(self.index(scope, n) for n in shape)
        if dt == "uint64":
            return "np.int64(%s[%s])" % (name, idx), False
        return "%s[%s]" % (name, idx), dt == "float32"

    def expr(self, scope, kind, depth=3):
        """An expression of `kind`; returns (text, may_be_float32)."""
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(scope, kind)
        d = depth - 1
        c = r.random()
        if kind == "i":
            if c < 0.35:
                op = r.choice(["+", "-", "*", "&", "|", "^", "+", "-"])
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                if op in "+-*":
                    return self.int_arith(a, op, b), False
                return "(%s %s %s)" % (a, op, b), False
            if c < 0.45:
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                op = r.choice(["<<", ">>"])
                if a.lstrip("(-").rstrip(")").isdigit():
                    # A literal shifted by a literal count folds (as CPython does) past 64
                    # bits, which numba refuses to type.
                    a = "np.int64(%s)" % a
                return "(%s %s ((%s) & 63))" % (a, op, b), False
            if c < 0.55:
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                op = r.choice(["//", "%"])
                div = r.choice(["((%s) & 15) + 2", "-(((%s) & 15) + 2)", "((%s) & 7)"]) % b
                return "(%s %s (%s))" % (a, op, div), False
            if c < 0.62:
                a, _ = self.expr(scope, "i", d)
                return r.choice(["(-%s)", "(~%s)", "abs(%s)", "(+%s)"]) % a, False
            if c < 0.7:
                dt = r.choice(INT_DTYPES)
                a, _ = self.expr(scope, r.choice("ib"), d)
                if dt == "uint64":
                    return "np.int64(np.uint64(%s))" % a, False
                return "np.%s(%s)" % (dt, a), False
            if c < 0.75:
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                if r.random() < 0.4:   # a narrow value with a bare literal
                    a = "np.%s(%s)" % (r.choice(INT_DTYPES[:7]), a)
                    b = self.int_literal()
                    if r.random() < 0.5:
                        a, b = b, a
                return "%s(%s, %s)" % (r.choice(["min", "max"]), a, b), False
            if c < 0.8:
                a, _ = self.expr(scope, "f", d)
                fn = r.choice(["int", "math.floor", "math.ceil", "math.trunc", "round"])
                return "(%s(%s) if abs(%s) < 1e15 else %d)" % (fn, a, a, r.randint(-5, 5)), False
            if c < 0.85:
                a, _ = self.expr(scope, "b", d)
                return "(%s + %s)" % (a, bnd(self.expr(scope, "i", d)[0])), False
            if c < 0.9:
                cond = self.cond(scope, d)
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                if r.random() < 0.3:   # a narrow value meets a bare literal
                    a = "np.%s(%s)" % (r.choice(INT_DTYPES[:7]), a)
                    b = self.int_literal()
                    if r.random() < 0.5:
                        a, b = b, a
                return "(%s if %s else %s)" % (a, cond, b), False
            if c < 0.95 and self.helpers:
                return self.call(scope, "i", d)
            a, _ = self.expr(scope, "i", d)
            return "(%s ** %d)" % (bnd(a), r.randint(0, 2)), False
        if kind == "f":
            if c < 0.45:
                op = r.choice(["+", "-", "*", "/", "+", "*"])
                a, fa = self.expr(scope, "f", d)
                bk = "f" if r.random() < 0.7 else "i"
                b, fb = self.expr(scope, bk, d)
                self.float_mul = self.float_mul or op == "*"
                if r.random() < 0.5:
                    a, b = b, a
                return "(%s %s %s)" % (a, op, b), fa and fb and bk == "f"
            if c < 0.55:
                a, fa = self.expr(scope, "f", d)
                b, fb = self.expr(scope, "f", d)
                return "(%s %s %s)" % (a, r.choice(["//", "%"]), b), fa and fb
            if c < 0.62:
                a, fa = self.expr(scope, r.choice("fi"), d)
                return "math.%s(%s)" % (r.choice(EXACT_MATH_F), a), fa
            if c < 0.67:
                a, fa = self.expr(scope, "f", d)
                b, fb = self.expr(scope, "f", d)
                fn = r.choice(EXACT_MATH_F2)
                if fn == "copysign":
                    # The sign of a NaN that an operation makes (0/0,
                    # sqrt(-1), x % 0) is unspecified (IEEE 754 6.3): x86
                    # gives the default NaN, negative, the GPU a positive
                    # one, so copysign(a, NaN) differs between numba's own
                    # CPU and GPU targets. A NaN sign source takes a's
                    # magnitude instead (the type stays copysign's).
                    return "(math.copysign(%s, %s) if %s == %s else abs(%s))" % (a, b, b, b, a), fa and fb
                return "math.%s(%s, %s)" % (fn, a, b), fa and fb
            if c < 0.74:
                a, _ = self.expr(scope, r.choice("ifb"), d)
                if r.random() < 0.5:
                    return "np.float32(%s)" % a, True
                return "np.float64(%s)" % a, False
            if c < 0.78:
                a, _ = self.expr(scope, "i", d)
                b, _ = self.expr(scope, "i", d)
                return "(%s / %s)" % (a, b), False
            if c < 0.82:
                a, fa = self.expr(scope, "f", d)
                return r.choice(["(-%s)", "abs(%s)"]) % a, fa
            if c < 0.87:
                cond = self.cond(scope, d)
                a, fa = self.expr(scope, "f", d)
                b, fb = self.expr(scope, "f", d)
                if r.random() < 0.3:   # a float with a bare int or float literal
                    b, fb = r.choice([self.int_literal(), repr(round(r.uniform(-5, 5), 2))]), False
                    if r.random() < 0.5:
                        a, b, fa, fb = b, a, fb, fa
                    return "(%s if %s else %s)" % (a, cond, b), fa or fb   # float32 when pruned to it
                return "(%s if %s else %s)" % (a, cond, b), fa and fb
            if c < 0.9:
                a, fa = self.expr(scope, "f", d)
                # max/min of a float and an int literal: the literal's type joins (float32 with an
                # int is float64). Not two floats: numba-cuda's fmin/fmax return the other operand
                # of a NaN, numba's CPU min/max keep Python's order.
                return "%s(%s, %s)" % (r.choice(["min", "max"]), a, self.int_literal()), False
            if c < 0.92 and self.u64_sources(scope):
                # uint64 with a bare int literal: float64 in numba (NumPy promotion), unless a
                # constant condition prunes the literal's side.
                u = self.u64_sources(scope)
                cond = self.cond(scope, d)
                lit = self.int_literal()
                a, b = (u, lit) if r.random() < 0.5 else (lit, u)
                form = r.choice(["max", "min", "ternary"])
                e = "(%s if %s else %s)" % (a, cond, b) if form == "ternary" else "%s(%s, %s)" % (form, a, b)
                return "np.float64(%s)" % e, False
            if c < 0.93 and self.helpers:
                return self.call(scope, "f", d)
            return self.leaf(scope, "f")
        # bool
        if c < 0.08:
            return self.const_cond(), False
        if c < 0.45:
            k = r.choice("iif")
            a, _ = self.expr(scope, k, d)
            b, _ = self.expr(scope, k if r.random() < 0.8 else "i", d)
            return "(%s %s %s)" % (a, r.choice(["<", "<=", ">", ">=", "==", "!="]), b), False
        if c < 0.6:
            a, _ = self.expr(scope, "b", d)
            b, _ = self.expr(scope, "b", d)
            return "(%s %s %s)" % (a, r.choice(["and", "or"]), b), False
        if c < 0.7:
            a, _ = self.expr(scope, "b", d)
            return "(not %s)" % a, False
        if c < 0.8:
            a, _ = self.expr(scope, "f", d)
            return "math.%s(%s)" % (r.choice(MATH_PRED), a), False
        if c < 0.87:
            a, _ = self.expr(scope, "i", d)
            b, _ = self.expr(scope, "i", d)
            e, _ = self.expr(scope, "i", d)
            return "(%s < %s < %s)" % (a, b, e), False
        return self.leaf(scope, "b")

    def int_arith(self, a, op, b):
        """a op b for + - *, never a signed overflow: numba marks signed
        integer arithmetic `nsw` (overflow undefined), so the differential
        test bounds the operands, or wraps in uint64 where wrapping is defined."""
        if self.r.random() < 0.35:
            return "np.int64(np.uint64(%s) %s np.uint64(%s))" % (a, op, b)
        return "(%s %s %s)" % (bnd(a), op, bnd(b))

    def call(self, scope, kind, d):
        cands = [h for h in self.helpers if h[2] == kind]
        if not cands:
            return self.leaf(scope, kind)
        name, pk, rk, tup = self.r.choice(cands)
        args = ", ".join(self.expr(scope, k, d)[0] for k in pk)
        if tup:
            return "%s(%s)[%d]" % (name, args, self.r.randint(0, 1)), True
        return "%s(%s)" % (name, args), True

    # ---- statements ----
    def block(self, scope, depth, nstmts, in_loop, sinks=True):
        scope = list(scope)
        for _ in range(nstmts):
            self.stmt(scope, depth, in_loop, sinks)

    def stmt(self, scope, depth, in_loop, sinks):
        r = self.r
        c = r.random()
        nest = depth < 4
        if self.in_helper and 0.76 <= c < 0.9:
            c = 0.0    # helpers see no arrays: a plain assignment instead
        if c < 0.22:
            kind = r.choice("iifb")
            e, f32 = self.expr(scope, kind)
            v = Var(self.fresh(), kind, f32)
            self.emit(depth, "%s = %s" % (v.name, e))
            scope.append(v)
        elif c < 0.34 and [v for v in scope if v.kind in "if" and v.name[0] == "v"]:
            v = r.choice([v for v in scope if v.kind in "if" and v.name[0] == "v"])
            if v.kind == "i":
                op = r.choice(["+=", "-=", "*=", "&=", "|=", "^=", "=", "retype"])
                e = self.expr(scope, "i")[0]
                if op == "retype":
                    # Another integer type (or a bare literal, or a bool) for
                    # the same variable: numba types each SSA version apart.
                    e = r.choice(["np.%s(%s)" % (r.choice(INT_DTYPES[:7]), e), self.int_literal(),
                                  self.expr(scope, "b", 2)[0]])
                    self.emit(depth, "%s = %s" % (v.name, e))
                elif op in ("+=", "-=", "*="):
                    self.emit(depth, "%s = %s" % (v.name, self.int_arith(v.name, op[0], e)))
                else:
                    self.emit(depth, "%s %s %s" % (v.name, op, e))
            else:
                op = r.choice(["+=", "-=", "*=", "=", "="])
                e, f32 = self.expr(scope, "f")
                if op == "=" and r.random() < 0.3:   # a float32, an int or a bare literal now
                    e, f32 = r.choice([("np.float32(%s)" % e, True), (self.expr(scope, "i", 2)[0], False),
                                       (self.int_literal(), False), (repr(round(r.uniform(-9, 9), 3)), False)])
                v.f32 = v.f32 or f32
                self.float_mul = self.float_mul or op == "*="
                self.emit(depth, "%s %s %s" % (v.name, op, e))
        elif c < 0.46 and sinks:
            self.sink(scope, depth)
        elif c >= 0.9 and not sinks:
            self.emit(depth, "%s = %s" % (self.fresh(), self.expr(scope, "i")[0]))
        elif c < 0.54 and nest:
            self.emit(depth, "if %s:" % self.cond(scope, 3))
            self.block(scope, depth + 1, r.randint(1, 3), in_loop, sinks)
            if r.random() < 0.3:
                self.emit(depth, "elif %s:" % self.expr(scope, "b")[0])
                self.block(scope, depth + 1, r.randint(1, 3), in_loop, sinks)
            if r.random() < 0.6:
                self.emit(depth, "else:")
                self.block(scope, depth + 1, r.randint(1, 3), in_loop, sinks)
        elif c < 0.61 and nest:
            i = Var(self.fresh("i"), "i")
            rng = r.choice(["range(%d)" % r.randint(0, 6),
                            "range((%s) & 7)" % self.expr(scope, "i", 2)[0],
                            "range(%d, %d, %d)" % (r.randint(-3, 3), r.randint(-3, 8), r.choice([1, 2, 3, -1, -2]))])
            self.emit(depth, "for %s in %s:" % (i.name, rng))
            self.block(scope + [i], depth + 1, r.randint(1, 4), True, sinks)
        elif c < 0.66 and nest:
            w = self.fresh("w")
            self.emit(depth, "%s = 0" % w)
            self.emit(depth, "while %s < %d:" % (w, r.randint(0, 5)))
            self.emit(depth + 1, "%s += 1" % w)
            self.block(scope + [Var(w, "i")], depth + 1, r.randint(1, 3), True, sinks)
        elif c < 0.7 and in_loop:
            self.emit(depth, "if %s:" % self.expr(scope, "b", 2)[0])
            self.emit(depth + 1, r.choice(["break", "continue"]))
        elif c < 0.76:
            kinds = [r.choice("iifb") for _ in range(r.randint(2, 3))]
            parts = [self.expr(scope, k, 2) for k in kinds]
            t = self.fresh("t")
            self.emit(depth, "%s = (%s)" % (t, ", ".join(p[0] for p in parts)))
            if r.random() < 0.5:
                names = [self.fresh() for _ in kinds]
                self.emit(depth, "%s = %s" % (", ".join(names), t))
                scope.extend(Var(n, k, p[1]) for n, k, p in zip(names, kinds, parts))
            else:
                j = r.randrange(len(kinds))
                v = Var(self.fresh(), kinds[j], parts[j][1])
                self.emit(depth, "%s = %s[%d]" % (v.name, t, j))
                scope.append(v)
        elif c < 0.84:
            wname = r.choice(sorted(ATOMIC_WORK))
            dt = ATOMIC_WORK[wname]
            isf = dt.startswith("float")
            ops = ["add", "sub", "exch"] + ([] if isf else ["max", "min", "and_", "or_", "xor"])
            if isf:
                ops = ["add", "exch"]
            op = r.choice(ops)
            idx = self.index(scope, N_WORK)
            val = self.expr(scope, "f" if isf else r.choice("ib"), 2)[0]
            val = "np.%s(%s)" % (dt, bnd(val) if dt == "int64" else val)
            v = Var(self.fresh(), "f" if isf else "i", dt == "float32")
            call = "atomic_%s(%s, %s, %s)" % (op, wname, idx, val)
            if dt == "uint64":
                call = "np.int64(%s)" % call
            self.emit(depth, "%s = %s" % (v.name, call))
            scope.append(v)
        elif c < 0.9:
            wname = r.choice(sorted(ATOMIC_WORK))
            isf = ATOMIC_WORK[wname].startswith("float")
            e, _ = self.expr(scope, "f" if isf else r.choice("ib"))
            if not isf:
                e = "np.%s(%s)" % (ATOMIC_WORK[wname], bnd(e) if wname == "wi64" else e)
            self.emit(depth, "%s[%s] = %s" % (wname, self.index(scope, N_WORK), e))
        else:
            self.sink(scope, depth)

    def sink(self, scope, depth):
        r = self.r
        c = r.random()
        if c < 0.5:
            e, _ = self.expr(scope, r.choice("iib"))
            self.emit(depth, "oi[%d] = %s" % (r.randrange(N_OI), e))
        else:
            slot = r.randrange(N_OF)
            if r.random() < 0.3:
                k = r.choice("fi")
                fn = r.choice(INEXACT_MATH_F + INEXACT_MATH_F2)
                if fn in INEXACT_MATH_F2:
                    (a, fa), (b, fb) = self.expr(scope, k), self.expr(scope, "f")
                    e, f32 = "math.%s(%s, %s)" % (fn, a, b), k == "f" and fa and fb
                else:
                    a, fa = self.expr(scope, k)
                    e, f32 = "math.%s(%s)" % (fn, a), k == "f" and fa
                self.inexact.add(slot)
                self.inexact_fn[slot] = (fn, f32)
                # At the kernel's top level the write happens for sure and
                # ends earlier claims; deeper, it adds one.
                writers = [] if depth == 1 else self.math_writers.get(slot, [])
                self.math_writers[slot] = writers + [(fn, f32)]
            else:
                e, _ = self.expr(scope, "f")
                self.inexact.discard(slot)
                self.inexact_fn.pop(slot, None)
                if depth == 1:
                    self.math_writers.pop(slot, None)
            self.emit(depth, "of[%d] = %s" % (slot, e))

    # ---- whole program ----
    def helper(self, idx):
        r = self.r
        name = "h%d" % idx
        pk = [r.choice("iif") for _ in range(r.randint(1, 3))]
        params = [Var("p%d" % j, k) for j, k in enumerate(pk)]
        rk = r.choice("iif")
        tup = r.random() < 0.25
        self.emit(0, "@DEV")
        self.emit(0, "def %s(%s):" % (name, ", ".join(p.name for p in params)))
        saved = self.read_arrays
        self.read_arrays = []
        self.in_helper = True
        self.block(params, 1, r.randint(0, 3), False, sinks=False)
        e, _ = self.expr(params, rk, 3)
        if tup:
            self.emit(1, "return %s, %s" % (e, self.expr(params, rk, 2)[0]))
        else:
            self.emit(1, "return %s" % e)
        self.read_arrays = saved
        self.in_helper = False
        self.emit(0, "")
        self.helpers.append((name, pk, rk, tup))

    def program(self):
        r = self.r
        self.scalars = []
        for j in range(r.randint(2, 6)):
            dt = r.choice(INT_DTYPES + FLOAT_DTYPES + ["bool"])
            val = (r.random() < 0.5 if dt == "bool" else
                   rand_float(r) if dt.startswith("float") else rand_int(r, dt))
            self.scalars.append(("s%d" % j, dt, val))
        self.arrays = []
        self.read_arrays = []
        for name, layout in [("ra", "C1"), ("rb", "C2"), ("rc", "F2"), ("rd", "S1"), ("re", "S2")]:
            if r.random() < 0.3:
                continue
            dt = r.choice(INT_DTYPES + FLOAT_DTYPES)
            shape = (r.randint(1, 9),) if layout.endswith("1") else (r.randint(1, 4), r.randint(1, 5))
            base = shape if layout[0] in "CF" else tuple(2 * n + 1 for n in shape)
            count = 1
            for n in base:
                count *= n
            vals = [rand_float(r) if dt.startswith("float") else rand_int(r, dt) for _ in range(count)]
            self.arrays.append((name, dt, layout, shape, base, vals))
            self.read_arrays.append((name, dt, shape))
        for h in range(r.randint(0, 3)):
            self.helper(h)
        params = (["oi", "of"] + sorted(ATOMIC_WORK) + [a[0] for a in self.arrays] +
                  [s[0] for s in self.scalars])
        self.emit(0, "@KERN")
        self.emit(0, "def k(%s):" % ", ".join(params))
        scope = [Var(s[0], "b" if s[1] == "bool" else "f" if s[1].startswith("float") else "i",
                     s[1] == "float32") for s in self.scalars]
        for v, s in zip(scope, self.scalars):
            v.u64 = s[1] == "uint64"
        self.block(scope, 1, r.randint(3, 14), False)
        for _ in range(r.randint(1, 3)):
            self.sink(scope, 1)
        src = "\n".join(["from _fuzzenv import *", ""] + self.lines) + "\n"
        return Program(self.seed, src, self.scalars, self.arrays, sorted(self.inexact), dict(self.inexact_fn),
                       self.float_mul, {k: list(v) for k, v in self.math_writers.items()})


def generate(seed):
    return Gen(seed).program()


# ---- invalid programs: a valid one with one defect spliced in ----
DEFECTS = [
    ("undefined", "oi[0] = {v} + no_such_name_{n}"),
    ("undefined-call", "oi[1] = no_such_function_{n}({v})"),
    ("tuple-plus-float", "oi[2] = ({v}, 1) + 1.5"),
    ("index-scalar", "oi[3] = {v}[0]"),
    ("attribute", "oi[4] = {v}.no_such_attr"),
    ("try", "try:\n        oi[5] = 1\n    except Exception:\n        pass"),
    ("with", "with open('x') as fh:\n        oi[5] = 1"),
    ("lambda", "f_{n} = lambda q: q + 1\n    oi[6] = f_{n}({v})"),
    ("listcomp", "oi[7] = [q for q in range(3)][0]"),
    ("dict", "d_{n} = {{1: 2}}\n    oi[7] = d_{n}[1]"),
    ("string-arith", "oi[8] = 'a' + {v}"),
    ("global-stmt", "global g_{n}\n    g_{n} = 1"),
    ("yield", "yield {v}"),
    ("del", "del {v}"),
    ("array-plus-tuple", "oi[9] = oi + (1, 2)"),
    ("too-many-indices", "oi[0, 1, 2] = 1"),
    ("store-tuple-in-array", "oi[0] = (1, 2)"),
    ("class-def", "class C_{n}:\n        pass"),
    ("raise-non-exception", "raise {v}"),
    ("assert-tuple-unpack", "a_{n}, b_{n} = {v}"),
    ("string-index", "oi[0] = 'abc'[{v}]"),
    ("set", "s_{n} = {{1, 2}}\n    oi[0] = len(s_{n})"),
    # A tuple and a float meeting at a join (one type per SSA version, so
    # not two plain assignments in a row: numba accepts those).
    ("kind-clash", "if {v}:\n        x_{n} = (1, 2)\n    else:\n        x_{n} = 1.5\n    oi[0] = x_{n}"),
    ("helper-arity", "oi[0] = h_bad_{n}({v}, {v}, {v})"),
    ("nonlocal-import", "import os\n    oi[0] = os.getpid()"),
    ("starred", "oi[0] = max(*oi)"),
    ("walrus-string", "oi[0] = len('abc' * {v})"),
    ("async", "async def f_{n}():\n        pass"),
]


# The class each defect raises (numba-cuda's for the kernel's own code; in a
# device function a NameError reaches the kernel inside a TypingError naming
# the callee, as numba reports errors in a callee's typing).
UNSUPPORTED = {"try", "with", "lambda", "listcomp", "dict", "global-stmt", "yield", "del", "class-def", "set",
               "nonlocal-import", "async", "starred"}
NAME_ERRORS = {"undefined", "undefined-call"}


def expected_class(defect, where):
    """(class, text the message must hold) for a defect spliced at `where`."""
    if defect in NAME_ERRORS:
        return ("NameError", "") if where.startswith("kernel") else ("TypingError", "NameError: name ")
    return ("UnsupportedError" if defect in UNSUPPORTED else "TypingError"), ""


# Defects that name the kernel's arrays: not spliced into device functions.
NEEDS_ARRAYS = {"array-plus-tuple", "too-many-indices", "store-tuple-in-array", "starred"}


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _may_fold(text, constants=()):
    """Whether a condition (or a line) may be, or hold, a constant that
    CPython folds or numba prunes: a bare True/False/None, a variable
    assigned a constant in the function (`constants`: numba prunes on a
    variable whose definition is a constant), a comparison whose first two
    operands are constant (`(2 ** 40) < 4294967296 < x` is False), a
    constant operand of and/or/not or a ternary's constant test, or no name
    at all (`(-7.5e+29 % 0.5) != 3`)."""
    import ast
    import re
    t = re.sub(r"np\.bool_\((True|False)\)", "b", text)
    if constants and re.search(r"\b(%s)\b" % "|".join(constants), t):
        return True
    if re.search(r"\b(True|False|None)\b", t):
        return True
    try:
        tree = ast.parse(t.strip(), mode="exec")
    except SyntaxError:
        return True

    def const(n):
        return _constant_expr(ast.unparse(n))

    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and const(n.left) and const(n.comparators[0]):
            return True
        if isinstance(n, ast.BoolOp) and any(const(v) for v in n.values):
            return True
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) and const(n.operand):
            return True
        if isinstance(n, ast.IfExp) and const(n.test):
            return True
    return _constant_expr(t)


def _constant_header(line, constants):
    """An if/elif/while that numba may prune (see _may_fold, or the
    generator's `while w < 0`): code under or after it may never be typed."""
    t = line.strip()
    if not (t.startswith(("if ", "elif ", "while ")) and t.endswith(":")):
        return False
    cond = t.split(" ", 1)[1][:-1]
    return (t.startswith("while ") and cond.endswith("< 0")) or _may_fold(cond, constants)


def _constant_expr(text):
    """No name in it once numbers and True/False/None/not/and/or/is are gone:
    CPython folds it to a constant (`(not False)`, `(3 + 4)`)."""
    import re
    t = re.sub(r"\d+\.?\d*(e[+-]?\d+)?", "", text)
    return not re.search(r"[A-Za-z_]", re.sub(r"\b(True|False|None|not|and|or|is)\b", "", t))


def _literal_names(lines, d, end):
    """Variables a function assigns a constant (`v3 = False`, `v7 = (-2)`,
    `v8 = (not False)`), but not the generator's while counters (`w4 = 0`)."""
    import ast
    import re
    pat = re.compile(r"^\s*(v\d+) = (.+)$")
    names = {m.group(1) for m in (pat.match(lines[i]) for i in range(d + 1, end)) if m and _constant_expr(m.group(2))}
    # Names unpacked from, or indexed out of, a tuple with a constant part
    # (`t1 = (7, (3 > 4))`, `v2, v3 = t1`): numba may see through the tuple.
    tuples = {}
    for i in range(d + 1, end):
        m = re.match(r"^\s*(t\d+) = (.+)$", lines[i])
        if m:
            node = ast.parse(m.group(2).strip(), mode="eval").body
            elts = node.elts if isinstance(node, ast.Tuple) else []
            tuples[m.group(1)] = any(_constant_expr(ast.unparse(e)) for e in elts)
    for i in range(d + 1, end):
        m = re.match(r"^\s*([v\d, ]+) = (t\d+)(\[\d+\])?$", lines[i])
        if m and tuples.get(m.group(2)):
            names.update(n.strip() for n in m.group(1).split(","))
    return sorted(names)


def _functions(lines):
    """(name, def line index, end index) of each function in the program."""
    defs = [i for i, l in enumerate(lines) if l.startswith("def ")]
    out = []
    for n, i in enumerate(defs):
        end = defs[n + 1] - 1 if n + 1 < len(defs) else len(lines)
        while end > i + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("@")):
            end -= 1
        out.append((lines[i][4:lines[i].index("(")], i, end))
    return out


def splice_points(lines):
    """Where one statement may go: (index to insert at, indentation, function
    name, sure). Before any statement of a function body except elif/else,
    and after the last one of a block unless it leaves (break, continue,
    return). `sure`: no constant condition before it in its function (numba
    prunes such branches, and CPython drops code after `if True: break`)."""
    points = []
    for name, d, end in _functions(lines):
        constants = _literal_names(lines, d, end)
        seen_constant = False
        for i in range(d + 1, end):
            line = lines[i]
            if not line.strip():
                continue
            ind, t = _indent(line), line.strip()
            if not t.startswith(("elif ", "else:")):
                points.append((i, ind, name, not seen_constant))
            nxt = next((lines[j] for j in range(i + 1, end) if lines[j].strip()), None)
            closes = nxt is None or _indent(nxt) < ind or (_indent(nxt) == ind and nxt.strip().startswith(
                ("elif ", "else:")))
            if closes and not t.endswith(":") and t.split(" ")[0] not in ("break", "continue", "return"):
                points.append((i + 1, ind, name, not seen_constant))
            seen_constant = seen_constant or _constant_header(line, constants)
    return points


def _reached(lines, points):
    """Functions whose body is typed for sure: the kernel, and device
    functions it calls (transitively) from sure points."""
    sure_lines, constants = {}, {}
    for name, d, end in _functions(lines):
        sure_lines[name] = [lines[i] for i, _ind, fn, ok in points if fn == name and ok and i < end]
        constants[name] = _literal_names(lines, d, end)
    reached, todo = {"k"}, ["k"]
    import re
    while todo:
        f = todo.pop()
        for line in sure_lines.get(f, []):
            if _may_fold(line, constants[f]):   # the call may be in a pruned side (`x if False else h0(1)`, `True or h0(1)`)
                continue
            for callee in re.findall(r"\b(h\d+)\(", line):
                if callee not in reached:
                    reached.add(callee)
                    todo.append(callee)
    return reached


def generate_invalid(seed):
    """A valid program with one defect statement spliced at a random point
    of the kernel or of a device function: at the top, after other
    statements, inside (nested) loops and branches. Returns (Program,
    defect name, (first, last) line of it, where); `where` says
    "kernel"/"device", the nesting depth, and whether the point is typed
    for sure (otherwise numba may prune it, and accepting the program is
    allowed)."""
    prog = generate(seed)
    r = random.Random(seed * 7919 + 1)
    lines = prog.source.split("\n")
    points = splice_points(lines)
    reached = _reached(lines, points)
    points = [(at, ind, fn, sure and fn in reached) for at, ind, fn, sure in points]
    typed = [p for p in points if p[3]]
    at, ind, fn, sure = r.choice(typed if typed and r.random() < 0.8 else points)
    choices = [d for d in DEFECTS if fn == "k" or d[0] not in NEEDS_ARRAYS]
    name, tmpl = choices[r.randrange(len(choices))]
    if fn == "k":
        var = r.choice([s[0] for s in prog.scalars])
    else:
        d = next(i for i, l in enumerate(lines) if l.startswith("def %s(" % fn))
        var = "p0"
        assert "p0" in lines[d]
    stmt = tmpl.format(v=var, n=seed)
    if fn != "k":   # device functions have no output arrays: a local instead
        import re
        stmt = re.sub(r"\boi\[\d+\] = ", "q_%d = " % seed, stmt)
    body = stmt.split("\n")
    body = [" " * ind + body[0]] + [" " * ind + l[4:] for l in body[1:]]
    lines[at:at] = body
    first = at + 1
    if name == "helper-arity":
        extra = ["@DEV", "def h_bad_%d(a):" % seed, "    return a", ""]
        lines[2:2] = extra
        first += len(extra)
    prog.source = "\n".join(lines)
    where = ("kernel" if fn == "k" else "device") + ":depth%d" % (ind // 4) + ("" if sure else ":maybe-pruned")
    return prog, name, (first, first + len(body) - 1), where
