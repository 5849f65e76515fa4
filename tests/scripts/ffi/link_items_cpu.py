# Link items on the CPU backend: .cu sources by path (relative to the working
# directory or absolute) and as CUSource with bytes, str, StringIO and BytesIO
# data run; GPU-only kinds (.ptx .cubin .fatbin .a .o .ltoir, by path or as
# LinkableCode) give the documented NotImplementedError naming the function
# and the item; unknown, wrong-case or missing extensions give an error naming
# the extension; a missing file is LinkerError and FileNotFoundError
# "<path> not found".
# Errors surface when the kernel links, not at declaration.
# backends: cpu
# stdout: link items cpu ok
import io
import os
import shutil
import tempfile

import _cuhost
import numpy as np
from numba import cuda

LinkerError = _cuhost.LinkerError

HERE = os.path.dirname(os.path.abspath(__file__))
CU = os.path.join(HERE, "cu", "ops.cu")
SRC = open(CU).read()
tmp = tempfile.mkdtemp()


def launch(link, jit_link=None):
    f = cuda.declare_device("ffi_iadd", "int32(int32, int32)", link=link)
    options = {} if jit_link is None else {"link": jit_link}

    @cuda.jit(**options)
    def k(out, a, b):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = f(a[i], b[i])

    rng = np.random.default_rng(len(str(link)))
    a = rng.integers(-9999, 9999, 64).astype(np.int32)
    b = rng.integers(-9999, 9999, 64).astype(np.int32)
    out = np.zeros(64, np.int32)
    k[1, 64](out, a, b)
    np.testing.assert_array_equal(out, a + b)


def fails(exc, fragments, link):
    try:
        launch(link)
    except exc as e:
        assert type(e) is exc, (exc, type(e), str(e))
        for frag in fragments:
            assert frag in str(e), (frag, str(e))
        return e
    raise AssertionError("linking %r worked" % (link,))


# .cu by absolute path, by a path relative to the working directory (the script's folder), in memory.
launch(CU)
launch(os.path.join("cu", "ops.cu"))
launch(cuda.CUSource(SRC, name="ops_str.cu"))
launch(cuda.CUSource(SRC.encode(), name="ops_bytes.cu"))
launch(cuda.CUSource(io.StringIO(SRC)))
launch(cuda.CUSource(io.BytesIO(SRC.encode()), name="ops_bytesio.cu"))
launch(cuda.LinkableCode.from_path(CU))

# GPU-only kinds cannot run on the CPU: by path (files that exist) and in memory.
for ext in (".ptx", ".cubin", ".fatbin", ".a", ".o", ".ltoir"):
    path = os.path.join(tmp, "lib" + ext)
    with open(path, "wb") as f:
        f.write(b"\x00not really\x00")
    fails(NotImplementedError, ["foreign function 'ffi_iadd' cannot run on the CPU backend", path,
                                "ships only GPU code (%s)" % ext], path)
for cls, ext in ((cuda.PTXSource, ".ptx"), (cuda.Cubin, ".cubin"), (cuda.Fatbin, ".fatbin"),
                 (cuda.Archive, ".a"), (cuda.Object, ".o"), (cuda.LTOIR, ".ltoir")):
    fails(NotImplementedError, ["cannot run on the CPU backend", "(%s)" % ext], cls(b"\x00", name="mem" + ext))

# Extensions are case-sensitive; unknown and missing extensions are named.
upper = os.path.join(tmp, "OPS.CU")
shutil.copy(CU, upper)
fails(LinkerError, ["extension .CU", upper], upper)
noext = os.path.join(tmp, "opsfile")
shutil.copy(CU, noext)
fails(LinkerError, ["no extension", noext], noext)
weird = os.path.join(tmp, "ops.cuh")
shutil.copy(CU, weird)
fails(LinkerError, ["extension .cuh"], weird)

# A missing file is "<path> not found", of any kind, as on the GPU: an error
# that is both numba-cuda's LinkerError and FileNotFoundError.
for name in ("missing.cu", "missing.ltoir", "missing.a"):
    path = os.path.join(tmp, name)
    e = fails(_cuhost.LinkFileNotFoundError, [path + " not found"], path)
    assert isinstance(e, FileNotFoundError) and isinstance(e, LinkerError), type(e).__mro__

# LinkableCode.from_path picks the class by extension.
for ext, cls in ((".ptx", cuda.PTXSource), (".cubin", cuda.Cubin), (".fatbin", cuda.Fatbin), (".a", cuda.Archive),
                 (".o", cuda.Object), (".ltoir", cuda.LTOIR), (".cu", cuda.CUSource)):
    path = os.path.join(tmp, "from_path" + ext)
    with open(path, "wb") as f:
        f.write(b"payload" + ext.encode())
    item = cuda.LinkableCode.from_path(path)
    assert type(item) is cls, (ext, type(item))
    assert item.name == "from_path" + ext and item.data == b"payload" + ext.encode(), (item.name, item.data)
try:
    cuda.LinkableCode.from_path(os.path.join(tmp, "x.PTX"))
except Exception as e:
    assert ".PTX" in str(e), str(e)
else:
    raise AssertionError("from_path accepted .PTX")
try:
    cuda.LinkableCode.from_path(os.path.join(tmp, "absent.ptx"))
except FileNotFoundError as e:
    assert "absent.ptx not found" in str(e), str(e)
else:
    raise AssertionError("from_path of a missing file worked")

# Callbacks must be callable; data must be bytes, str or a StringIO/BytesIO.
for kw in ({"setup_callback": 1}, {"teardown_callback": "no"}):
    try:
        cuda.CUSource(SRC, **kw)
    except TypeError:
        pass
    else:
        raise AssertionError("non-callable callback accepted: %r" % kw)
cuda.CUSource(SRC, setup_callback=lambda m: None, teardown_callback=print)
try:
    cuda.PTXSource(12345)
except TypeError:
    pass
else:
    raise AssertionError("int data accepted")

# Wrong item types: TypeError at declaration and in @cuda.jit(link=...).
for bad in ([1], 2.5, [cuda.CUSource(SRC), None]):
    for make in (lambda: cuda.declare_device("g", "int32(int32)", link=bad),
                 lambda: cuda.jit(link=bad)(lambda x: None)):
        try:
            make()
        except TypeError as e:
            assert "Expected path to file or a LinkableCode object" in str(e), str(e)
        else:
            raise AssertionError("link item %r accepted" % (bad,))
print("link items cpu ok")
