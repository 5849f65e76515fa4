# numba.cuda.cudadrv.nvvm for LLVM IR written with llvmlite (what numba-cuda
# code hands to NVVM): add_ir_version, set_cuda_kernel, NVVM().data_layout
# and compile_ir, which compiles through LLVM's NVPTX backend: inline PTX
# kept, several modules linked into one (a kernel calling a device function
# of another module, which calls libdevice), arch= and opt= honoured; the
# PTX assembles with nvJitLink. Malformed IR is an NvvmError.
# stdout: nvvm compile_ir ok
import _cuhost
from llvmlite import ir
from numba.cuda.cudadrv import nvvm
from numba.cuda.cudadrv.error import NvvmError

f32 = ir.FloatType()
fptr = ir.PointerType(f32)

# Inline PTX in a kernel.
mod = ir.Module("rsqrt")
mod.triple = "nvptx64-nvidia-cuda"
nvvm.add_ir_version(mod)
fn = ir.Function(mod, ir.FunctionType(ir.VoidType(), [fptr]), "cu_rsqrt")
b = ir.IRBuilder(fn.append_basic_block("entry"))
asm = ir.InlineAsm(ir.FunctionType(f32, [f32]), "rsqrt.approx.f32 $0, $1;", "=f,f", side_effect=True)
b.store(b.call(asm, [b.load(fn.args[0])]), fn.args[0])
b.ret_void()
mod.data_layout = nvvm.NVVM().data_layout
nvvm.set_cuda_kernel(fn)
assert "nvvmir.version" in str(mod) and "nvvm.annotations" in str(mod)
ptx = nvvm.compile_ir(str(mod))
assert isinstance(ptx, bytes)
text = ptx.decode()
assert "rsqrt.approx.f32" in text and ".visible .entry cu_rsqrt(" in text, text
assert ".target sm_" in text
assert _cuhost._link_ptx_for_test(text, "sm_90") > 0

# Two modules linked: the kernel's module declares scale_sin, the other
# defines it with libdevice's __nv_sinf.
lib = ir.Module("lib")
scale = ir.Function(lib, ir.FunctionType(f32, [f32]), "scale_sin")
sinf = ir.Function(lib, ir.FunctionType(f32, [f32]), "__nv_sinf")
b = ir.IRBuilder(scale.append_basic_block("entry"))
b.ret(b.fmul(b.call(sinf, [scale.args[0]]), f32(3.0)))
kmod = ir.Module("kernel")
decl = ir.Function(kmod, ir.FunctionType(f32, [f32]), "scale_sin")
k = ir.Function(kmod, ir.FunctionType(ir.VoidType(), [fptr]), "apply_scale_sin")
b = ir.IRBuilder(k.append_basic_block("entry"))
b.store(b.call(decl, [b.load(k.args[0])]), k.args[0])
b.ret_void()
nvvm.set_cuda_kernel(k)
linked = nvvm.compile_ir([str(kmod), str(lib)], arch="compute_80", opt=3).decode()
assert ".target sm_80" in linked, linked[:300]
assert ".visible .entry apply_scale_sin(" in linked
assert ".extern" not in linked, linked  # libdevice's sinf is linked in, nothing left undefined
assert "0f40400000" in linked  # the 3.0 of scale_sin, inlined into the kernel
assert _cuhost._link_ptx_for_test(linked, "sm_80") > 0
unoptimized = nvvm.compile_ir([str(kmod), str(lib)], arch="compute_90", opt=0).decode()
assert "call.uni" in unoptimized or "call " in unoptimized  # opt=0 keeps the call to scale_sin

try:
    nvvm.compile_ir("define void @broken( {")
except NvvmError as e:
    assert "does not parse" in str(e), e
else:
    raise SystemExit("malformed IR compiled")
assert nvvm.is_available() is False  # no libNVVM: the NVPTX backend compiles
print("nvvm compile_ir ok")
