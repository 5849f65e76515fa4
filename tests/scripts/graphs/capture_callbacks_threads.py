# Graph capture and graph replay while a module's setup callback gives up the
# GIL (time.sleep here; a cuda-python call or the interpreter's switch
# interval does the same): another thread that launches on the captured
# stream, or edits the graph's kernel arguments, must wait without the GIL,
# or the callback never gets it back and both threads hang. Checked: the
# capture holds both kernels, replays compute what NumPy does on random data.
# backends: cpu
# stdout: capture with a sleeping setup ok
# stdout: replay with a sleeping setup ok
import threading
import time

import numpy as np
from numba import cuda
from cuhost import graph

in_setup = threading.Event()


def setup(module):
    in_setup.set()
    time.sleep(0.2)  # the GIL is released while the load holds the capture's or graph's lock


lib = cuda.CUSource("", setup_callback=setup)


@cuda.jit(link=[lib])
def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1.0


@cuda.jit
def double(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2.0


host = np.random.default_rng(5).standard_normal(64)
x = cuda.to_device(host)
s = cuda.stream()
double[1, 64, s](x)  # compiled and loaded beforehand
s.synchronize()
expect = host * 2


def launch_during_setup():
    in_setup.wait()
    double[1, 64, s](x)  # captured too, after the first kernel


t = threading.Thread(target=launch_during_setup)
t.start()
with graph.capture(s) as g:
    add_one[1, 64, s](x)  # the first launch loads the module: setup runs under the capture's lock
t.join(timeout=60)
assert not t.is_alive(), "the launching thread never finished"
assert len(g.kernels) == 2, g.kernels
np.testing.assert_array_equal(x.copy_to_host(), expect)  # captured, not run
g.launch(s)
s.synchronize()
expect = (expect + 1) * 2
np.testing.assert_array_equal(x.copy_to_host(), expect)
print("capture with a sleeping setup ok")

cuda.current_context().reset()  # unloaded: the replay loads the module again
in_setup.clear()
y = cuda.to_device(host)
replay = threading.Thread(target=g.launch, args=(s,))
replay.start()
in_setup.wait()
g.kernels[0].set_args(y)  # waits for the replay's lock while the replay's setup sleeps
g.kernels[1].set_args(y)
replay.join(timeout=60)
assert not replay.is_alive(), "the replay never finished"
s.synchronize()
expect = (expect + 1) * 2  # the replay that was under way used x
np.testing.assert_array_equal(x.copy_to_host(), expect)
g.launch(s)
s.synchronize()
np.testing.assert_array_equal(y.copy_to_host(), (host + 1) * 2)
print("replay with a sleeping setup ok")
