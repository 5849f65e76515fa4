# debug=True and variables that take values of several types. cuhost types
# each SSA version of a variable on its own, as numba does; with debug=True
# all versions of one source variable share one slot, so a debugger sees one
# `v` holding the current value, typed as the union of the versions' types
# (members `_bool`, `_float64`, `_int64`, sorted, sized by the largest), as
# numba-cuda describes it. No DWARF variable carries a version's name
# (`v.1`) or a compiler temporary's (`$...`). Results are the same as
# without debug information: join copies in loops and branches read the
# shared slot before they write it.
# stdout: debug info versions ok
import re

import numpy as np
from numba import cuda, types


def poly(n, out):
    v = n
    out[0] = v * 2
    v = out[1] + 0.5
    out[2] = v
    v = n > 3
    if v:
        out[3] = 1.0
    for i in range(3):
        if i == 1:
            continue
        out[4] += i


def summed(a, out):
    acc = 0
    for i in range(a.size):
        if a[i] > 0.5:
            acc = acc + a[i]
        else:
            acc = acc - 1
    out[0] = acc


def loops(out, n):
    # A for-loop target reassigned in the body (the loop's own counter must
    # not follow it), a while loop whose variable changes type, a swap.
    for i in range(n):
        out[i] += i
        i = 2.5
        out[8] += i
    j = 0
    while j < 3:
        out[9] += j
        j = j + 0.5
        out[10] += j
        j = int(j + 1)
    a, b = (1, 2.0)
    a, b = b, a
    out[11] = a * 10 + b


sig = "void(int64, float64[::1])"
debug_poly = cuda.jit(sig, debug=True, opt=False)(poly)
plain_poly = cuda.jit(sig)(poly)
ir = debug_poly.inspect_llvm((types.int64, types.float64[::1]))

variables = re.findall(r'!DILocalVariable\([^)]*name: "([^"]+)"', ir)
assert variables.count("v") == 1, variables
assert not [n for n in variables if "." in n or n.startswith("$")], variables
m = re.search(r'!DILocalVariable\([^)]*name: "v",[^)]*type: (![0-9]+)', ir)
union = re.search(r"^%s = (.*)$" % m.group(1), ir, re.M).group(1)
assert "DW_TAG_union_type" in union and "size: 64" in union, union
elements = re.search(r"elements: (![0-9]+)", union).group(1)
members = re.search(r"^%s = !\{ (.*) \}$" % elements, ir, re.M).group(1).split(", ")
names = [re.search(r'^%s = .*name: "([^"]+)"' % ref, ir, re.M).group(1) for ref in members]
assert names == ["_bool", "_float64", "_int64"], names
# One slot for v, whatever its versions.
assert len(re.findall(r'^  %"v" = alloca', ir, re.M)) == 1, ir
assert not re.search(r'^  %"v\.[0-9]+" = alloca', ir, re.M), ir

rng = np.random.default_rng(11)
for n in (2, 5):
    base = rng.random(6)
    got, want = base.copy(), base.copy()
    debug_poly[1, 1](n, got)
    plain_poly[1, 1](n, want)
    ref = base.copy()
    ref[0] = n * 2
    ref[2] = base[1] + 0.5
    if n > 3:
        ref[3] = 1.0
    ref[4] += 2
    np.testing.assert_allclose(got, ref)
    np.testing.assert_allclose(want, ref)

debug_sum = cuda.jit("void(float64[::1], float64[::1])", debug=True, opt=False)(summed)
a = rng.random(64)
out = np.zeros(1)
debug_sum[1, 1](a, out)
expected = float(np.where(a > 0.5, a, -1.0).sum())
np.testing.assert_allclose(out[0], expected)
debug_loops = cuda.jit("void(float64[::1], int64)", debug=True, opt=False)(loops)
base = rng.random(12)
got = base.copy()
debug_loops[1, 1](got, 5)
ref = base.copy()
loops(ref, 5)  # the Python function itself
np.testing.assert_allclose(got, ref)
print("debug info versions ok")
