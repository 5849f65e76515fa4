# numba-cuda code replaces the driver's synchronous copy entry points
# (driver.cuMemcpyHtoD / cuMemcpyDtoH) to watch or forbid host<->device
# transfers: cuhost's copies (to_device, copy_to_host, setitem from host
# data, numba's host_to_device/device_to_host, a kernel's host arrays) call
# the replacement with (dst, src, bytes) instead of copying, and the driver's
# own function takes over again when it is put back or the attribute deleted.
# stdout: driver copy overrides ok
import _cuhost
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.driver import CudaAPIError, device_to_host, driver, host_to_device

rng = np.random.default_rng(11)
a = rng.standard_normal(144)
d = cuda.to_device(a)
old_htod, old_dtoh = driver.cuMemcpyHtoD, driver.cuMemcpyDtoH
seen = []


def counting_htod(dst, src, size):
    seen.append(("htod", size))
    old_htod(dst, src, size)


def counting_dtoh(dst, src, size):
    seen.append(("dtoh", size))
    old_dtoh(dst, src, size)


def forbidden(*args):
    raise CudaAPIError(999, "Transfer not allowed")


driver.cuMemcpyHtoD, driver.cuMemcpyDtoH = counting_htod, counting_dtoh
b = rng.standard_normal(100).astype(np.float32)
db = cuda.to_device(b)
assert seen == [("htod", 400)], seen
np.testing.assert_array_equal(db.copy_to_host(), b)
assert seen[1:] == [("dtoh", 400)], seen
host = np.empty(25, np.float32)
device_to_host(host, db[50:75], 100)
np.testing.assert_array_equal(host, b[50:75])
host_to_device(db, np.zeros(100, np.float32), 400)
assert seen[2:] == [("dtoh", 100), ("htod", 400)], seen


@cuda.jit
def twice(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2


twice[2, 128](d)  # device data: no transfer
assert len(seen) == 4, seen
# A kernel's host arrays travel through the same entry points on a GPU (there
# and back); the CPU backend's kernels use them in place.
for _ in range(2):  # the first launch and the staged ones after it
    host_arr = a.copy()
    twice[2, 128](host_arr)
    np.testing.assert_array_equal(host_arr, a * 2)
    kinds = [k for k, _ in seen[4:]]
    assert kinds == (["htod", "dtoh"] if _cuhost.backend() == "cuda" else []), seen
    del seen[4:]



# A replacement copies synchronously, as numba's entry points do: a copy back
# reads what a kernel still running writes only once the kernel is done (a
# kernel of milliseconds, its host array staged, then a device array).
@cuda.jit
def mix(x, reps):
    i = cuda.grid(1)
    if i < x.size:
        acc = x[i]
        for _ in range(reps):
            acc = (acc * 3 + x[i]) % 1000003
        x[i] = acc


def mixed(x, reps):
    acc = x.copy()
    for _ in range(reps):
        acc = (acc * 3 + x) % 1000003
    return acc


reps = 1 << 16
ints = rng.integers(0, 1000003, 144)
for _ in range(2):
    staged = ints.copy()
    mix[2, 128](staged, reps)
    np.testing.assert_array_equal(staged, mixed(ints, reps))
dints = cuda.to_device(ints)
mix[2, 128](dints, reps)
np.testing.assert_array_equal(dints.copy_to_host(), mixed(ints, reps))
del seen[4:]

driver.cuMemcpyHtoD = driver.cuMemcpyDtoH = forbidden
for attempt in (d.copy_to_host, lambda: cuda.to_device([1]), lambda: np.asarray(d)):
    try:
        attempt()
        raise AssertionError("a transfer ran")
    except CudaAPIError as e:
        assert "Transfer not allowed" in str(e), e

driver.cuMemcpyHtoD, driver.cuMemcpyDtoH = old_htod, old_dtoh
np.testing.assert_array_equal(d.copy_to_host(), a * 2)
driver.cuMemcpyDtoH = forbidden
del driver.cuMemcpyDtoH
np.testing.assert_array_equal(d.copy_to_host(), a * 2)
np.testing.assert_array_equal(cuda.to_device(b).copy_to_host(), b)
print("driver copy overrides ok")
