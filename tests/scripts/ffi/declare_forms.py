# cuda.declare_device: every signature form (strings with CPointer, arrays and
# void; signature objects), .name and .sig, the symbol used verbatim while the
# Python name differs, every declaration error with its exact type and
# message, and the TypeError of a host call.
# stdout: declare forms ok
import io

from numba import cuda, types

# String signatures.
f = cuda.declare_device("ffi_fma3", "float32(float32, float32, float32)")
assert f.name == "ffi_fma3"
assert f.sig.return_type == types.float32, f.sig
assert f.sig.args == (types.float32, types.float32, types.float32), f.sig.args
p = cuda.declare_device("ffi_sum", "float32(CPointer(float32), int32)")
assert p.sig.args[0] == types.CPointer(types.float32), p.sig.args
assert p.sig.args[1] == types.int32
v = cuda.declare_device("ffi_store_c", "void(CPointer(int32), int32, int32)", abi="c")
assert v.sig.return_type == types.void, v.sig
a = cuda.declare_device("takes_array", "int32(float32[:])")
assert str(a.sig.args[0]) == "array(float32, 1d, A)", str(a.sig.args[0])
a2 = cuda.declare_device("takes_c_array", "float64(float64[:, ::1], int64)")
assert str(a2.sig.args[0]) == "array(float64, 2d, C)", str(a2.sig.args[0])
assert a2.sig.return_type == types.float64

# Signature objects.
s = cuda.declare_device("ffi_store_numba", types.void(types.CPointer(types.int32), types.int32))
assert s.sig.return_type == types.void and s.sig.args == (types.CPointer(types.int32), types.int32), s.sig
s2 = cuda.declare_device("ffi_hypot2", types.float64(types.float64, types.float64), abi="c")
assert s2.sig.args == (types.float64, types.float64)

# The symbol is used verbatim (mangled C++ names included); the Python name can differ.
mangled = cuda.declare_device("_Z6squaref", "float32(float32)", abi="c")
assert mangled.name == "_Z6squaref"
square = mangled
assert square.name == "_Z6squaref"

# Declaration errors: exact types and messages.
def expect(exc, message, *args, exact=False, **kw):
    try:
        cuda.declare_device(*args, **kw)
    except exc as e:
        if exact:
            assert str(e) == message, (message, str(e))
        else:
            assert message in str(e), (message, str(e))
        assert type(e) is exc, (exc, type(e))
        return
    raise AssertionError("declare_device%r accepted" % (args,))


RT = "Return type must be provided for device declarations"
expect(TypeError, RT, "g", "int32", exact=True)
expect(TypeError, RT, "g", "(int32, float32)", exact=True)
expect(TypeError, RT, "g", (types.int32, types.float32), exact=True)
expect(NameError, "float33", "g", "float33(int32)")
expect(NameError, "not_a_type", "g", "int32(not_a_type)")
expect(SyntaxError, "", "g", "int32(int32")
expect(SyntaxError, "", "g", "int32((int32)")
expect(TypeError, "invalid signature", "g", 42)
expect(TypeError, "invalid signature", "g", None)
expect(TypeError, "invalid signature", "g", [types.int32])
expect(NotImplementedError, "Unsupported ABI: cpp", "g", "int32(int32)", abi="cpp", exact=True)
expect(NotImplementedError, "Unsupported ABI: C", "g", "int32(int32)", abi="C", exact=True)
expect(TypeError, "Expected path to file or a LinkableCode object", "g", "int32(int32)", link=[3])
expect(TypeError, "Expected path to file or a LinkableCode object", "g", "int32(int32)", link=[object()])
expect(TypeError, "Expected path to file or a LinkableCode object", "g", "int32(int32)", link=3.5)

# Nothing is read at declaration: missing files and unknown extensions are fine here.
lazy = cuda.declare_device("lazy", "int32(int32)", link=["/no/such/file.cu", "weird.xyz", "noext"])
assert lazy.name == "lazy"

# Link forms: None, one item, list, tuple, set; a bare string is one item.
cuda.declare_device("l0", "int32(int32)", link=None)
cuda.declare_device("l1", "int32(int32)", link="only_one.cu")
cuda.declare_device("l2", "int32(int32)", link=("a.cu", cuda.PTXSource("// ptx", name="p.ptx")))
cuda.declare_device("l3", "int32(int32)", link={cuda.LTOIR(b"\x00"), cuda.Cubin(io.BytesIO(b"\x01"))})

# Host calls are a TypeError naming the function.
for fn, args in ((f, (1.0, 2.0, 3.0)), (v, (0, 1, 2)), (square, (2.0,))):
    try:
        fn(*args)
    except TypeError as e:
        assert "not callable" in str(e), str(e)
    else:
        raise AssertionError("host call of %s worked" % fn.name)
try:
    f(1.0, 2.0, 3.0)
except TypeError as e:
    assert str(e) == "'ffi_fma3' is a device function and is not callable from the host", str(e)
print("declare forms ok")
