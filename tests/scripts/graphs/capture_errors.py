# What a graph cannot hold is refused with GraphCaptureError naming the
# operation and the reason, on every backend alike; the capture goes on
# afterwards (a refused operation changes nothing), and an exception that
# leaves the `with` block ends the capture and drops it.
# stdout: capture errors ok
import warnings

import numpy as np
from numba import cuda

from cuhost import graph

warnings.filterwarnings("ignore", message="Grid size")  # small grids on purpose

N = 256


@cuda.jit
def inc(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1


def expect(fn, cls, *fragments):
    try:
        fn()
    except cls as e:
        text = str(e)
        for f in fragments:
            assert f in text, (f, text)
        return text
    raise AssertionError("no %s from %s" % (cls.__name__, fn))


E = graph.GraphCaptureError
assert issubclass(E, Exception) and E.__name__ == "GraphCaptureError"
x = cuda.to_device(np.zeros(N))
host = np.zeros(N)
pinned = cuda.pinned_array(N)
s = cuda.stream()
other = cuda.stream()
ev = cuda.event()
inc[1, N, s](x)
s.synchronize()

with graph.capture(s) as g:
    inc[1, N, s](x)
    label = "while stream 0x%x is being captured into a graph" % s.handle
    expect(s.synchronize, E, "Stream.synchronize(): cannot wait for the stream " + label,
           "runs only when the graph is launched")
    expect(cuda.synchronize, E, "cuda.synchronize(): cannot wait for the whole device " + label)
    expect(lambda: x.copy_to_host(), E, "DeviceNDArray.copy_to_host(): cannot copy 2048 bytes from the device "
           "to host memory and wait for it", "pass the captured stream")
    expect(lambda: x.copy_to_host(host, stream=s), E, "DeviceNDArray.copy_to_host(): cannot copy 2048 bytes "
           "from the device to host memory in pageable memory " + label, "cuda.pinned_array")
    expect(lambda: x.copy_to_device(host, stream=s), E, "cannot copy 2048 bytes from host memory to the device "
           "in pageable memory")
    expect(lambda: x.copy_to_device(pinned), E, "from host memory to the device and wait for it")
    expect(lambda: inc[1, N, s](host), E, "cannot launch kernel 'inc' with a host NumPy array as argument 0 " + label,
           "cuda.to_device before the capture")
    expect(lambda: cuda.device_array(N), E, "cuda.device_array(): cannot allocate 2048 bytes of device memory",
           "allocate before the capture begins")
    expect(lambda: cuda.to_device(host, stream=s), E, "cuda.to_device(): cannot allocate 2048 bytes")
    expect(lambda: cuda.pinned_array(N), E, "cannot allocate 2048 bytes of page-locked host memory")
    expect(lambda: ev.record(s), E, "Event.record(): cannot record an event on the stream " + label)
    expect(lambda: ev.wait(s), E, "Event.wait(): cannot make the stream wait for an event")
    expect(lambda: graph.capture(s).__enter__(), E, "stream 0x%x is already being captured" % s.handle)
    expect(g.launch, E, "the graph is still being captured")
    expect(lambda: g.kernels, E, "the graph is still being captured")
    # Work elsewhere is unaffected: another stream's event, an async copy to pinned memory on it.
    ev.record(other)
    x.copy_to_host(pinned, stream=other)
    inc[1, N, s](x)
assert len(g.kernels) == 2 and g.copy_count == 0

# Nested graphs are not supported: launching a graph on the captured stream.
with graph.capture(s) as outer:
    expect(g.launch, E, "Graph.launch(): cannot launch a graph on the stream " + label, "do not nest")
    expect(lambda: g.launch(s), E, "cannot launch a graph on the stream")
    g.launch(other)  # runs now, on another stream
assert len(outer) == 0

# The legacy and per-thread default streams cannot be captured.
for legacy in (cuda.legacy_default_stream(), cuda.per_thread_default_stream()):
    expect(lambda: graph.capture(legacy).__enter__(), E, "the legacy and per-thread default streams cannot be captured")

# An exception inside the block ends the capture and drops what it recorded.
try:
    with graph.capture(s) as dropped:
        inc[1, N, s](x)
        raise KeyError("boom")
except KeyError:
    pass
assert not graph.is_capturing(s) and not dropped.captured
expect(dropped.launch, E, "the graph is still being captured (or its capture failed)")
# Work queued on other streams while a capture was in progress is not
# ordered against later work on the array (docs/GRAPHS.md): wait for it.
other.synchronize()
before = x.copy_to_host()
inc[1, N, s](x)  # the stream works as before
s.synchronize()
assert np.array_equal(x.copy_to_host(), before + 1)

if cuda.backend() == "cpu":
    # Errors of the captured kernels surface at replay, as in an eager launch
    # (bounds checks are on by default on the CPU backend).
    @cuda.jit
    def bad(x, n):
        x[cuda.grid(1) + n] = 1.0

    with graph.capture(s) as gb:
        bad[1, 32, s](x, N)
    expect(gb.launch, IndexError, "out of bounds", "kernel 'bad'")

    # Invalid configurations are refused at capture, as the driver refuses them.
    with graph.capture(s) as gc:
        expect(lambda: inc[1, N, s, 100000](x), ValueError, "shared memory of 100000 bytes")
    assert len(gc) == 0

# Graph arguments are checked.
expect(lambda: g.launch(stream="x"), TypeError, "expected a stream")
expect(lambda: g.update(42), TypeError, "Graph.update() takes another Graph, not int")
print("capture errors ok")
