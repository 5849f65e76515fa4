# `cuhost run --streams 2` lends s0 and s1 to the script; unknown names give a
# KeyError listing what the host registered.
# cuhost-args: --streams 2
# stdout: host streams ok
import numpy as np
from numba import cuda

assert cuda.host_stream_names() == ["s0", "s1"], cuda.host_stream_names()
s0 = cuda.host_stream("s0")
s1 = cuda.host_stream("s1")
assert isinstance(s0, cuda.Stream) and s0.name == "s0" and s1.name == "s1"
if cuda.backend() == "cuda":
    assert s0.handle != 0 and s1.handle != 0 and s0.handle != s1.handle
    # The first host stream is the default for launches and copies.
    assert cuda.default_stream().handle == s0.handle
else:
    assert s0.handle == 0 and s1.handle == 0
s0.synchronize()
d = cuda.to_device(np.arange(6, dtype=np.int32), stream=s1)
s1.synchronize()
h = d.copy_to_host(stream=s1)
s1.synchronize()
assert list(h) == list(range(6))
assert list(d.copy_to_host()) == list(range(6))
try:
    cuda.host_stream("s2")
    raise SystemExit("unknown host stream accepted")
except KeyError as err:
    assert err.args[0] == "no host stream named 's2'; the host registered 's0', 's1'", err.args[0]
try:
    cuda.host_array("weights")
    raise SystemExit("unknown host array accepted")
except KeyError as err:
    assert err.args[0] == "no host array named 'weights'; the host registered none (see Runtime::register_buffer)"
print("host streams ok")
