# A plugin host library that throws C++ exceptions through its C entry
# points: a throwing setup is the launch's PluginError (kept for the next
# launch too), a throwing teardown is said on stderr while its module unloads
# (cuda.close()), and in both cases the process goes on with right results.
# stdout: host library exceptions ok
# stderr: cuhost: plugin 'host_teardown_throws': release_tables() threw while unloading kernel 'use_f': tables already released
import os

import numpy as np
import cuhost
import cuhost.plugins as plugins
from numba import cuda

here = os.path.join(cuhost.share_dir(), "tests", "plugins")
plugins.add_plugin_path(here)

throws = plugins.load("host_setup_throws")


@cuda.jit
def k(out):
    out[0] = throws.f(41)


out = np.zeros(1, np.int32)
lib = "%s/host_setup_throws/libhost_setup_throws.so" % here
for attempt in range(2):
    try:
        k[1, 1](out)
    except cuda.PluginError as e:
        assert ("plugin 'host_setup_throws': host library setup failed for kernel 'k': cuhost_plugin_setup() in %s "
                "threw: device table not initialised" % lib) in str(e), str(e)
    else:
        raise AssertionError("a throwing setup was taken as success")

td = plugins.load("host_teardown_throws")


@cuda.jit
def use_f(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = td.f(x[i])


x = np.random.default_rng(4).integers(-1000, 1000, 100).astype(np.int32)
res = np.zeros_like(x)
use_f[1, 128](res, x)
np.testing.assert_array_equal(res, x + 1)
cuda.close()  # unloads use_f's module: its teardown throws
use_f[1, 128](res, x + 5)
np.testing.assert_array_equal(res, x + 6)
print("host library exceptions ok")
