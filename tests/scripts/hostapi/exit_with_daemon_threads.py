# The end of a run while daemon threads are inside cuhost calls (launches,
# copies, compiles, synchronizations, a kernel whose module has a teardown
# callback): the interpreter is finalized as python3 finalizes it, the
# daemon threads stop where they are, the teardown callback runs after the
# script's atexit handler, and the exit code is the script's.
# exit: 3
# stdout: results match: True
# stdout: atexit handler ran
# stdout: teardown ran
import atexit
import sys
import threading

import numpy as np
from numba import cuda


@cuda.jit
def inc(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


source = 'extern "C" __device__ int twice(int* out, int x) { *out = 2 * x; return 0; }'
lib = cuda.CUSource(source, teardown_callback=lambda module: print("teardown ran", flush=True))
twice = cuda.declare_device("twice", "int32(int32)", link=[lib])


@cuda.jit
def doubled(out):
    out[0] = twice(21)


started = threading.Barrier(5)


def launches():
    d = cuda.to_device(np.zeros(1 << 16, np.float32))
    started.wait()
    while True:
        inc[256, 256](d)


def copies():
    rng = np.random.default_rng(1)
    started.wait()
    while True:
        h = rng.random(4096)
        assert (cuda.to_device(h).copy_to_host() == h).all()


def compiles():
    started.wait()
    n = 0
    while True:
        n += 1

        @cuda.jit
        def fill(a, v):
            a[cuda.grid(1)] = v

        fill[1, 32](cuda.device_array(32), float(n))


def synchronizes():
    out = cuda.device_array(1, np.int32)
    started.wait()
    while True:
        doubled[1, 1](out)
        cuda.synchronize()


for target in (launches, copies, compiles, synchronizes):
    threading.Thread(target=target, daemon=True).start()
started.wait()
x = np.random.default_rng(7).random(1000)
d = cuda.to_device(x)
inc[4, 256](d)
out = cuda.device_array(1, np.int32)
doubled[1, 1](out)  # its module is loaded: its teardown runs at the end
print("results match:", np.allclose(d.copy_to_host(), x + 1) and out.copy_to_host()[0] == 42)
atexit.register(print, "atexit handler ran", flush=True)
sys.exit(3)
