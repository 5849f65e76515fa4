# cuhost-args: --plugin-path ../../data/plugins
# `cuhost plugins` lists every plugin with its functions and status; the
# installed example plugins (philox, fastmath) are found without any option.
import os
import subprocess
import sys

import cuhost.plugins as plugins

names = {r["name"]: r for r in plugins.available()}
assert names["philox"]["loaded"] and names["fastmath"]["loaded"], sorted(names)
assert [f["name"] for f in names["philox"]["functions"]] == ["bits", "uniform", "uniform64", "normal"]
exe = os.path.realpath("/proc/self/exe")
if exe.endswith(".bin"):  # a bundle's wrapper runs the real binary
    exe = exe[:-4]
p = subprocess.run([exe, "--plugin-path", "../../data/plugins", "plugins"], capture_output=True, text=True)
assert p.returncode == 0, p.stderr
out = p.stdout
assert "philox 1.0.0  [loaded]" in out and "fastmath 1.0.0  [loaded]" in out, out
assert "uniform" in out and "float32(uint64, uint64)" in out, out
assert "unknown_abi  [refused]" in out and "unknown ABI 'stdcall'" in out, out
# help() shows the signature and the vendor's documentation.
import io  # noqa: E402
import contextlib  # noqa: E402
from cuhost.plugins import philox  # noqa: E402
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    help(philox.uniform)
text = buf.getvalue()
assert "philox.uniform(uint64, uint64) -> float32" in text and "24 random bits" in text, text
print("plugins cli ok")

# The same namespaces under cuda (and numba.cuda).
from cuda.plugins import philox as philox_via_cuda  # noqa: E402
from numba.cuda.plugins import fastmath  # noqa: E402
import cuhost.plugins  # noqa: E402
assert philox_via_cuda is philox and fastmath is cuhost.plugins.load("fastmath")
print("plugin namespaces ok")

# A plugin's host library is listed with its entry points, or with the reason it is refused.
share = os.path.dirname(os.path.dirname(os.path.dirname(names["lut"]["directory"])))
tests = os.path.join(share, "cuhost", "tests", "plugins")
p = subprocess.run([exe, "--plugin-path", tests, "plugins"], capture_output=True, text=True)
assert p.returncode == 0, p.stderr
out = p.stdout
lut_dir = names["lut"]["directory"]
assert ("    host library %s/liblut_host.so (setup cuhost_lut_setup, teardown cuhost_lut_teardown)" % lut_dir) in out, out
assert ("    host library %s/host_setup_fails/libhost_setup_fails.so (setup cuhost_plugin_setup, no teardown)"
        % tests) in out, out
assert ("host_no_setup 1  [loaded]  %s/host_no_setup\n    f " % tests) in out, out
assert ("    host library refused: plugin 'host_no_setup' (%s/host_no_setup/plugin.toml): field 'build.host_setup': "
        "the host library '%s/host_no_setup/libhost_no_setup.so' does not define the setup entry point "
        "'cuhost_plugin_setup'" % (tests, tests)) in out, out
assert "host_missing_library  [refused]" in out and "field 'build.host_library': file not found" in out, out
