"""The overload-choice table shared by eager_overload_choice.py (kernel
launches) and njit_overload_choice.py (numba.njit calls): argument values
drawn at random where every candidate conversion gives a different result,
the signature sets with the choice numba makes for each argument list, and
the NumPy reference of what each signature computes."""
import numpy as np

rng = np.random.default_rng(20261128)

# The argument values, drawn at random in ranges where converting them to
# any candidate parameter type of the sets below gives a different result.
VALUES = {
    "int": int(rng.integers(2**40, 2**41)),
    "np.int64": np.int64(-rng.integers(2**43, 2**44)),
    "np.int32": np.int32(-rng.integers(2**30, 2**31)),
    "np.int16": np.int16(-rng.integers(2**14, 2**15)),
    "np.int8": np.int8(-rng.integers(64, 128)),
    "np.uint8": np.uint8(rng.integers(128, 256)),
    "np.uint16": np.uint16(rng.integers(2**15, 2**16)),
    "np.uint32": np.uint32(rng.integers(2**31, 2**32)),
    "np.uint64": np.uint64(2**63) + np.uint64(rng.integers(2**40, 2**41)),
    "bool": True,
    "np.float16": np.float16(rng.uniform(0.1, 0.9)),
    "np.float32": np.float32(rng.uniform(0.1, 0.9)),
    "float": float(rng.uniform(0.1, 0.9)),
    "complex": complex(rng.uniform(0.1, 0.9), 1.0),
}

SHORT = {"u2": "uint16", "i2": "int16", "u4": "uint32", "i4": "int32", "i8": "int64", "f4": "float32",
         "f8": "float64"}

# numba's choice for each (signature set, argument): the index of the
# signature it calls, "amb" (TypeError: Ambiguous overloading) or "none"
# (TypeError: No matching definition). Pinned from numba 0.68's njit; the
# choice is the same algorithm for kernel launches (numba-cuda's dispatcher).
TABLE = """
i4|f8     int:1 np.int64:1 np.int32:0 np.int16:0 np.int8:0 np.uint8:amb np.uint16:amb np.uint32:1 np.uint64:1
          bool:amb np.float16:1 np.float32:1 float:1 complex:none
i8|f4     int:0 np.int64:0 np.int32:0 np.int16:0 np.int8:0 np.uint8:amb np.uint16:0 np.uint32:0 np.uint64:amb
          bool:amb np.float16:1 np.float32:1 float:amb complex:none
f4|f8     int:1 np.int64:1 np.int32:1 np.int16:amb np.int8:amb np.uint8:amb np.uint16:1 np.uint32:1
          np.uint64:1 bool:amb np.float16:amb np.float32:0 float:1 complex:none
u4|i8     int:1 np.int64:1 np.int32:1 np.int16:1 np.int8:1 np.uint32:0 np.uint64:amb bool:amb np.float16:amb
          np.float32:amb float:amb complex:none
i2|f4|f8  int:2 np.int64:2 np.int32:2 np.int16:0 np.uint8:amb np.uint16:2 np.uint32:2 np.uint64:2 bool:amb
          np.float16:amb np.float32:1 float:2 complex:none
u2|i4|f4  int:amb np.int64:amb np.int32:1 np.int16:1 np.int8:1 np.uint32:amb np.uint64:amb bool:amb float:amb
          complex:none
"""


def expectations():
    current = None
    for line in TABLE.strip().splitlines():
        words = line.split()
        if not line.startswith(" "):
            current = words.pop(0)
        for w in words:
            value, outcome = w.split(":")
            yield current, value, outcome


def body(r, x):
    r[0] = x
    r[1] = x * 4611686018427387904 * 4  # 0 for an integer parameter (wraps), not for a float one
    r[2] = x * x  # float32 rounds where float64 does not


def host_reference(value, dtype):
    """body's results when x has type dtype, computed with NumPy."""
    dt = np.dtype(dtype)
    x = np.array([value]).astype(dt) if not isinstance(value, complex) else None
    r = np.zeros(3)
    with np.errstate(over="ignore"):
        r[0] = x[0]
        if dt.kind in "iu":
            wide = x.astype(np.int64 if dt.kind == "i" else np.uint64)
            r[1] = 0.0
            r[2] = (wide * wide)[0]
        else:
            r[1] = np.float64(x[0]) * 4611686018427387904.0 * 4.0
            r[2] = (x * x)[0]
    return r


def type_repr(value):
    return {"int": "int64", "bool": "bool", "float": "float64", "complex": "complex128"}.get(
        type(value).__name__, str(np.asarray(value).dtype))


ARRAY_REPR = "Array(float64, 1, 'C', False, aligned=True)"
