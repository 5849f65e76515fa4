# NCCL collectives on the GPUs of this process (`cuhost run --nccl`), with
# results checked against NumPy: one communicator per GPU (one rank with one
# GPU), every operation, a halo-style send/recv ring, and a kernel's partial
# sums all-reduced. Needs NCCL (libnccl.so.2) on the GPU machine.
# backends: cuda
# cuhost-args: --nccl
# stdout: gpu collectives ok
import numpy as np
from numba import cuda
from cuhost import nccl

comms = nccl.communicators()
size = comms[0].size
assert len(comms) == size == len(cuda.gpus), (comms, len(cuda.gpus))
assert all(c.carrier == "nccl" for c in comms)
rng = np.random.default_rng(2)
n = 1 << 20


def data(r, count, dtype=np.float32):
    return np.random.default_rng(10 + r).standard_normal(count).astype(dtype)


def run(fn):
    with nccl.group():
        for c in comms:
            with cuda.gpus[c.device]:
                fn(c)
    for c in comms:
        with cuda.gpus[c.device]:
            cuda.synchronize()


def on(c, a):
    with cuda.gpus[c.device]:
        return cuda.to_device(a)


everyone = np.stack([data(r, n) for r in range(size)])
for op, ref in (("sum", np.sum), ("max", np.max), ("min", np.min), ("avg", np.mean)):
    xs = [on(c, data(c.rank, n)) for c in comms]
    run(lambda c: c.all_reduce(xs[c.rank], op=op))
    for x in xs:
        np.testing.assert_allclose(x.copy_to_host(), ref(everyone, axis=0), rtol=1e-5, atol=1e-5)

m = 4096
xs = [on(c, data(c.rank, m * size)) for c in comms]
outs = [on(c, np.zeros(m, np.float32)) for c in comms]
run(lambda c: c.reduce_scatter(xs[c.rank], outs[c.rank]))
total = np.sum(np.stack([data(r, m * size) for r in range(size)]), axis=0)
for c in comms:
    np.testing.assert_allclose(outs[c.rank].copy_to_host(), total[c.rank * m:(c.rank + 1) * m], rtol=1e-5, atol=1e-5)
xs = [on(c, data(c.rank, m)) for c in comms]
outs = [on(c, np.zeros(m * size, np.float32)) for c in comms]
run(lambda c: c.all_gather(xs[c.rank], outs[c.rank]))
for o in outs:
    np.testing.assert_array_equal(o.copy_to_host(), np.concatenate([data(r, m) for r in range(size)]))
xs = [on(c, data(c.rank, m)) for c in comms]
run(lambda c: c.broadcast(xs[c.rank], root=size - 1))
for x in xs:
    np.testing.assert_array_equal(x.copy_to_host(), data(size - 1, m))

# A ring: each rank sends to the next and receives from the previous.
xs = [on(c, data(c.rank, m)) for c in comms]
outs = [on(c, np.zeros(m, np.float32)) for c in comms]
run(lambda c: (c.send(xs[c.rank], peer=(c.rank + 1) % size), c.recv(outs[c.rank], peer=(c.rank - 1) % size)))
for c in comms:
    np.testing.assert_array_equal(outs[c.rank].copy_to_host(), data((c.rank - 1) % size, m))


@cuda.jit
def partial(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(out, 0, x[i])


sums = []
for c in comms:
    with cuda.gpus[c.device]:
        x = cuda.to_device(data(c.rank, 10000).astype(np.float64))
        s = cuda.to_device(np.zeros(1))
        partial[(10000 + 255) // 256, 256](x, s)
        sums.append(s)
run(lambda c: c.all_reduce(sums[c.rank]))
expected = sum(data(r, 10000).astype(np.float64).sum() for r in range(size))
for s in sums:
    assert abs(s.copy_to_host()[0] - expected) < 1e-6 * max(1.0, abs(expected))
print("gpu collectives ok (%d rank(s), NCCL %s)" % (size, ".".join(map(str, nccl.get_version()))))
