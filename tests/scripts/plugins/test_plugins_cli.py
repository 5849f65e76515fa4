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
print("plugins cli ok")
