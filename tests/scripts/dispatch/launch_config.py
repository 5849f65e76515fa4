# The launch configuration a launch-triggered compilation sees
# (numba.cuda.launchconfig): a launch that must compile calls the kernel's
# _compile_for_args(*args) with the launcher current on that thread (its
# grid, block, shared memory, dispatcher and arguments), and only then;
# mark_launch_config_sensitive() flags that compilation; pre_launch_callbacks
# run before each launch of their launcher, which then cannot be pickled.
# stdout: launch config ok
import pickle

import numpy as np
from numba import cuda
from numba.cuda import launchconfig


@cuda.jit
def fill(a, v):
    a[cuda.grid(1)] = v


seen = []
original = fill._compile_for_args


def spy(*args):
    cfg = launchconfig.ensure_current_launch_config()
    seen.append((cfg.griddim, cfg.blockdim, cfg.sharedmem, cfg.dispatcher is fill, cfg.args[1]))
    cfg.dispatcher.mark_launch_config_sensitive()
    return original(*args)


fill._compile_for_args = spy
a = np.zeros(64, np.float32)
assert launchconfig.current_launch_config() is None
fill[2, 32, 0, 16](a, 1.5)
fill[2, 32](a, 2.5)  # float64 again: already compiled, no call
fill[2, 32](a, 3)  # int64: a new specialization
assert seen == [((2, 1, 1), (32, 1, 1), 16, True, 1.5), ((2, 1, 1), (32, 1, 1), 0, True, 3)], seen
assert launchconfig.current_launch_config() is None
assert (a == 3).all()
assert all(o.launch_config_sensitive for o in fill.overloads.values())
del fill._compile_for_args

try:
    launchconfig.ensure_current_launch_config()
except RuntimeError as e:
    assert "No launch config set for this thread" in str(e)
else:
    raise AssertionError("a launch configuration outside compilation")


@cuda.jit
def plus_one(a):
    a[cuda.grid(1)] += 1


with launchconfig.capture_compile_config(plus_one) as got:
    plus_one[1, 16](np.zeros(16))
assert got["config"].blockdim == (16, 1, 1) and "_compile_for_args" not in plus_one.__dict__

calls = []
launcher = plus_one[1, 16]
launcher.pre_launch_callbacks.append(lambda kernel, cfg: calls.append((kernel is plus_one, cfg is launcher)))
b = np.zeros(16)
launcher(b)
launcher(b)
assert calls == [(True, True), (True, True)] and (b == 2).all(), calls
try:
    pickle.dumps(launcher)
except pickle.PicklingError as e:
    assert "Cannot pickle configured launches with pre-launch callbacks" in str(e)
else:
    raise AssertionError("pickled a launcher with callbacks")
print("launch config ok")
