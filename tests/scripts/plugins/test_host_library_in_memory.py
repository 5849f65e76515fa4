# stderr: host_probe: teardown of setup 1 (kernel 'mem_kernel')
# An embedder's in-memory plugin (register_plugin) can ship its host library
# as bytes too: it is written beside the manifest and loaded from there, and
# sets up the module like an installed one.
import os

import numpy as np
from numba import cuda
import cuhost
import cuhost.plugins as plugins

probe_dir = os.path.join(cuhost.share_dir(), "tests", "plugins", "host_probe")
with open(os.path.join(probe_dir, "libhost_probe.so"), "rb") as f:
    library = f.read()
with open(os.path.join(probe_dir, "dev.cu")) as f:
    source = f.read().replace("host_probe_get", "mem_probe_get")

manifest = """
[plugin]
name = "mem_probe"
version = "1"
format = 1

[build]
link = ["dev.cu"]
host_library = "lib/probe.so"

[[functions]]
name = "get"
symbol = "mem_probe_get"
signature = "int64(int32)"
abi = "c"
"""
plugins.register_plugin(manifest, {"dev.cu": source, "lib/probe.so": library}, "<embedder>")
from cuhost.plugins import mem_probe  # noqa: E402

rec = [r for r in plugins.available() if r["name"] == "mem_probe"][0]
assert rec["host_library"] == rec["directory"] + "/lib/probe.so", rec


@cuda.jit
def mem_kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = mem_probe.get(i)


out = np.zeros(12, np.int64)
mem_kernel[1, 32](out)
gpu = cuda.backend() != "cpu"
assert out[:8].tolist() == [1, 1, 1 if gpu else 0, 1, 0, 96, 2, 5], out
assert out[9:].tolist() == [1000 + ord("m"), 1, ord("m")], out
print("in-memory host library ok")
