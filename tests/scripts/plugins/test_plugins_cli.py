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
