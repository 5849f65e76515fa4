# Where a fresh process's time goes before its first result (P4): prints the
# process age (ms since the process started, from /proc) when the script
# begins, after `import numpy`, after `from numba import cuda`, after the
# first device arrays, and at the first kernel result. Run it as
# `cuhost -v run start_breakdown.py` to also see the engine's startup stages.
import os


def age_ms():
    with open("/proc/self/stat") as f:
        start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return (uptime - start_ticks / os.sysconf("SC_CLK_TCK")) * 1e3


marks = [("script starts", age_ms())]
import numpy as np  # noqa: E402

marks.append(("numpy imported", age_ms()))
from numba import cuda  # noqa: E402

marks.append(("numba.cuda imported", age_ms()))


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


x = cuda.to_device(np.arange(4096, dtype=np.float32))
out = cuda.device_array(4096, np.float32)
marks.append(("device arrays made", age_ms()))
saxpy[16, 256](np.float32(2.0), x, x, out)
result = out.copy_to_host()
marks.append(("first result", age_ms()))
null_driver = cuda.backend() == "cuda" and cuda.get_current_device().name in (b"cuhost null driver",
                                                                              "cuhost null driver")
if not null_driver:  # kernels run
    np.testing.assert_array_equal(result, 3 * np.arange(4096, dtype=np.float32))
print(" | ".join("%s %.0f ms" % m for m in marks))
