# cuda.declare_device: attributes, every signature error of FFI.md, ABI check,
# link item checks, and host calls.
# stdout: declare_device checked
import io

from numba import cuda
from numba.cuda import types

f = cuda.declare_device("mul_f32", "float32(float32, int32)")
assert f.name == "mul_f32"
assert f.sig.return_type == types.float32 and f.sig.args == (types.float32, types.int32), f.sig
g = cuda.declare_device("fill", types.void(types.CPointer(types.int32)), abi="c")
assert g.sig.args == (types.CPointer(types.int32),) and g.abi == "c", g.sig
h = cuda.declare_device("sum_arr", "int32(float32[:])", link=["a.cu", cuda.PTXSource(".version 8.0", name="x.ptx")])
assert h._link_count == 2
h2 = cuda.declare_device("h2", "int32(int32)", link="only.ptx")  # a bare string is one item, not characters
assert h2._link_count == 1
h3 = cuda.declare_device("h3", "int32(int32)", link={cuda.LTOIR(b"x"), cuda.Cubin(io.BytesIO(b"y"))})
assert h3._link_count == 2


def raises(exc, text, *args, **kw):
    try:
        cuda.declare_device(*args, **kw)
    except exc as e:
        assert text in str(e), (text, str(e))
        return
    raise AssertionError("expected %s for %r" % (exc.__name__, args))


raises(TypeError, "Return type must be provided for device declarations", "f", "float32")
raises(TypeError, "Return type must be provided for device declarations", "f", "(float32, int32)")
raises(NameError, "float33", "f", "float33(int32)")
raises(SyntaxError, "", "f", "float32(int32")
raises(TypeError, "invalid signature", "f", 5)
raises(TypeError, "invalid signature", "f", object())
raises(NotImplementedError, "Unsupported ABI: cpp", "f", "int32(int32)", abi="cpp")
raises(TypeError, "Expected path to file or a LinkableCode object", "f", "int32(int32)", link=[1.5])

try:
    f(1.0, 2)
    raise AssertionError("host call worked")
except TypeError as e:
    assert str(e) == "'mul_f32' is a device function and is not callable from the host", str(e)

# Plugins name their functions "plugin.function" and may bring a host implementation.
p = cuda.declare_device("tiny_add", "int32(int32, int32)", python_name="tinylib.add",
                        cpu_link=[cuda.CUSource("int x;", name="host.cu")])
try:
    p(1, 2)
    raise AssertionError("host call worked")
except TypeError as e:
    assert str(e) == "'tinylib.add' is a device function and is not callable from the host", str(e)
p.__doc__ = "adds"
assert p.__doc__ == "adds" and p.name == "tiny_add"

try:
    cuda.PTXSource(b"x", setup_callback=3)
    raise AssertionError("non-callable callback accepted")
except TypeError:
    pass
try:
    cuda.LinkableCode.from_path("lib.xyz")
    raise AssertionError("unknown extension accepted")
except ValueError as e:
    assert ".xyz" in str(e)
print("declare_device checked")
