# cuda.inline_ptx's mistakes are TypingErrors at the offending argument:
# a constraint letter the operand's type does not fit, an unknown letter, a
# count mismatch, a template that is not a constant or names a missing
# operand, a result= that does not fit its output; on the CPU backend the
# kernel is refused with an error naming the alternatives.
# stdout: inline_ptx errors: 9 checks passed
import numpy as np
from numba import cuda, int32, float32, float64

checks = 0
SOURCE = open(__file__).read().splitlines()


def where(function, snippet):
    start = SOURCE.index("def %s(a, x):" % function if function != "laneid" else "def laneid(a):")
    for n in range(start + 1, len(SOURCE)):
        if snippet in SOURCE[n]:
            return n + 1, SOURCE[n].index(snippet) + 1
    raise AssertionError(snippet)


def expect(kind, message, snippet, compile_it, function):
    global checks
    line, col = where(function, snippet)
    try:
        compile_it()
    except Exception as e:  # noqa: BLE001 - the class is checked by name
        text = str(e)
        assert type(e).__name__ == kind, (type(e).__name__, text)
        assert message in text, text
        assert ":%d:%d\n" % (line, col) in text, (line, col, text)
        checks += 1
        return
    raise AssertionError("no error for: " + message)


def ptx_of(f, sig):
    return lambda: cuda.compile_ptx(f, sig)


def float_in_r(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %1;", "=r : r", x * 1.5)


def unknown_letter(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %1;", "=r : q", x)


def too_few(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %2;", "=r : r, r", x)


def computed_template(a, x):
    a[0] = cuda.inline_ptx(x, "=r : r", x)


def missing_operand(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %3;", "=r : r", x)


def bad_result(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %1;", "=r : r", x, result=float32)


def runtime_immediate(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %2;", "=r : r, n", x, x)


def int64_in_r(a, x):
    a[0] = cuda.inline_ptx("add.s32 %0, %1, %1;", "=r : r", x)


sig32 = (int32[::1], int32)
expect("TypingError", "input 0 has constraint 'r', which needs a 32-bit integer, int32 or uint32 (PTX .b32 register), "
       "got float64", "x * 1.5", ptx_of(float_in_r, sig32), "float_in_r")
expect("TypingError", "constraint string \"=r : q\" 'q' is not an input constraint", '"=r : q"',
       ptx_of(unknown_letter, sig32), "unknown_letter")
expect("TypingError", "has 2 inputs but 1 operand was given", 'cuda.inline_ptx("add.s32 %0, %1, %2;", "=r : r, r"',
       ptx_of(too_few, sig32), "too_few")
expect("TypingError", "PTX template must be a string constant, not int32", 'x, "=r : r"',
       ptx_of(computed_template, sig32), "computed_template")
expect("TypingError", "template refers to operand %3 but has 2 operands", '"add.s32 %0, %1, %3;"',
       ptx_of(missing_operand, sig32), "missing_operand")
expect("TypingError", "output 0 has constraint '=r', which needs a 32-bit integer", "float32)",
       ptx_of(bad_result, sig32), "bad_result")
expect("TypingError", "input 1 has constraint 'n', which needs an integer constant", "x)",
       ptx_of(runtime_immediate, sig32), "runtime_immediate")
expect("TypingError", "got int64", "x)", ptx_of(int64_in_r, (int32[::1], cuda.types.int64)), "int64_in_r")

# On the CPU backend such a kernel is refused before it starts; on the GPU it runs.
@cuda.jit
def laneid(a):
    a[cuda.threadIdx.x] = cuda.inline_ptx("mov.u32 %0, %laneid;", "=r")


out = np.zeros(32, dtype=np.int32)
if cuda.backend() == "cpu":
    expect("UnsupportedError", "cuda.inline_ptx() inlines PTX, which only the CUDA backend can run: this kernel "
           "cannot run on the CPU backend (run it with --backend cuda", 'cuda.inline_ptx("mov.u32 %0, %laneid;", "=r")',
           lambda: laneid[1, 32](out), "laneid")
else:
    laneid[1, 32](out)
    assert (out == np.arange(32)).all(), out
    checks += 1
print("inline_ptx errors: %d checks passed" % checks)
