# Collectives in one process on the CPU backend (`cuhost run --nccl`): the
# host lends one communicator of one rank (carrier 'self'); every operation
# gives what NCCL gives with one rank, checked on random data, and the
# argument checks raise the exact errors. NumPy arrays are device memory on
# this backend, so they work too.
# backends: cpu
# cuhost-args: --nccl
# stdout: collectives in one process ok
import numpy as np
from numba import cuda
from cuhost import nccl

comms = nccl.communicators()
assert len(comms) == 1
c = comms[0]
assert (c.rank, c.size, c.device, c.carrier) == (0, 1, 0, "self"), c
assert nccl.communicator() is not None and nccl.get_rank() == 0 and nccl.get_world_size() == 1
assert nccl.is_available()
rng = np.random.default_rng(17)

x = rng.standard_normal(300)
d = cuda.to_device(x)
for op in ("sum", nccl.PROD, nccl.MAX, nccl.MIN, nccl.AVG):
    out = cuda.device_array_like(d)
    assert c.all_reduce(d, out, op=op) is out
    np.testing.assert_array_equal(out.copy_to_host(), x)
c.all_reduce(d)  # in place
np.testing.assert_array_equal(d.copy_to_host(), x)
h = x.copy()
c.all_reduce(h)  # a NumPy array
np.testing.assert_array_equal(h, x)
out = np.zeros_like(x)
c.reduce(d, out, root=0)
np.testing.assert_array_equal(out, x)
b = np.zeros(7, np.int16)
src = rng.integers(0, 100, 7).astype(np.int16)
c.broadcast(src, b)
np.testing.assert_array_equal(b, src)
g = np.zeros((1, 300))
c.all_gather(d, g)
np.testing.assert_array_equal(g[0], x)
rs = np.zeros(300)
c.reduce_scatter(d, rs)
np.testing.assert_array_equal(rs, x)

# A send to itself completes with its receive in one group.
got = np.zeros(300)
with nccl.group():
    c.send(d, peer=0)
    c.recv(got, peer=0)
np.testing.assert_array_equal(got, x)
c.barrier()


def fails(exc, message, fn):
    try:
        fn()
    except exc as e:
        assert str(e) == message, "\n%s\n%s" % (e, message)
    else:
        raise AssertionError("no %s: %s" % (exc.__name__, message))


fails(ValueError, "send to itself outside a group never completes (NCCL would wait forever); bracket the send and "
      "its receive with `with nccl.group():`", lambda: c.send(d, peer=0))
try:
    with nccl.group():
        c.send(d, 0)
    raise AssertionError("a send without its receive was accepted")
except ValueError as e:
    assert str(e) == "a group posted 1 send(s) to itself and 0 receive(s) from itself; each send needs its receive", e
fails(ValueError, "send: peer 1 is not a rank of this communicator (ranks 0 to 0)", lambda: c.send(d, 1))
fails(TypeError, "all_reduce: the send array is float64 but the receive array is float32 (they must match)",
      lambda: c.all_reduce(d, np.zeros(300, np.float32)))
fails(TypeError, "all_reduce: the send array has dtype complex128, which NCCL cannot reduce (int8, uint8, int32, "
      "uint32, int64, uint64, float16, bfloat16, float32 and float64 can be reduced)",
      lambda: c.all_reduce(np.zeros(3, np.complex128)))
fails(TypeError, "all_reduce: the send array must be a device array (cuda.to_device(...), cuda.device_array(...) or "
      "an object with __cuda_array_interface__) or a NumPy array, not list", lambda: c.all_reduce([1.0, 2.0]))
fails(ValueError, "all_reduce: the receive array is read-only",
      lambda: c.all_reduce(x, np.frombuffer(bytes(2400), dtype=np.float64)))
print("collectives in one process ok")
