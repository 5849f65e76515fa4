# numba's typeof rules for launch arguments.
# stdout: typeof rules checked
import numpy as np
import _cuhost

cases = [
    (True, "bool"), (3, "int64"), (-2**63, "int64"), (2**63, "uint64"), (2**64, None), (1.5, "float64"),
    (2j, "complex128"), (np.float32(1), "float32"), (np.int16(3), "int16"), (np.uint8(3), "uint8"),
    (np.bool_(True), "bool"), (np.complex64(1), "complex64"),
    ((1, 2), "UniTuple(int64 x 2)"), ((1, 2.0), "Tuple(int64, float64)"),
    (np.zeros(4, np.float32), "array(float32, 1d, C)"),
    (np.zeros((3, 4)), "array(float64, 2d, C)"),
    (np.zeros((3, 4), order="F"), "array(float64, 2d, F)"),
    (np.zeros((3, 4), np.int32)[:, ::2], "array(int32, 2d, A)"),
    ("text", None), ([1, 2], None), (None, None),
]
ro = np.zeros(3, np.float32)
ro.flags.writeable = False
cases.append((ro, "readonly array(float32, 1d, C)"))
for value, expected in cases:
    handle = _cuhost._typeof(value)  # a _cuhost.TypeHandle, read here by its spelling
    got = None if handle is None else handle.spelling
    assert got == expected, (value, got, expected)
print("typeof rules checked")
