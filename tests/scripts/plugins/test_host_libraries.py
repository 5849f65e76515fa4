# stderr: host_probe: teardown of setup 1 (kernel 'probe_a')
# stderr: host_probe: teardown of setup 2 (kernel 'probe_b')
# Plugin host libraries that go wrong fail with cuda.PluginError naming the
# plugin, the manifest, the field and the library: a missing library file
# (refused when scanned), a library without the setup entry point, one
# without the teardown the manifest names, and a setup that returns an error
# (at first launch). Another plugin's setup calls every function of the ABI
# context and records the results in the module; teardowns run at exit.
import os

import numpy as np
from numba import cuda
import cuhost
import cuhost.plugins as plugins

here = os.path.join(cuhost.share_dir(), "tests", "plugins")
plugins.add_plugin_path(here)
records = {r["name"]: r for r in plugins.available()}

r = records["host_missing_library"]
assert not r["loaded"]
expected = ("plugin 'host_missing_library' (%s/host_missing_library/plugin.toml): field 'build.host_library': "
            "file not found: 'libhost_missing_library.so' (looked in %s/host_missing_library)" % (here, here))
assert r["reason"] == expected, r["reason"]
try:
    plugins.load("host_missing_library")
except cuda.PluginError as e:
    assert str(e) == expected, str(e)
else:
    raise AssertionError("a plugin whose host library is missing was imported")

for name in ("host_no_setup", "host_bad_teardown", "host_setup_fails", "host_probe"):
    assert records[name]["loaded"], records[name]["reason"]
    assert records[name]["host_library"] == "%s/%s/lib%s.so" % (here, name, name)
assert records["host_bad_teardown"]["host_teardown"] == "missing_teardown"
assert records["host_probe"]["host_setup"] == "cuhost_plugin_setup"


def launch_error(plugin_name):
    mod = plugins.load(plugin_name)

    @cuda.jit
    def k(out):
        out[0] = mod.f(41)

    out = np.zeros(1, np.int32)
    try:
        k[1, 1](out)
    except cuda.PluginError as e:
        return str(e)
    raise AssertionError("%s: the launch did not fail" % plugin_name)


lib = "%s/host_no_setup/libhost_no_setup.so" % here
msg = launch_error("host_no_setup")
assert ("plugin 'host_no_setup' (%s/host_no_setup/plugin.toml): field 'build.host_setup': the host library '%s' "
        "does not define the setup entry point 'cuhost_plugin_setup' (the default; name another with host_setup)"
        % (here, lib)) in msg, msg

lib = "%s/host_bad_teardown/libhost_bad_teardown.so" % here
msg = launch_error("host_bad_teardown")
assert ("plugin 'host_bad_teardown' (%s/host_bad_teardown/plugin.toml): field 'build.host_teardown': the host "
        "library '%s' does not define the teardown entry point 'missing_teardown'" % (here, lib)) in msg, msg

lib = "%s/host_setup_fails/libhost_setup_fails.so" % here
msg = launch_error("host_setup_fails")
assert ("plugin 'host_setup_fails': host library setup failed for kernel 'k': cuhost_plugin_setup() in %s "
        "returned 7: calibration file 'gains.bin' is missing" % lib) in msg, msg
# The failure is not remembered as success: the next launch fails the same way.
assert "returned 7" in launch_error("host_setup_fails")

lib = "%s/host_setup_throws/libhost_setup_throws.so" % here
msg = launch_error("host_setup_throws")
assert ("plugin 'host_setup_throws': host library setup failed for kernel 'k': cuhost_plugin_setup() in %s "
        "threw: device table not initialised" % lib) in msg, msg

from cuhost.plugins import host_probe  # noqa: E402


@cuda.jit
def probe_a(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = host_probe.get(i)


@cuda.jit
def probe_b(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = host_probe.get(i) + 1000000


gpu = cuda.backend() != "cpu"
a = np.zeros(13, np.int64)
probe_a[1, 32](a)
b = np.zeros(13, np.int64)
probe_b[1, 32](b)
b -= 1000000
OK, NOT_FOUND, OUT_OF_RANGE, INVALID = 0, 1, 2, 5
for seq, kernel, got in ((1, "probe_a", a), (2, "probe_b", b)):
    expected = [1, 1, 1 if gpu else 0, NOT_FOUND, OK, 96, OUT_OF_RANGE, INVALID,
                # __constant__: written on the GPU; on the CPU it is internal const data, not a module global
                OK if gpu else NOT_FOUND,
                seq * 1000 + ord("p"), seq, ord("p"),
                7 if gpu else 5]
    assert got.tolist() == expected, (kernel, got.tolist(), expected)
# The same kernel launched again reuses its module: no new setup.
probe_a[1, 32](a)
assert a[10] == 1, a
print("host libraries ok")
