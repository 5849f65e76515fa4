# On a GPU every link kind runs: .ptx .cubin .fatbin .o .a .ltoir built at
# build time (tests/ffi_data.cmake, found under cuhost.share_dir()), by path
# and as LinkableCode objects (bytes, BytesIO, PTX as str and StringIO),
# with lto=True, False and None. Results checked against NumPy.
# backends: cuda
# stdout: gpu link kinds ok
import io
import os

import numpy as np
from numba import cuda
import cuhost

DATA = os.path.join(cuhost.share_dir(), "tests", "ffi")
FILES = {"ptx": "kind_ptx.ptx", "cubin": "kind_cubin.cubin", "fatbin": "kind_fatbin.fatbin",
         "object": "kind_object.o", "archive": "kind_archive.a", "ltoir": "kind_ltoir.ltoir"}
# kind_<k>.cu: numba ABI x * (i + 2) + i, C ABI x - i, for i = 1..6 in this order.
ORDER = ["ptx", "cubin", "fatbin", "object", "archive", "ltoir"]
CLASSES = {"ptx": cuda.PTXSource, "cubin": cuda.Cubin, "fatbin": cuda.Fatbin, "object": cuda.Object,
           "archive": cuda.Archive, "ltoir": cuda.LTOIR}
rng = np.random.default_rng(17)
xs = rng.integers(-1000, 1000, 256).astype(np.int32)


def check(kind, link_numba, link_c, lto):
    i = ORDER.index(kind) + 1
    fn = cuda.declare_device("ffi_kind_" + kind, "int32(int32)", link=link_numba)
    fc = cuda.declare_device("ffi_kind_%s_c" % kind, "int32(int32)", link=link_c, abi="c")

    @cuda.jit(lto=lto)
    def k(out, xs):
        j = cuda.grid(1)
        if j < xs.size:
            out[j, 0] = fn(xs[j])
            out[j, 1] = fc(xs[j])

    out = np.zeros((xs.size, 2), np.int32)
    k[2, 128](out, xs)
    np.testing.assert_array_equal(out[:, 0], xs * (i + 2) + i, err_msg="%s lto=%s" % (kind, lto))
    np.testing.assert_array_equal(out[:, 1], xs - i, err_msg="%s lto=%s" % (kind, lto))


for kind, name in FILES.items():
    path = os.path.join(DATA, name)
    assert os.path.isfile(path), path
    data = open(path, "rb").read()
    for lto in (None, False, True):
        check(kind, path, path if lto is None else [path], lto)     # by path (the same item twice: linked once)
    item = CLASSES[kind](data, name=name)
    check(kind, item, item, None)                                 # one in-memory object shared
    check(kind, cuda.LinkableCode.from_path(path), None, False)   # C function reached through the other item
    check(kind, CLASSES[kind](io.BytesIO(data), name=name), None, True)
ptx_text = open(os.path.join(DATA, FILES["ptx"])).read()
check("ptx", cuda.PTXSource(ptx_text), None, None)                # PTX given as str
check("ptx", cuda.PTXSource(io.StringIO(ptx_text), name="s.ptx"), None, False)


# All six in one kernel.
decls = [cuda.declare_device("ffi_kind_" + k, "int32(int32)", link=os.path.join(DATA, FILES[k])) for k in ORDER]
a, b, c, d, e, f = decls


@cuda.jit
def all_kinds(out, xs):
    j = cuda.grid(1)
    if j < xs.size:
        out[j] = a(xs[j]) + b(xs[j]) + c(xs[j]) + d(xs[j]) + e(xs[j]) + f(xs[j])


out = np.zeros(xs.size, np.int32)
all_kinds[2, 128](out, xs)
np.testing.assert_array_equal(out, sum(xs * (i + 2) + i for i in range(1, 7)))
print("gpu link kinds ok")
