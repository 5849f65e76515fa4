# debug=True and where the source lives. A kernel made by exec() compiles
# from the text exec() was given, but its debug information names a file
# ("<string>") that no debugger can open: the compile warns, as numba-cuda
# does, with NumbaDebugInfoWarning naming the function, once per compile.
# Source in linecache (a notebook cell) or in a file warns nothing, and
# debug=False never warns. The DWARF line table of a versioned variable
# follows the source: the branch on `if n:`, each store on its own `c = `.
# stdout: debug info sources ok
import inspect
import re
import warnings
from textwrap import dedent

import numpy as np
from numba import cuda
from numba.cuda.core.errors import NumbaDebugInfoWarning

rng = np.random.default_rng(7)


def debug_warnings(run):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NumbaDebugInfoWarning)
        run()
    return [w for w in caught if issubclass(w.category, NumbaDebugInfoWarning)]


# exec() without linecache: one warning that names the function.
scope = {"cuda": cuda}
exec(dedent("""
    def scale(a, k):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * k
"""), scope)
scale = cuda.jit(debug=True, opt=False)(scope["scale"])
a = rng.random(32)
expected = a * 3.5
found = debug_warnings(lambda: scale[1, 32](a, 3.5))
np.testing.assert_allclose(a, expected)
assert len(found) == 1, found
message = str(found[0].message)
assert message.startswith("Could not find source for function: "), message
assert str(scale.py_func) in message, (message, scale.py_func)
assert "Debug line information may be inaccurate" in message, message

# The same function without debug information: nothing to warn about.
plain = cuda.jit(scope["scale"])
b = rng.random(32)
found = debug_warnings(lambda: plain[1, 32](b, 2.0))
assert found == [], found

# Source registered in linecache (how notebooks do it) is found: no warning.
import linecache  # noqa: E402

name = "<notebook-cell-debug-info>"
text = "def shift(a, k):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = a[i] + k\n"
linecache.cache[name] = (len(text), None, text.splitlines(True), name)
cell = {"cuda": cuda}
exec(compile(text, name, "exec"), cell)
shift = cuda.jit(debug=True, opt=False)(cell["shift"])
c = rng.random(16)
expected = c + 1.25
found = debug_warnings(lambda: shift[1, 16](c, 1.25))
np.testing.assert_allclose(c, expected)
assert found == [], found
linecache.cache.pop(name)


# A function in a file: no warning; its versioned variable's stores and the
# branch that chooses between them carry their own source lines.
@cuda.jit(debug=True, opt=False)
def pick(dest, n):
    if n:
        c = 5
    else:
        c = 1
    dest[0] = c


d = np.zeros(1, dtype=np.int32)
found = debug_warnings(lambda: pick[1, 1](d, 1))
assert found == [] and d[0] == 5, (found, d)
pick[1, 1](d, 0)
assert d[0] == 1, d

ir = pick.inspect_llvm()[pick.signatures[0]]
lines, first = inspect.getsourcelines(pick.py_func)
line_of = {}
for offset, src in enumerate(lines):
    for key in ("if n:", "c = 5", "c = 1"):
        if key in src:
            line_of[key] = first + offset
locations = dict(re.findall(r"^(![0-9]+) = !DILocation\((?:column: [0-9]+, )?line: ([0-9]+)", ir, re.M))


def line_at(pattern):
    m = re.search(pattern + r".*!dbg (![0-9]+)", ir)
    assert m, (pattern, ir)
    return int(locations[m.group(1)])


assert line_at(r"br i1 ") == line_of["if n:"], ir
assert line_at(r"store i64 5, ") == line_of["c = 5"], ir
assert line_at(r"store i64 1, ") == line_of["c = 1"], ir
print("debug info sources ok")
