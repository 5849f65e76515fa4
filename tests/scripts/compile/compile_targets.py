# What compile() and friends emit: the architectures LLVM's NVPTX backend
# knows (find_closest_arch, cc=(9, 0, "a") for sm_90a), newer targets
# (sm_100f) relabelled, opt=False as NVVM's
# -opt=0 (locals in local memory, no fma contraction), lambdas (their C-ABI
# symbol made a valid PTX name), kernels returning None, types.NoneType.
# stdout: compile targets ok
from numba import cuda
from numba.cuda import float64, int32, types
from numba.cuda.cudadrv import nvrtc

ccs = nvrtc.get_supported_ccs()
assert (9, 0) in ccs and ccs == sorted(ccs) and all(cc >= (5, 0) for cc in ccs), ccs
assert nvrtc.find_closest_arch((9, 0)) == (9, 0)
assert nvrtc.find_closest_arch((8, 5)) == max(cc for cc in ccs if cc <= (8, 5))
assert nvrtc.find_closest_arch((12, 0)) == max(cc for cc in ccs if cc <= (12, 0))
try:
    nvrtc.find_closest_arch((3, 0))
except Exception as e:
    assert "is not supported" in str(e), str(e)
else:
    raise AssertionError("cc 3.0 accepted")

ptx, resty = cuda.compile_ptx(lambda: None, (), cc=(9, 0, "a"))
assert ".target sm_90a" in ptx and isinstance(resty, types.NoneType), ptx
# Targets newer than LLVM knows: code for the newest chip it knows (valid PTX
# for them), with .target and the PTX ISA version raised to theirs.
for cc, target, version in (((10, 0, "f"), "sm_100f", "8.8"), ((10, 0, "a"), "sm_100a", "8.6"),
                            ((12, 0, "a"), "sm_120a", "8.7")):
    ptx, _ = cuda.compile_ptx(lambda a: None, (types.float32[::1],), cc=cc)
    lines = ptx.splitlines()
    assert ".target " + target in lines and ".version " + version in lines, (cc, ptx[:300])
try:
    cuda.compile_ptx(lambda: None, (), cc=(13, 0, "f"))
except NotImplementedError as e:
    assert "no sm_130f target" in str(e), str(e)
else:
    raise AssertionError("sm_130f accepted")
try:
    cuda.compile_ptx(lambda: None, (), cc=(8, 0, "a"))
except NotImplementedError as e:
    assert "sm_80a" in str(e), str(e)
else:
    raise AssertionError("sm_80a accepted")

ptx, resty = cuda.compile_ptx(lambda x: x * 3, int32(int32), device=True, abi="c")
assert resty == int32 and "_3clambda_3e(" in ptx, ptx  # "<lambda>" escaped as numba escapes it


def fma_like(x, y, z):
    return x * y + z


opt, _ = cuda.compile_ptx(fma_like, (float64, float64, float64), device=True)
noopt, _ = cuda.compile_ptx(fma_like, (float64, float64, float64), device=True, opt=False)
assert "fma.rn.f64" in opt and "fma.rn.f64" not in noopt, noopt


def store_one(x):
    x[0] = 1


assert "__local_depot" not in cuda.compile_ptx(store_one, (float64[::1],))[0]
assert "__local_depot" in cuda.compile_ptx(store_one, (float64[::1],), opt=False)[0]
print("compile targets ok")
