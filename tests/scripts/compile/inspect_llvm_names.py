# inspect_llvm() names things as numba-cuda's IR does, in the module as
# lowered (docs/COMPILE_API.md, "The text of inspect_llvm()"): local arrays
# are allocas `%"_cudapy_lmem"` with the requested alignment (none written
# when none is asked), static shared arrays globals `@"_cudapy_smem_N"` with
# theirs, a device function is a `define` of its own called by the kernel,
# named as numba mangles one (`_ZN...set_zero...E`), and function attributes
# sit on the `define` line: `alwaysinline` for forceinline=True only, never on
# the kernel. The arrays still land on their alignment when the kernel runs.
# stdout: arrays ok
# stdout: forceinline ok
# stdout: spelling ok
import re

import numpy as np
from numba import cuda, types
from numba.cuda._llvmlite_spelling import llvmlite_spelling

rng = np.random.default_rng(11)
LMEM = re.compile(r'^\s*%"_cudapy_lmem(\d*)" = alloca (.*)$', re.M)
SMEM = re.compile(r'^@"_cudapy_smem_(\d+)" = internal addrspace\(3\) global (.*)$', re.M)

for trial in range(6):
    dtype = rng.choice([np.uint8, np.int32, np.float64])
    local_align = [None, 16, 64, 256][trial % 4]
    shared_align = [None, 32, 128][trial % 3]
    n = int(rng.integers(1, 40))

    @cuda.jit
    def arrays(out, vals):
        loc = cuda.local.array(n, dtype=dtype, alignment=local_align)
        first = cuda.shared.array(n, dtype=dtype, alignment=shared_align)
        second = cuda.shared.array(3, dtype=np.uint8)
        i = cuda.grid(1)
        for k in range(n):
            loc[k] = vals[k]
        first[i] = loc[n - 1 - i]
        second[0] = 1
        cuda.syncthreads()
        vals[i] = first[i] + second[0]
        if i == 0:
            out[0] = loc.ctypes.data
            out[1] = first.ctypes.data

    vals = rng.integers(0, 100, n).astype(dtype)
    expect = vals[::-1] + 1
    out = np.zeros(2, np.uint64)
    arrays[1, n](out, vals)
    np.testing.assert_array_equal(vals, expect)
    if local_align:
        assert int(out[0]) % local_align == 0, (local_align, hex(int(out[0])))
    if shared_align:
        assert int(out[1]) % shared_align == 0, (shared_align, hex(int(out[1])))

    ir = arrays.inspect_llvm(arrays.signatures[0])
    lmem = LMEM.findall(ir)
    assert len(lmem) == 1 and lmem[0][0] == "", (lmem, ir)
    allocated = lmem[0][1]
    assert allocated.startswith("[%d x " % n), allocated
    if local_align is None:
        assert ", align" not in allocated, allocated  # as llvmlite prints an alloca asked for no alignment
    else:
        assert allocated.endswith(", align %d" % local_align), allocated
    smem = SMEM.findall(ir)
    assert [k for k, _ in smem] == ["0", "1"], (smem, ir)
    want = shared_align or 16
    assert smem[0][1].startswith("[%d x " % n) and smem[0][1].endswith(", align %d" % want), smem
    assert smem[1][1] == "[3 x i8] undef, align 16", smem
    assert "shared.array" not in ir and "local.array" not in ir, ir
print("arrays ok")

sig = (types.int32[::1],)
for forceinline in (True, False):

    @cuda.jit(forceinline=forceinline)
    def set_zero(a, v):
        a[0] = v

    @cuda.jit(sig)
    def call_set_zero(a):
        set_zero(a, a[1])

    a = rng.integers(1, 1000, 2).astype(np.int32)
    call_set_zero[1, 1](a)
    assert a[0] == a[1], a
    ir = call_set_zero.inspect_llvm(sig)
    kernel = re.search(r"^define void @\"_cuhost_call_set_zero_\w+\"\(.*$", ir, re.M)
    device = re.search(r'^define internal \w+ @"(_ZN6cuhost8set_zeroB17h[0-9a-f]{16}E)"\(.*$', ir, re.M)
    assert kernel and device, ir
    # The kernel calls the device function: not inlined before optimization.
    assert re.search(r'call \w+ @"%s"\(' % re.escape(device.group(1)), ir), ir
    assert ("alwaysinline" in device.group(0)) == forceinline, device.group(0)
    assert device.group(0).endswith(" {") and "nounwind" in device.group(0), device.group(0)
    assert "alwaysinline" not in kernel.group(0) and "nounwind" in kernel.group(0), kernel.group(0)
print("forceinline ok")

# The respelling alone: a group's attributes on define and declare lines,
# whatever follows them; groups the text does not define, and `#` inside the
# parameter list, stay as they are.
llvm19 = """define ptx_kernel void @k(ptr "tag#0" %a) #0 !dbg !5 {
  ret void
}
define internal i32 @f() #1 {
  ret i32 0
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2
declare void @g() #7

attributes #0 = { nounwind }
attributes #1 = { alwaysinline nounwind }
attributes #2 = { nocallback nounwind memory(none) }"""
lines = llvmlite_spelling(llvm19).split("\n")
for line in ('define void @"k"(ptr "tag#0" %"a") nounwind !dbg !5 {',
             'define internal i32 @"f"() alwaysinline nounwind {',
             'declare i32 @"llvm.nvvm.read.ptx.sreg.tid.x"() nocallback nounwind memory(none)',
             'declare void @"g"() #7', "attributes #1 = { alwaysinline nounwind }"):
    assert line in lines, (line, lines)
print("spelling ok")
