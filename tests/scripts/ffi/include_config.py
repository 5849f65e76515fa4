# Include search paths set at run time through numba.cuda.config: without
# them the headers of a .cu item are not found (a compile error naming the
# header and the file); with CUDA_NVRTC_EXTRA_SEARCH_PATHS set the same
# kernel source compiles. Compiled foreign code is cached by the content of
# the source and its headers: editing a header changes the result of the
# next kernel that links it, in the same process.
# stdout: include config ok
import os
import shutil
import tempfile

import numpy as np
from numba import cuda
from numba.cuda import config

HERE = os.path.dirname(os.path.abspath(__file__))
CU = os.path.join(HERE, "cu", "uses_headers.cu")
assert not os.environ.get("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS")
xs = np.random.default_rng(2).standard_normal(200).astype(np.float32)


def run(link):
    so = cuda.declare_device("ffi_scale_offset", "float32(float32)", link=link)

    @cuda.jit
    def k(out, xs):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = so(xs[i])

    out = np.zeros_like(xs)
    k[2, 128](out, xs)
    return out


try:
    run(CU)
except Exception as e:
    assert "ffi_scale.cuh" in str(e) and "uses_headers.cu" in str(e), str(e)
else:
    raise AssertionError("headers found without a search path")

config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = os.path.join(HERE, "cu", "inc_a") + ":" + os.path.join(HERE, "cu", "inc_b")
np.testing.assert_allclose(run(CU), np.float32(2.5) * xs - np.float32(0.75), rtol=1e-5, atol=1e-6)  # the GPU may contract to an FMA

# Content-keyed cache: a private copy of the headers, edited between kernels.
tmp = tempfile.mkdtemp()
for sub in ("inc_a", "inc_b"):
    shutil.copytree(os.path.join(HERE, "cu", sub), os.path.join(tmp, sub))
config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = os.path.join(tmp, "inc_a") + ":" + os.path.join(tmp, "inc_b")
np.testing.assert_allclose(run(CU), np.float32(2.5) * xs - np.float32(0.75), rtol=1e-5, atol=1e-6)  # the GPU may contract to an FMA
with open(os.path.join(tmp, "inc_b", "ffi_offset.cuh"), "w") as f:
    f.write("#pragma once\n__device__ inline float ffi_offset_by(float x) { return x + 4.0f; }\n")
np.testing.assert_allclose(run(CU), np.float32(2.5) * xs + np.float32(4.0), rtol=1e-5, atol=1e-6)  # the GPU may contract to an FMA
# The same content again (a fresh copy of the source): still the edited header.
np.testing.assert_allclose(run(cuda.CUSource(open(CU).read(), name="uses_headers.cu")),
                           np.float32(2.5) * xs + np.float32(4.0), rtol=1e-5, atol=1e-6)  # the GPU may contract to an FMA
print("include config ok")
