# Module setup callbacks while other threads launch the same kernel: a setup
# callback that gives up the GIL (time.sleep here; I/O or the interpreter's
# switch interval do the same) must not leave the other launching threads
# holding the GIL while they wait for the module, or the load never finishes.
# Each thread's launch must run after the one shared setup, on every backend;
# a second callback launches another kernel (loading its module) from inside
# the setup.
# stdout: threaded module loads ok
import threading
import time

import numpy as np
from numba import cuda

setups = []


@cuda.jit
def fill(out, value):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = value


def setup(module):
    time.sleep(0.05)  # the GIL is released here while the module's load is under way
    scratch = cuda.device_array(32, np.float64)
    fill[1, 32](scratch, 2.5)  # a launch (and a module load) from inside a setup callback
    assert (scratch.copy_to_host() == 2.5).all()
    setups.append(module.handle)


lib = cuda.CUSource("", setup_callback=setup)


@cuda.jit(link=[lib])
def scale(x, factor, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * factor


rng = np.random.default_rng(11)
x = rng.standard_normal(1000)
scale[4, 256](x, 1.0, np.empty_like(x))  # compiled and loaded once
assert len(setups) == 1, setups
cuda.current_context().reset()  # unloaded: the next launches load it again

results, errors = {}, []


def worker(k):
    try:
        out = np.empty_like(x)
        scale[4, 256](x, float(k), out)
        results[k] = out
    except BaseException as e:  # reported below; a thread's exception would be lost
        errors.append(e)


threads = [threading.Thread(target=worker, args=(k,)) for k in range(1, 7)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=60)
assert not any(t.is_alive() for t in threads), "a launching thread never finished"
assert not errors, errors
assert len(setups) == 2, setups  # one setup for the reloaded module, shared by every thread
for k, out in results.items():
    np.testing.assert_allclose(out, x * k, rtol=0, atol=0)
assert sorted(results) == list(range(1, 7))
print("threaded module loads ok")
