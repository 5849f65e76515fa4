# Several GPUs in one process, with results (the null-driver twin,
# tests/null_driver/multi_device_host_paths.py, checks the host paths without
# a GPU): a kernel compiled once runs on every device, after select_device,
# in `with` blocks and from one thread per device; arrays are copied between
# devices (peer copies) and used across devices through peer access where the
# devices allow it; close() reloads everywhere. With one GPU it checks the
# one-device case of all of it.
# backends: cuda
# stdout: several gpus ok
import threading

import numpy as np
from numba import cuda


@cuda.jit
def affine(x, a, b):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = a * x[i] + b


n = 1 << 16
rng = np.random.default_rng(1)
host = rng.random(n)
devices = list(range(len(cuda.gpus)))
for g in cuda.gpus:
    assert isinstance(g.name, str), type(g.name)

arrays = {}
for d in devices:
    with cuda.gpus[d]:
        arrays[d] = cuda.to_device(host)
        affine[(n + 255) // 256, 256](arrays[d], 2.0, float(d))
for d in devices:
    np.testing.assert_allclose(arrays[d].copy_to_host(), 2 * host + d)  # read back from any device's thread state
    cuda.select_device(d)
    affine[(n + 255) // 256, 256](arrays[d], 1.0, 1.0)
    np.testing.assert_allclose(arrays[d].copy_to_host(), 2 * host + d + 1)
cuda.select_device(0)

errors = []


def worker(d):
    try:
        with cuda.gpus[d]:
            x = cuda.to_device(host)
            for _ in range(10):
                affine[(n + 255) // 256, 256](x, 1.0, 1.0)
            np.testing.assert_allclose(x.copy_to_host(), host + 10)
    except BaseException as e:
        errors.append(e)


threads = [threading.Thread(target=worker, args=(d,)) for d in devices * 2]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors

if len(devices) > 1:
    with cuda.gpus[1]:
        far = cuda.to_device(host)
    near = cuda.device_array_like(far)
    near.copy_to_device(far)  # a peer copy
    np.testing.assert_array_equal(near.copy_to_host(), host)
    if cuda.current_context().can_access_peer(1):
        affine[(n + 255) // 256, 256](far, 3.0, 0.0)  # device 0 writes device 1's memory
        np.testing.assert_allclose(far.copy_to_host(), 3 * host)
    else:
        try:
            affine[(n + 255) // 256, 256](far, 3.0, 0.0)
            raise AssertionError("an array of device 1 was used without peer access")
        except ValueError as e:
            assert "cannot access the memory of device 1" in str(e), e

cuda.close()
for d in devices:
    with cuda.gpus[d]:
        x = cuda.to_device(host)
        affine[(n + 255) // 256, 256](x, 0.0, 5.0)
        np.testing.assert_array_equal(x.copy_to_host(), np.full(n, 5.0))
print("several gpus ok (%d device(s))" % len(devices))
