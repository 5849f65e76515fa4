# NVRTC and the linker of numba-cuda's driver layer, which need no GPU:
# nvrtc.get_arch_option / find_closest_arch / get_supported_ccs follow the
# NVRTC cuhost is built with; nvrtc.compile makes PTX (and LTO-IR) of CUDA
# C++; _Linker links PTX, CUDA C++ and LTO-IR for any compute capability into
# a cubin, or into PTX for an LTO link; errors carry numba's classes.
# stdout: nvrtc and linker ok
import warnings

from numba.cuda.cudadrv import nvrtc
from numba.cuda.cudadrv.driver import Linker, LinkerError, _Linker
from numba.cuda.cudadrv.error import CCSupportError, NvrtcError
from numba.cuda import config

supported = nvrtc.get_supported_ccs()
assert supported == sorted(supported) and (9, 0) in supported and nvrtc.get_lowest_supported_cc() == supported[0]
for cc in supported:
    assert nvrtc.get_arch_option(*cc) == "compute_%d%d" % cc
    assert nvrtc.find_closest_arch(cc) == cc
assert nvrtc.get_arch_option(9, 1) == "compute_90"
assert nvrtc.get_arch_option(1000, 0) == "compute_%d%d" % supported[-1]
assert nvrtc.get_arch_option(9, 0, "a") == "compute_90a"
try:
    nvrtc.get_arch_option(99, 0, "a")
    raise SystemExit("an arch-specific option for an unknown capability was accepted")
except ValueError as err:
    assert str(err).startswith("Can't use arch-specific compute_990a with"), err
try:
    nvrtc.find_closest_arch((1, 0))
    raise SystemExit("compute capability 1.0 was accepted")
except CCSupportError:
    pass
try:
    config.FORCE_CUDA_CC = (8, 0)
    assert nvrtc.get_arch_option(9, 0, "a") == "compute_80"
    config.FORCE_CUDA_CC = (9, 0, "a")
    assert nvrtc.get_arch_option(7, 5) == "compute_90a"
finally:
    config.FORCE_CUDA_CC = None

source = 'extern "C" __device__ int twice(int x) { return 2 * x; }\n'
# numba-cuda 0.30's result: a cuda.core ObjectCode and the log ("" or a list).
result, log = nvrtc.compile(source, "twice.cu", (8, 6))
assert result.code_type == "ptx" and result.name == "twice.cu", result
ptx = result.code.decode()
assert ".target sm_86" in ptx and "twice" in ptx
assert log == "" or isinstance(log, list), log
ltoir_result, _ = nvrtc.compile(source, "twice.cu", (8, 6), ltoir=True)
ltoir = ltoir_result.code
assert ltoir_result.code_type == "ltoir" and isinstance(ltoir, bytes) and len(ltoir) > 0
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    older = nvrtc.compile(source, "twice.cu", (8, 5))[0].code.decode()  # not a real capability: the closest below
assert ".target sm_80" in older
assert any("Device compute capability 8.5 is not supported by NVRTC" in str(w.message) for w in seen), seen
try:
    nvrtc.compile("this is not C++", "broken.cu", (9, 0))
    raise SystemExit("broken CUDA C++ compiled")
except NvrtcError as err:
    assert "broken.cu" in str(err)

# A link for sm_75 through LTO gives PTX for that target.
linker = _Linker(max_registers=0, cc=(7, 5), lto=True)
linker.add_cu("__device__ int foo(int x) { return x + 1; }\n", "foo")
linked = linker.get_linked_ptx().decode()
assert "target sm_75" in linked, linked[:400]
assert linker.info_log is not None

# A cubin from PTX and CUDA C++ for two architectures.
for cc in ((8, 0), (9, 0)):
    link = Linker.new(cc=cc)
    link.add_ptx(nvrtc.compile(source, "twice.cu", cc)[0].code)
    link.add_cu('extern "C" __global__ void k(int* p) { p[0] = 1; }\n', "k.cu")
    cubin = link.complete()
    assert cubin[:4] == b"\x7fELF", cubin[:4]

# Errors: a missing file, an unknown kind, an unresolved symbol.
link = _Linker(cc=(9, 0))
try:
    link.add_file("no/such/file.a", "a")
    raise SystemExit("a missing file was accepted")
except LinkerError as err:
    assert str(err) == "no/such/file.a not found" and isinstance(err, RuntimeError)
try:
    link.add_file_guess_ext("header.cuh")
    raise SystemExit("a .cuh file was accepted")
except RuntimeError as err:
    assert str(err) == "Don't know how to link file with extension .cuh"
link.add_cu('extern "C" __device__ int missing(int); extern "C" __global__ void k(int* p) { p[0] = missing(1); }',
            "user.cu")
try:
    link.complete()
    raise SystemExit("an unresolved symbol linked")
except LinkerError as err:
    assert "missing" in str(err) and link.error_log
print("nvrtc and linker ok")
