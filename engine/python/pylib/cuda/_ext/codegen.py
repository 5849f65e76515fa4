"""Running code generation callbacks (lower_builtin, lower_getattr,
@intrinsic's codegen) into LLVM IR the engine links into kernels.

Each callback gets an llvmlite IRBuilder positioned in a fresh function
whose parameters are the LLVM values of the signature's arguments (the
engine's data model, llvm_types.py) and returns the result value; the module
holding that one function goes to the engine as text. `context` offers what
numba's target context offers such code most often (get_value_type,
get_constant, cast, make_tuple, compile_internal, make_helper, ...).
compile_internal(builder, func, sig, args) compiles `func` for `sig` with
cuhost's own compiler: the IR calls a placeholder that the engine routes to
the compiled device function; compile_subroutine and call_internal do the
same in two steps.
"""
import itertools as _itertools

from .. import types
from ..cgutils import array_proxy, complex_proxy, create_struct_proxy
from ..core.callconv import CUDACallConv
from ..core.errors import LoweringError
from ..models import default_manager
from . import llvm_types
from .resolve import jit_impl, typing_context

_names = _itertools.count()


def _ir():
    try:
        # Lazy: llvmlite is optional, needed only by extension code generation.
        from llvmlite import ir
    except ImportError:
        raise NotImplementedError("code generation callbacks of the extension API (lower_builtin, @intrinsic, ...) "
                                  "need llvmlite's `llvmlite.ir` package (Debian: python3-llvmlite)") from None
    return ir


class _CodeLibrary:
    """numba's code library as callbacks see it: linking files in is not supported."""

    def add_linking_file(self, obj):
        raise NotImplementedError("context.active_code_library.add_linking_file() is not implemented in cuhost: "
                                  "declare the foreign function with cuda.declare_device(..., link=...) instead")

    def add_ir_module(self, module):
        raise NotImplementedError("context.active_code_library.add_ir_module() is not implemented in cuhost")


class CodegenContext:
    """What code generation callbacks get as `context` (numba's CUDATargetContext, in part)."""

    def __init__(self, module):
        self.module = module
        self.internal_calls = []  # (placeholder, dispatcher, argument TypeHandles, return TypeHandle)
        self.data_model_manager = default_manager
        self.typing_context = typing_context
        self.active_code_library = _CodeLibrary()
        self.enable_nrt = False
        self.fastmath = False

    # ---- types ----
    def get_value_type(self, ty):
        return llvm_types.value_type(ty)

    def get_data_type(self, ty):
        return llvm_types.data_type(ty)

    def get_argument_type(self, ty):
        return llvm_types.value_type(ty)

    def get_return_type(self, ty):
        return llvm_types.value_type(ty)

    def get_abi_sizeof(self, llty):
        return llvm_types.abi_size_align(llty)[0]

    def get_abi_alignment(self, llty):
        return llvm_types.abi_size_align(llty)[1]

    # ---- constants ----
    def get_constant(self, ty, val):
        ir = _ir()
        lt = self.get_value_type(ty)
        if isinstance(ty, types.Boolean):
            return ir.Constant(lt, int(bool(val)))
        if isinstance(ty, types.Integer):
            return ir.Constant(lt, int(val))
        if isinstance(ty, (types.Float,)):
            return ir.Constant(lt, float(val))
        if isinstance(ty, types.Complex):
            return ir.Constant(lt, [ir.Constant(lt.elements[0], complex(val).real),
                                    ir.Constant(lt.elements[1], complex(val).imag)])
        if isinstance(ty, types.BaseTuple):
            return ir.Constant(lt, [self.get_constant(t, v) for t, v in zip(ty.types, val)])
        raise NotImplementedError("context.get_constant() of a %s value is not implemented in cuhost" % (ty,))

    def get_constant_generic(self, builder, ty, val):
        return self.get_constant(ty, val)

    def get_constant_null(self, ty):
        return _ir().Constant(self.get_value_type(ty), None)

    def get_constant_undef(self, ty):
        return _ir().Constant(self.get_value_type(ty), _ir().Undefined)

    def get_dummy_value(self):
        return _ir().Constant(_ir().IntType(8).as_pointer(), None)

    def get_dummy_type(self):
        return _ir().IntType(8).as_pointer()

    # ---- values ----
    def get_value_as_data(self, builder, ty, value):
        if isinstance(ty, types.Boolean):
            return builder.zext(value, _ir().IntType(8))
        return value

    def get_data_as_value(self, builder, ty, value):
        if isinstance(ty, types.Boolean):
            return builder.icmp_unsigned("!=", value, _ir().Constant(value.type, 0))
        return value

    def unpack_value(self, builder, ty, ptr, align=None):
        return self.get_data_as_value(builder, ty, builder.load(ptr, align=align))

    def pack_value(self, builder, ty, value, ptr, align=None):
        builder.store(self.get_value_as_data(builder, ty, value), ptr, align=align)

    def make_tuple(self, builder, typ, values):
        ir = _ir()
        tup = ir.Constant(self.get_value_type(typ), ir.Undefined)
        for i, v in enumerate(values):
            tup = builder.insert_value(tup, v, i)
        return tup

    def is_true(self, builder, typ, val):
        ir = _ir()
        if isinstance(typ, types.Boolean):
            return val
        if isinstance(typ, types.Integer):
            return builder.icmp_unsigned("!=", val, ir.Constant(val.type, 0))
        if isinstance(typ, types.Float):
            return builder.fcmp_unordered("!=", val, ir.Constant(val.type, 0.0))
        raise NotImplementedError("context.is_true() of a %s value is not implemented in cuhost" % (typ,))

    def cast(self, builder, val, fromty, toty):
        """numba's numeric casts between booleans, integers and floats."""
        ir = _ir()
        fromty, toty = types.unliteral(fromty), types.unliteral(toty)
        if fromty == toty:
            return val
        lt = self.get_value_type(toty)
        if isinstance(toty, types.Boolean):
            return self.is_true(builder, fromty, val)
        if isinstance(fromty, types.Boolean):
            fromty = types.uint8
            val = builder.zext(val, ir.IntType(8))
        if isinstance(fromty, types.Integer) and isinstance(toty, types.Integer):
            if toty.bitwidth > fromty.bitwidth:
                return builder.sext(val, lt) if fromty.signed else builder.zext(val, lt)
            if toty.bitwidth < fromty.bitwidth:
                return builder.trunc(val, lt)
            return val
        if isinstance(fromty, types.Integer) and isinstance(toty, types.Float):
            return builder.sitofp(val, lt) if fromty.signed else builder.uitofp(val, lt)
        if isinstance(fromty, types.Float) and isinstance(toty, types.Integer):
            return builder.fptosi(val, lt) if toty.signed else builder.fptoui(val, lt)
        if isinstance(fromty, types.Float) and isinstance(toty, types.Float):
            if toty.bitwidth > fromty.bitwidth:
                return builder.fpext(val, lt)
            return builder.fptrunc(val, lt)
        raise NotImplementedError("context.cast() from %s to %s is not implemented in cuhost" % (fromty, toty))

    # ---- helpers built on models ----
    def make_helper(self, builder, typ, value=None, ref=None):
        return create_struct_proxy(typ)(self, builder, value=value, ref=ref)

    def make_array(self, typ):
        return array_proxy(typ)

    def make_complex(self, builder, typ, value=None):
        return complex_proxy(typ)(self, builder, value)

    def add_linking_libs(self, libs):
        self.active_code_library.add_linking_file(libs)

    # ---- calls into cuhost-compiled Python ----
    def compile_internal(self, builder, impl, sig, args, locals=None):
        """Calls `impl` compiled as a device function for `sig`."""
        if locals:
            raise NotImplementedError("compile_internal(..., locals=...) is not implemented in cuhost")
        return self._call_compiled(builder, jit_impl(impl), sig, args)

    def compile_subroutine(self, builder, impl, sig, locals=None, flags=None, caching=True):
        """Compiles `impl` (a Python function or a cuda.jit device function)
        for `sig` with numba's ABI; call_internal(builder, result.fndesc,
        sig, args) calls it. Compilation itself happens when the engine links
        the callback's IR."""
        if locals:
            raise NotImplementedError("compile_subroutine(..., locals=...) is not implemented in cuhost")
        if flags is not None:
            raise NotImplementedError("compile_subroutine(..., flags=...) is not implemented in cuhost")
        fndesc = _FunctionDescriptor(jit_impl(impl), sig, CUDACallConv(self))
        return _Subroutine(fndesc, sig)

    def call_internal(self, builder, fndesc, sig, args):
        """Calls a function compile_subroutine compiled (its result's fndesc)."""
        if not isinstance(fndesc, _FunctionDescriptor):
            raise NotImplementedError("context.call_internal() in cuhost calls the fndesc of a "
                                      "context.compile_subroutine() result only")
        return self._call_compiled(builder, fndesc.dispatcher, sig, args)

    def _call_compiled(self, builder, disp, sig, args):
        # The IR calls a placeholder the engine routes to `disp` compiled for sig's argument types.
        ir = _ir()
        ret = sig.return_type
        void = isinstance(ret, types.NoneType)
        fnty = ir.FunctionType(ir.VoidType() if void else self.get_value_type(ret),
                               [self.get_value_type(a) for a in sig.args])
        name = "__cuhost_internal_%d" % next(_names)
        fn = ir.Function(self.module, fnty, name=name)
        self.internal_calls.append((name, disp, tuple(types._handle(a) for a in sig.args),
                                    types._handle(ret)))
        return builder.call(fn, list(args))

    def get_function(self, fn, sig):
        raise NotImplementedError("context.get_function() is not implemented in cuhost: compile the operation with "
                                  "context.compile_internal(builder, lambda ...: ..., sig, args)")


class _FunctionDescriptor:
    """numba's FunctionDescriptor as compile_subroutine's callers read it:
    the calling convention, the signature and names of the compiled function."""

    def __init__(self, dispatcher, sig, call_conv):
        self.dispatcher = dispatcher
        self.call_conv = call_conv
        self.restype = sig.return_type
        self.argtypes = tuple(sig.args)
        self.qualname = getattr(dispatcher, "__qualname__", getattr(dispatcher, "__name__", "?"))
        self.mangled_name = self.qualname


class _Subroutine:
    """compile_subroutine's result (numba's CompileResult, as far as it is read)."""

    def __init__(self, fndesc, sig):
        self.fndesc = fndesc
        self.signature = sig
        self.typing_error = None


def run(impl, sig, style, name, attr=None):
    """Runs a code generation callback for `sig`: (IR text, function name, internal calls)."""
    ir = _ir()
    module = ir.Module(name="cuhost_extension")
    ret = sig.return_type
    void = isinstance(ret, types.NoneType)
    fnty = ir.FunctionType(ir.VoidType() if void else llvm_types.value_type(ret),
                           [llvm_types.value_type(a) for a in sig.args])
    entry = "__cuhost_extension_%d" % next(_names)
    fn = ir.Function(module, fnty, name=entry)
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    context = CodegenContext(module)
    args = list(fn.args)
    if style == "call":
        result = impl(context, builder, sig, args)
    elif style == "getattr":
        result = impl(context, builder, sig.args[0], args[0])
    else:
        result = impl(context, builder, sig.args[0], args[0], attr)
    if builder.block.is_terminated:
        raise LoweringError("the implementation of %s ended its code with a terminator" % (name,))
    if void:
        builder.ret_void()
    else:
        if result is None:
            raise LoweringError("non-void function returns None from implementation of %s" % (name,))
        if result.type != fnty.return_type:
            raise LoweringError("the implementation of %s returned a value of LLVM type %s where %s returns %s"
                                % (name, result.type, ret, fnty.return_type))
        builder.ret(result)
    return str(module), entry, tuple(context.internal_calls)
