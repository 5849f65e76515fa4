# inspect_llvm() spells the module as llvmlite prints one (docs/COMPILE_API.md,
# "The text of inspect_llvm()"): debug records as intrinsic calls, quoted
# names, metadata fields in alphabetical order, `arg: 0` for locals, spaced
# tuples, kernels as `define void`. Only the text changes: strings keep their
# bytes, DIExpression operands keep their order, and the kernel computes the
# same results with debug=True as without.
# stdout: spelling ok
import re

import numpy as np
from numba import cuda, types
from numba.cuda._llvmlite_spelling import llvmlite_spelling

# The respelling on LLVM 19's text, tricky parts included: a string holding
# `%x` and `, `, an expression whose operands are not fields, an argument list.
llvm19 = """define ptx_kernel void @k(i32 %x, ptr %a.0) #0 !dbg !5 {
entry:
  %x.addr = alloca i32, align 4
    #dbg_declare(ptr %x.addr, !10, !DIExpression(DW_OP_plus_uconst, 8), !12)
  %s = getelementptr [6 x i8], ptr @.str, i64 0, i64 0
    #dbg_value(!DIArgList(i32 %x, i32 1), !13, !DIExpression(), !12)
  br label %for.cond

for.cond:                                         ; preds = %entry
  ret void
}

@.str = constant [6 x i8] c"%x, y\\00"
!llvm.dbg.cu = !{!0}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang (Numba)")
!7 = !{null, !8}
!8 = !{}
!13 = !DILocalVariable(name: "a, b", scope: !5, file: !1, line: 3, type: !9)
!14 = !DILocalVariable(name: "x", arg: 1, scope: !5)"""
text = llvmlite_spelling(llvm19)
expected_lines = [
    'define void @"k"(i32 %"x", ptr %"a.0") #0 !dbg !5 {',
    '  call void @"llvm.dbg.declare"(metadata ptr %"x.addr", metadata !10, '
    "metadata !DIExpression(DW_OP_plus_uconst, 8)), !dbg !12",
    '  call void @"llvm.dbg.value"(metadata !DIArgList(i32 %"x", i32 1), metadata !13, '
    "metadata !DIExpression()), !dbg !12",
    '  br label %"for.cond"',
    '@".str" = constant [6 x i8] c"%x, y\\00"',
    "!llvm.dbg.cu = !{ !0 }",
    '!0 = distinct !DICompileUnit(file: !1, language: DW_LANG_C_plus_plus, producer: "clang (Numba)")',
    "!7 = !{ null, !8 }",
    "!8 = !{}",
    '!13 = !DILocalVariable(arg: 0, file: !1, line: 3, name: "a, b", scope: !5, type: !9)',
    '!14 = !DILocalVariable(arg: 1, name: "x", scope: !5)',
    'declare void @"llvm.dbg.declare"(metadata, metadata, metadata)',
    'declare void @"llvm.dbg.value"(metadata, metadata, metadata)',
]
for line in expected_lines:
    assert line in text.split("\n"), (line, text)
assert "#dbg_" not in text and "ptx_kernel" not in text, text
# The intrinsics are declared after the last function, before the globals.
assert text.index("declare void") > text.index("\n}\n") and text.index("declare void") < text.index('@".str" = constant')


# A real kernel: arguments named as the parameters, variables declared on
# their slots (the parameter `n` on `n.addr`).
@cuda.jit("void(float64[::1], int64)", debug=True, opt=False)
def scale(a, n):
    acc = 0.0
    for i in range(n):
        acc += a[i]
        a[i] = acc


sig = (types.float64[::1], types.int64)
ir = scale.inspect_llvm(sig)
assert re.search(r'^define void @"\w+"\(ptr (noalias )?%"a\.0", i64 %"a\.1", i64 %"a\.2", i64 %"n"\)', ir, re.M), ir
acc = re.search(r'^(![0-9]+) = !DILocalVariable\(arg: 0, [^)]*name: "acc"', ir, re.M).group(1)
assert re.search(r'call void @"llvm\.dbg\.declare"\(metadata ptr %%"acc", metadata %s,' % acc, ir), ir
n = re.search(r'^(![0-9]+) = !DILocalVariable\(arg: 2, [^)]*name: "n"', ir, re.M).group(1)
assert re.search(r'call void @"llvm\.dbg\.declare"\(metadata ptr %%"n\.addr", metadata %s,' % n, ir), ir
assert scale.inspect_llvm()[sig] == ir

# The same results with the debug information as without (prefix sums).
rng = np.random.default_rng(7)
data = rng.random(64)
debug_out = data.copy()
scale[1, 1](debug_out, 64)
np.testing.assert_allclose(debug_out, np.cumsum(data))
print("spelling ok")
