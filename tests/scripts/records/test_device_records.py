# Device records: an element of a device record array is a DeviceRecord whose
# fields read back and write through to device memory (nested records and
# array fields included); cuda.to_device(record) makes one, and a kernel
# given one works on the device copy by reference. Checked against the same
# updates made with NumPy on random data.
# stdout: device records ok
import numpy as np
from numba import cuda
from numba.cuda.cudadrv.devicearray import DeviceRecord, auto_device, from_record_like

rng = np.random.default_rng(7)
inner = np.dtype([("i", np.int32), ("j", np.float32, (3, 3))])
rec = np.dtype([("x", np.float64), ("y", inner), ("z", np.int16, 4)], align=True)
host = np.zeros(6, rec)
host["x"] = rng.standard_normal(6)
host["y"]["i"] = rng.integers(-9, 9, 6)
host["y"]["j"] = rng.standard_normal((6, 3, 3))
host["z"] = rng.integers(-99, 99, (6, 4))
d = cuda.to_device(host)

r = d[2]
assert isinstance(r, DeviceRecord) and r.dtype == rec
assert r["x"] == host[2]["x"] and r["y"]["i"] == host[2]["y"]["i"]
np.testing.assert_array_equal(r["z"].copy_to_host(), host[2]["z"])
r["x"] = 4.5
r["y"]["i"] = 77
r["y"]["j"][1, 2] = -3.25
expect = host.copy()
expect[2]["x"] = 4.5
expect[2]["y"]["i"] = 77
expect[2]["y"]["j"][1, 2] = -3.25
assert (d.copy_to_host() == expect).all()


@cuda.jit
def bump(rc, k):
    rc.x = rc.x * k
    rc.y.i += 1
    rc.z[3] = rc.y.i


dr = cuda.to_device(host[4])
assert isinstance(dr, DeviceRecord)
bump[1, 1](dr, 3.0)
got = dr.copy_to_host()
e = host[4].copy()
e["x"] *= 3.0
e["y"]["i"] += 1
e["z"][3] = e["y"]["i"]
assert got == e, (got, e)

# copy_to_host into a scalar taken from an array writes the array.
target = np.zeros(2, rec)
dr.copy_to_host(target[1])
assert target[1] == e and target[0] == np.zeros(1, rec)[0]
dev2, made = auto_device(host[0])
assert made and dev2.copy_to_host() == host[0]
assert from_record_like(dev2).dtype == rec
print("device records ok")
