# numba-cuda's dispatcher API over cuhost's dispatcher: launch_bounds (PTX
# and the launch refusal), forceinline vs inline in the LLVM IR, fastmath flag
# sets, shared_memory_carveout errors, specialize/specializations/overloads,
# kernel resource queries, pickling, compile_all and declare_device errors.
# stdout: dispatcher api checked
# sanitizer-expects: CUDA_ERROR_INVALID_VALUE cuLaunchKernel
import math
import pickle
import re

import numpy as np
from numba import cuda
from numba.cuda import float32, float64, int32, void


def raises(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        assert text in str(e), (text, str(e))
        return
    raise AssertionError("expected %s(%s)" % (exc.__name__, text))


rng = np.random.default_rng(7)

# launch_bounds: .maxntid in the PTX, and a larger block is refused like the driver does.
@cuda.jit(launch_bounds=(128, 2))
def bounded(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = 2 * x[i]


x = rng.random(200).astype(np.float32)
out = x.copy()
bounded[2, 128](out)
assert np.array_equal(out, 2 * x)
ptx = bounded.inspect_asm(bounded.signatures[0])
assert ".maxntid 128, 1, 1" in ptx and ".minnctapersm 2" in ptx, ptx[:800]
raises(cuda.cudadrv.driver.CudaAPIError if hasattr(cuda.cudadrv.driver, "CudaAPIError") else Exception,
       "CUDA_ERROR_INVALID_VALUE", lambda: bounded[1, 256](out))
raises(ValueError, "Got 4 launch bounds", lambda: cuda.jit(launch_bounds=(1, 2, 3, 4))(lambda: None))
def empty():
    pass


ptx, _ = cuda.compile_ptx(empty, (), launch_bounds=64)
assert ".maxntid 64, 1, 1" in ptx

# inline=True is inlined before optimization; forceinline=True is LLVM's attribute.
for option, inlined in (({"inline": True}, True), ({"forceinline": True}, False)):
    @cuda.jit(**option)
    def set_one(a):
        a[0] = 1

    @cuda.jit((int32[::1],))
    def caller(a):
        set_one(a)

    a = np.zeros(2, np.int32)
    caller[1, 1](a)
    assert a[0] == 1
    ir = caller.inspect_llvm(caller.signatures[0])
    has_call = re.search(r'call (i32|void) @"(?!llvm\.)', ir) is not None
    assert has_call != inlined, (option, ir)
    assert ("alwaysinline" in ir) == ("forceinline" in option), option

# fastmath as a set of flags: the flags reach the IR, no approximations.
@cuda.jit(fastmath={"nsz", "contract"})
def fm(r, a, b):
    r[0] = a[0] * b[0] + a[1]


r = np.zeros(1, np.float64)
a = rng.random(2)
b = rng.random(1)
fm[1, 1](r, a, b)
assert np.isclose(r[0], a[0] * b[0] + a[1])
assert "nsz contract" in fm.inspect_llvm(fm.signatures[0])
raises(ValueError, "Unrecognized fastmath flag: fastest", lambda: cuda.jit(fastmath={"fastest"})(lambda: None))
raises(ValueError, "must be between -1 and 100", lambda: cuda.jit(shared_memory_carveout=101)(lambda: None))
raises(ValueError, "Invalid carveout value", lambda: cuda.jit(shared_memory_carveout="most")(lambda: None))
assert len(cuda.jit(extensions=[object()])(lambda: None).extensions) == 1  # tests/scripts/memory/arg_hints.py


# specialize: cached per types, refused on a specialized dispatcher.
@cuda.jit
def scale(x, s):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * s


s1 = scale.specialize(float32[::1], float32)
assert scale.specialize(float32[::1], float32) is s1 and len(scale.specializations) == 1
raises(RuntimeError, "Dispatcher already specialized", s1.specialize, float32[::1], float32)
y = rng.random(64).astype(np.float32)
got = y.copy()
s1[1, 64](got, np.float32(3))
assert np.allclose(got, y * np.float32(3))
assert list(s1.overloads) == [(float32[::1], float32)]

# Kernel resources: real figures (driver, or nvJitLink's sm_90 report on the CPU backend).
@cuda.jit(void(float64[::1]))
def lmem(x):
    buf = cuda.local.array(500, float64)
    for j in range(500):
        buf[j] = x[j] * j
    for j in range(500):
        x[j] = buf[499 - j] + math.sin(x[j])


assert lmem.get_regs_per_thread() > 0
assert lmem.get_local_mem_per_thread() >= 500 * 8, lmem.get_local_mem_per_thread()
assert 0 < lmem.get_max_threads_per_block() <= 1024
assert bounded.get_max_threads_per_block(bounded.signatures[0]) <= 128

# Pickling a dispatcher and a configured launch round-trips to working kernels.
again = pickle.loads(pickle.dumps(scale))
z = rng.random(32).astype(np.float32)
zz = z.copy()
again[1, 32](zz, np.float32(0.5))
assert np.allclose(zz, z * np.float32(0.5))
launcher = pickle.loads(pickle.dumps(scale[4, 8]))
assert launcher.griddim == (4, 1, 1) and launcher.blockdim == (8, 1, 1)


# Device functions with a signature compile on their own; compile_all returns a list.
def add(p, q):
    return p + q


dev = cuda.jit("float32(float32, float32)", device=True)(add)
assert ".visible .func" in dev.inspect_asm((float32, float32))
codes, resty = cuda.compile_all(add, (float32, float32), device=True, abi="c", output="ptx")
assert len(codes) == 1 and "func_retval0" in codes[0] and resty == float32
def first(p):
    return p[0]


raises(TypeError, "CUDA kernel must have void return type", cuda.compile_ptx, first, (float32[::1],))
raises(NotImplementedError, "The C ABI is not supported for kernels", cuda.compile_ptx, add, (int32, int32),
       abi="c")
raises(ValueError, "Can only designate forced inlining in LTO-IR", cuda.compile, add, (int32, int32),
       forceinline=True)
raises(TypeError, "Return type must be provided for device declarations", cuda.declare_device, "f", "(float32,)")
print("dispatcher api checked")
