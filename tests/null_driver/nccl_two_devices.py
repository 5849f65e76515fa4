# NCCL collectives over two devices of one process (`cuhost run --nccl`),
# through the null driver and the null NCCL (null_nccl.cpp), which carries
# the operations out between the communicators of the process on the null
# driver's memory (host memory): results are checked against NumPy, and the
# argument checks with their exact messages.
# env: CUHOST_NULL_DEVICES=2
# cuhost-args: --nccl
# stdout: nccl over two devices ok
import numpy as np
from numba import cuda
from cuhost import nccl

assert cuda.backend() == "cuda"
assert nccl.is_available()
assert isinstance(nccl.get_version(), tuple) and nccl.get_version()[0] == 2, nccl.get_version()
comms = nccl.communicators()
assert [(c.rank, c.size, c.device, c.carrier) for c in comms] == [(0, 2, 0, "nccl"), (1, 2, 1, "nccl")], comms
assert nccl.communicator() == comms[0]
with cuda.gpus[1]:
    assert nccl.communicator() == comms[1]
    assert nccl.get_rank() == 1 and nccl.get_world_size() == 2
assert repr(comms[1]) == "<cuhost.nccl.Communicator rank 1 of 2 on device 1 (nccl)>"
rng = np.random.default_rng(3)
n = 1000


def on_devices(arrays):
    """One device array per rank, each on its rank's device."""
    out = []
    for c, a in zip(comms, arrays):
        with cuda.gpus[c.device]:
            out.append(cuda.to_device(a))
    return out


def each(fn):
    """Calls fn(comm, rank) for every rank inside one group, as one thread driving two GPUs must."""
    with nccl.group():
        for c in comms:
            with cuda.gpus[c.device]:
                fn(c, c.rank)


hosts = [rng.standard_normal(n) for _ in comms]

# all_reduce, in place and into another array, with every reduction.
for op, ref in ((nccl.SUM, np.add), ("max", np.maximum), (nccl.ReduceOp.MIN, np.minimum), ("prod", np.multiply)):
    xs = on_devices(hosts)
    each(lambda c, r: c.all_reduce(xs[r], op=op))
    for x in xs:
        np.testing.assert_allclose(x.copy_to_host(), ref(hosts[0], hosts[1]))
xs, outs = on_devices(hosts), on_devices([np.zeros(n)] * 2)
each(lambda c, r: c.all_reduce(xs[r], outs[r], op=nccl.AVG))
np.testing.assert_allclose(outs[1].copy_to_host(), (hosts[0] + hosts[1]) / 2)
np.testing.assert_array_equal(xs[0].copy_to_host(), hosts[0])  # the send array is untouched

# Integer and half-precision types.
ints = [rng.integers(-100, 100, n, dtype=np.int32) for _ in comms]
xs = on_devices(ints)
each(lambda c, r: c.all_reduce(xs[r]))
np.testing.assert_array_equal(xs[1].copy_to_host(), ints[0] + ints[1])
halves = [rng.integers(-8, 8, 64).astype(np.float16) for _ in comms]
xs = on_devices(halves)
each(lambda c, r: c.all_reduce(xs[r]))
np.testing.assert_array_equal(xs[0].copy_to_host(), halves[0] + halves[1])

# reduce to a root, broadcast from a root (in place and not), any dtype moved as bytes.
xs, outs = on_devices(hosts), on_devices([np.zeros(n)] * 2)
each(lambda c, r: c.reduce(xs[r], outs[r] if r == 1 else None, root=1))
np.testing.assert_allclose(outs[1].copy_to_host(), hosts[0] + hosts[1])
shorts = [rng.integers(-9, 9, 17, dtype=np.int16) for _ in comms]
xs = on_devices(shorts)
each(lambda c, r: c.broadcast(xs[r], root=1))
for x in xs:
    np.testing.assert_array_equal(x.copy_to_host(), shorts[1])
xs, outs = on_devices(hosts), on_devices([np.zeros(n)] * 2)
each(lambda c, r: c.broadcast(xs[r], outs[r], root=0))
np.testing.assert_array_equal(outs[1].copy_to_host(), hosts[0])

# reduce_scatter and all_gather (2-d arrays are fine when contiguous).
big = [rng.standard_normal((2, 50)) for _ in comms]
xs, outs = on_devices(big), on_devices([np.zeros(50)] * 2)
each(lambda c, r: c.reduce_scatter(xs[r], outs[r]))
for r in range(2):
    np.testing.assert_allclose(outs[r].copy_to_host(), big[0][r] + big[1][r])
parts = [rng.standard_normal(30) for _ in comms]
xs, outs = on_devices(parts), on_devices([np.zeros((2, 30))] * 2)
each(lambda c, r: c.all_gather(xs[r], outs[r]))
for o in outs:
    np.testing.assert_array_equal(o.copy_to_host(), np.stack(parts))

# send/recv: each rank sends to the other within one group.
xs, outs = on_devices(hosts), on_devices([np.zeros(n)] * 2)
each(lambda c, r: (c.send(xs[r], peer=1 - r), c.recv(outs[r], peer=1 - r)))
np.testing.assert_array_equal(outs[0].copy_to_host(), hosts[1])
np.testing.assert_array_equal(outs[1].copy_to_host(), hosts[0])

# Streams of the communicator's device (and the default stream object) are accepted.
with cuda.gpus[1]:
    s1 = cuda.stream()
xs = on_devices(hosts)
with nccl.group():
    comms[0].all_reduce(xs[0], stream=cuda.default_stream())
    comms[1].all_reduce(xs[1], stream=s1)
s1.synchronize()
np.testing.assert_allclose(xs[1].copy_to_host(), hosts[0] + hosts[1])


def fails(exc, message, fn):
    try:
        fn()
    except exc as e:
        assert str(e) == message, "\n%s\n%s" % (e, message)
    else:
        raise AssertionError("no %s: %s" % (exc.__name__, message))


class ReadOnly:
    def __init__(self, dev):
        cai = dict(dev.__cuda_array_interface__)
        cai["data"] = (cai["data"][0], True)
        self.__cuda_array_interface__ = cai


c0, c1 = comms
x0, x1 = on_devices(hosts)
fails(ValueError, "all_reduce: the send array is an array on device 1, but this communicator (rank 0 of 2) works on "
      "device 0; copy it to device 0 first", lambda: c0.all_reduce(x1))
fails(TypeError, "all_reduce: the send array is float64 but the receive array is int32 (they must match)",
      lambda: c0.all_reduce(x0, cuda.device_array(n, np.int32)))
fails(ValueError, "all_reduce: the receive array has 999 elements but 1000 are expected (as many as the send array)",
      lambda: c0.all_reduce(x0, cuda.device_array(999)))
fails(ValueError, "all_reduce: the send array must be contiguous (make a contiguous copy first)",
      lambda: c0.all_reduce(x0[::2], cuda.device_array(500)))
fails(TypeError, "all_reduce: the send array has dtype int16, which NCCL cannot reduce (int8, uint8, int32, uint32, "
      "int64, uint64, float16, bfloat16, float32 and float64 can be reduced)",
      lambda: c0.all_reduce(cuda.device_array(4, np.int16)))
fails(TypeError, "all_reduce: the send array must be a device array (cuda.to_device(...), cuda.device_array(...) or "
      "an object with __cuda_array_interface__), not numpy.ndarray", lambda: c0.all_reduce(hosts[0]))
fails(ValueError, "reduce_scatter: the send array has 1000 elements but 1200 are expected (the communicator's size "
      "times the receive array's)", lambda: c0.reduce_scatter(x0, cuda.device_array(600)))
fails(ValueError, "all_gather: the receive array has 1000 elements but 2000 are expected (the communicator's size "
      "times the send array's)", lambda: c0.all_gather(x0, cuda.device_array(1000)))
fails(ValueError, "broadcast: root 2 is not a rank of this communicator (ranks 0 to 1)",
      lambda: c0.broadcast(x0, root=2))
fails(ValueError, "send: peer -1 is not a rank of this communicator (ranks 0 to 1)", lambda: c0.send(x0, -1))
fails(ValueError, "all_reduce: the stream belongs to device 1, but this communicator works on device 0",
      lambda: c0.all_reduce(x0, stream=s1))
fails(ValueError, "unknown reduction 'mean' (expected one of sum, prod, max, min, avg)",
      lambda: c0.all_reduce(x0, op="mean"))
fails(ValueError, "all_reduce: the receive array is read-only",
      lambda: c0.all_reduce(x0, ReadOnly(cuda.device_array(n))))
print("nccl over two devices ok")
