# A plugin with a host library: lut's device functions read a sine table in
# __device__ memory that liblut_host.so computes and writes when the module
# loads (on the GPU with cuMemcpyHtoD, on the CPU backend into the JIT
# module). Here it synthesizes a two-tone signal by table lookup.
# stdout: lut ok
import numpy as np
from numba import cuda
from cuhost.plugins import lut


@cuda.jit
def synth(out, f1, f2, rate):
    i = cuda.grid(1)
    if i < out.size:
        t = i / rate
        out[i] = 0.5 * lut.sin_turns(f1 * t - int(f1 * t)) + 0.5 * lut.sin_turns(f2 * t - int(f2 * t))


n = 48_000
out = np.zeros(n, np.float32)
synth[(n + 255) // 256, 256](out, np.float32(440.0), np.float32(660.0), np.float32(48_000.0))
t = np.arange(n) / 48_000.0
ref = 0.5 * np.sin(2 * np.pi * 440.0 * t) + 0.5 * np.sin(2 * np.pi * 660.0 * t)
err = np.abs(out - ref).max()
assert err < 1e-3, err
print("two tones from a %d-entry table: max error %.2e" % (256, err))
print("lut ok")
