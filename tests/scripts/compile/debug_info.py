# debug=True: full DWARF through LLVM's DIBuilder. The LLVM IR describes
# each function (DISubprogram on its def line, a subroutine type from the
# Python argument types) and every parameter and local (DILocalVariable
# declared on its slot, scalars included, so the cubin gives each a frame
# location; ints, floats and bools as numba names them, arrays as
# {data, shape, strides}); the compile unit is "clang (Numba)"'s, as gdb's
# prologue analysis wants; inspect_llvm() spells the module as llvmlite
# does (docs/COMPILE_API.md); the PTX carries .debug_info sections and
# `.target sm_90, debug`; lineinfo alone gives .loc directives and no
# sections. Debug kernels run on the CPU backend with the same results.
# stdout: debug info ok
import inspect
import re

import numpy as np
from numba import cuda, types


@cuda.jit("void(int32, float64[::1], boolean)", debug=True, opt=False)
def described(n, a, flag):
    total = 0.0
    for i in range(n):
        total += a[i]
    ok = flag and total > 0
    if ok:
        a[0] = total


sig = (types.int32, types.float64[::1], types.boolean)
ir = described.inspect_llvm(sig)
def_line = inspect.getsourcelines(described.py_func)[1] + 1


def variable(name):
    m = re.search(r'^(![0-9]+) = !DILocalVariable\(([^)]*)name: "%s"([^)]*)\)' % name, ir, re.M)
    assert m, (name, ir)
    return m.group(2) + m.group(3)


def md_id(name):
    return re.search(r'^(![0-9]+) = !DILocalVariable\([^)]*name: "%s"' % name, ir, re.M).group(1)


def described_by(intrinsic, name):
    return re.search(r'call void @"llvm\.dbg\.%s"\(metadata [^,]+, metadata %s\b' % (intrinsic, md_id(name)), ir)


def type_of(name):
    ref = re.search(r"type: (![0-9]+)", variable(name)).group(1)
    m = re.search(r"^%s = (.*)$" % ref, ir, re.M)
    return m.group(1)


assert "arg: 1" in variable("n") and "arg: 2" in variable("a") and "arg: 3" in variable("flag")
assert "arg: 0," in variable("total") and "arg: 0," in variable("ok")
assert 'encoding: DW_ATE_signed, name: "int32", size: 32' in type_of("n")
assert 'encoding: DW_ATE_float, name: "float64", size: 64' in type_of("total")
assert 'encoding: DW_ATE_boolean, name: "bool", size: 8' in type_of("ok")
assert 'name: "array(float64, 1d, C)"' in type_of("a") and "tag: DW_TAG_structure_type" in type_of("a")
for member in ("data", "shape", "strides"):
    assert 'name: "%s"' % member in ir, member
assert re.search(r'!DISubprogram\(.*line: %d,.*name: "described"' % def_line, ir), ir
# Every variable lives in its slot, scalar locals too (see debug_info.h).
for name in ("n", "a", "flag", "total", "ok", "i"):
    assert described_by("declare", name) and not described_by("value", name), name
# Arguments carry the parameters' names (an array's kernel slots numbered).
assert re.search(r'define void @"\w+"\(i32 %"n", ptr (noalias )?%"a\.0", i64 %"a\.1", i64 %"a\.2", i8 %"flag"\)', ir), ir
unit = re.search(r"distinct !DICompileUnit\((.*)\)", ir).group(1)
assert 'emissionKind: FullDebug' in unit and 'producer: "clang (Numba)"' in unit, unit
assert "language: DW_LANG_C_plus_plus" in unit and "isOptimized: true" in unit, unit

ptx = described.inspect_asm(sig)
assert ".target sm_90, debug" in ptx and re.search(r"\.section\s+\.debug_info", ptx), ptx


@cuda.jit(lineinfo=True)
def lines_only(a):
    a[0] = 1


lines_only.compile((types.int32[::1],))
ptx = lines_only.inspect_asm((types.int32[::1],))
assert ".loc" in ptx and ".debug_info" not in ptx, ptx

# Debug kernels compute the same results on the CPU backend (bounds checks on).
a = np.random.default_rng(1).random(16)
expected = a.copy()
expected[0] = a[:10].sum()
described[1, 1](np.int32(10), a, True)
np.testing.assert_allclose(a, expected)


# _dbg_optnone keeps a device function out of optimization and inlining.
@cuda.jit("int64(boolean, boolean)", debug=True, opt=False, _dbg_optnone=True, device=True)
def choice(c1, c2):
    return 1 if c1 and c2 else 2


assert "optnone" in choice.inspect_llvm((types.boolean, types.boolean))
print("debug info ok")
