"""numba.cuda.cgutils: helpers for code generation callbacks (llvmlite IR).

The helpers extension code uses most: struct proxies over StructModel values
(create_struct_proxy, with members read and written by name), allocas in the
entry block, packing and unpacking aggregates, null tests, loops and branch
hints. They build llvmlite IR for cuhost's data models (cuda/_ext/llvm_types.py);
llvmlite is imported when they are used.
"""
import contextlib as _contextlib

from ._ext.llvm_types import abi_size_align, data_type, value_type
from ._missing import missing as _missing
from .models import StructModel


def _ir():
    # Lazy: llvmlite is optional, needed only by extension code generation.
    from llvmlite import ir

    return ir


class _LazyConstants:
    """llvmlite constants (true_bit, int32_t, ...) made on first use."""

    _MAKERS = {
        "bool_t": lambda ir: ir.IntType(1),
        "int8_t": lambda ir: ir.IntType(8),
        "int16_t": lambda ir: ir.IntType(16),
        "int32_t": lambda ir: ir.IntType(32),
        "int64_t": lambda ir: ir.IntType(64),
        "intp_t": lambda ir: ir.IntType(64),
        "voidptr_t": lambda ir: ir.IntType(8).as_pointer(),
        "true_bit": lambda ir: ir.Constant(ir.IntType(1), 1),
        "false_bit": lambda ir: ir.Constant(ir.IntType(1), 0),
        "true_byte": lambda ir: ir.Constant(ir.IntType(8), 1),
        "false_byte": lambda ir: ir.Constant(ir.IntType(8), 0),
    }


def __getattr__(name):
    maker = _LazyConstants._MAKERS.get(name)
    if maker is None:
        raise AttributeError("module 'numba.cuda.cgutils' has no attribute %r" % (name,))
    value = maker(_ir())
    globals()[name] = value
    return value


MACHINE_BITS = 64


def get_null_value(ltype):
    return _ir().Constant(ltype, None)


def is_null(builder, val):
    return builder.icmp_unsigned("==", get_null_value(val.type), val)


def is_not_null(builder, val):
    return builder.icmp_unsigned("!=", get_null_value(val.type), val)


def is_pointer(ltyp):
    return isinstance(ltyp, _ir().PointerType)


def is_scalar_zero(builder, value):
    ir = _ir()
    if isinstance(value.type, (ir.FloatType, ir.DoubleType, ir.HalfType)):
        return builder.fcmp_ordered("==", value, ir.Constant(value.type, 0))
    return builder.icmp_unsigned("==", value, ir.Constant(value.type, 0))


def is_not_scalar_zero(builder, value):
    ir = _ir()
    if isinstance(value.type, (ir.FloatType, ir.DoubleType, ir.HalfType)):
        return builder.fcmp_unordered("!=", value, ir.Constant(value.type, 0))
    return builder.icmp_unsigned("!=", value, ir.Constant(value.type, 0))


def alloca_once(builder, ty, size=None, name="", zfill=False):
    """An alloca of `ty` in the entry block (zero-filled here when `zfill`)."""
    with builder.goto_entry_block():
        ptr = builder.alloca(ty, size=size, name=name)
    if zfill:
        builder.store(get_null_value(ty), ptr)
    return ptr


def alloca_once_value(builder, value, name="", zfill=False):
    ptr = alloca_once(builder, value.type, name=name, zfill=zfill)
    builder.store(value, ptr)
    return ptr


def get_or_insert_function(module, fnty, name):
    """The function `name` of `module`, declared with `fnty` if absent."""
    fn = module.globals.get(name, None)
    if fn is None:
        fn = _ir().Function(module, fnty, name)
    return fn


def insert_pure_function(module, fnty, name):
    fn = get_or_insert_function(module, fnty, name)
    fn.attributes.add("readonly")
    fn.attributes.add("nounwind")
    return fn


def pack_array(builder, values, ty=None):
    """An LLVM array holding `values`."""
    ir = _ir()
    n = len(values)
    if ty is None:
        ty = values[0].type
    ary = ir.ArrayType(ty, n)(ir.Undefined)
    for i, v in enumerate(values):
        ary = builder.insert_value(ary, v, i)
    return ary


def pack_struct(builder, values):
    """A literal struct holding `values`."""
    ir = _ir()
    st = ir.LiteralStructType([v.type for v in values])(ir.Undefined)
    for i, v in enumerate(values):
        st = builder.insert_value(st, v, i)
    return st


def unpack_tuple(builder, tup, count=None):
    """The elements of an aggregate value (the first `count`)."""
    if count is None:
        count = len(tup.type.elements)
    return [builder.extract_value(tup, i) for i in range(count)]


def gep(builder, ptr, *inds, **kws):
    ir = _ir()
    idx = [ir.Constant(ir.IntType(32), i) if isinstance(i, int) else i for i in inds]
    return builder.gep(ptr, idx, name=kws.get("name", ""), inbounds=kws.get("inbounds", False))


def gep_inbounds(builder, ptr, *inds, **kws):
    return gep(builder, ptr, *inds, inbounds=True, **kws)


def increment_index(builder, val):
    one = _ir().Constant(val.type, 1)
    return builder.add(val, one, flags=["nsw"])


@_contextlib.contextmanager
def if_likely(builder, pred):
    with builder.if_then(pred, likely=True):
        yield


@_contextlib.contextmanager
def if_unlikely(builder, pred):
    with builder.if_then(pred, likely=False):
        yield


@_contextlib.contextmanager
def ifnot(builder, pred):
    with builder.if_then(builder.not_(pred)):
        yield


class _Loop:
    def __init__(self, index, do_break):
        self.index = index
        self.do_break = do_break


@_contextlib.contextmanager
def for_range(builder, count, start=None, intp=None):
    """for index in range(start, count): the body is the `with` block (yields a loop with .index)."""
    ir = _ir()
    if intp is None:
        intp = count.type
    if start is None:
        start = ir.Constant(intp, 0)
    stop = count
    bbcond = builder.append_basic_block("for.cond")
    bbbody = builder.append_basic_block("for.body")
    bbend = builder.append_basic_block("for.end")

    def do_break():
        builder.branch(bbend)

    bbstart = builder.block
    builder.branch(bbcond)
    with builder.goto_block(bbcond):
        index = builder.phi(intp, name="loop.index")
        pred = builder.icmp_signed("<", index, stop)
        builder.cbranch(pred, bbbody, bbend)
    with builder.goto_block(bbbody):
        yield _Loop(index, do_break)
        bbbody = builder.block
        incr = increment_index(builder, index)
        builder.branch(bbcond)
    index.add_incoming(start, bbstart)
    index.add_incoming(incr, bbbody)
    builder.position_at_end(bbend)


class _StructProxy:
    """A StructModel value in an alloca: members read and written by name or index."""

    _fe_type = None
    _kind = "value"

    def __init__(self, context, builder, value=None, ref=None):
        self._context = context
        self._builder = builder
        self._datamodel = context.data_model_manager[self._fe_type]
        if not isinstance(self._datamodel, StructModel):
            raise TypeError(f"Not a structure model: {self._datamodel}")
        self._be_type = (self._datamodel.get_value_type() if self._kind == "value"
                         else self._datamodel.get_data_type())
        if ref is None:
            self._value = alloca_once(builder, self._be_type, zfill=True)
            if value is not None:
                if value.type != self._be_type:
                    raise TypeError("bad value type: expected %s, got %s" % (self._be_type, value.type))
                builder.store(value, self._value)
        else:
            self._value = ref
        self._outer_ref = self._value

    def _ptr(self, index):
        return gep_inbounds(self._builder, self._value, 0, index)

    def __getattr__(self, field):
        if field.startswith("_"):
            raise AttributeError(field)
        return self[self._datamodel.get_field_position(field)]

    def __setattr__(self, field, value):
        if field.startswith("_"):
            return object.__setattr__(self, field, value)
        self[self._datamodel.get_field_position(field)] = value

    def __getitem__(self, index):
        return self._builder.load(self._ptr(index))

    def __setitem__(self, index, value):
        ptr = self._ptr(index)
        if ptr.type.pointee != value.type:
            raise TypeError(f"Invalid store of {value.type} to {ptr.type.pointee} in {self._datamodel} "
                            f"(trying to write member #{index})")
        self._builder.store(value, ptr)

    def __len__(self):
        return self._datamodel.field_count

    def _getpointer(self):
        return self._outer_ref

    def _getvalue(self):
        return self._builder.load(self._value)

    def _setvalue(self, value):
        self._builder.store(value, self._value)


def create_struct_proxy(fe_type, kind="value"):
    """A class whose instances (context, builder, value=None, ref=None) wrap a
    value of `fe_type` (a StructModel type) with members as attributes."""
    return type("StructProxy_%s" % (fe_type,), (_StructProxy,), {"_fe_type": fe_type, "_kind": kind})


class _ArrayProxy:
    """An array value ({data, shape, strides}) with numba's field names."""

    _fe_type = None

    def __init__(self, context, builder, value=None, ref=None):
        self._context = context
        self._builder = builder
        self._be_type = value_type(self._fe_type)
        if ref is not None:
            self._ref = ref
        else:
            self._ref = alloca_once(builder, self._be_type, zfill=True)
            if value is not None:
                builder.store(value, self._ref)

    def _field(self, i):
        return gep_inbounds(self._builder, self._ref, 0, i)

    @property
    def data(self):
        return self._builder.load(self._field(0))

    @data.setter
    def data(self, v):
        self._builder.store(v, self._field(0))

    @property
    def shape(self):
        return self._builder.load(self._field(1))

    @shape.setter
    def shape(self, v):
        self._builder.store(v, self._field(1))

    @property
    def strides(self):
        return self._builder.load(self._field(2))

    @strides.setter
    def strides(self, v):
        self._builder.store(v, self._field(2))

    @property
    def itemsize(self):
        ir = _ir()
        return ir.Constant(ir.IntType(64), abi_size_align(data_type(self._fe_type.dtype))[0])

    @property
    def nitems(self):
        ir = _ir()
        n = ir.Constant(ir.IntType(64), 1)
        shape = self.shape
        for i in range(self._fe_type.ndim):
            n = self._builder.mul(n, self._builder.extract_value(shape, i))
        return n

    def _getvalue(self):
        return self._builder.load(self._ref)

    def _getpointer(self):
        return self._ref


def array_proxy(fe_type):
    """context.make_array(array type): a proxy class over cuhost's array values."""
    return type("ArrayProxy_%s" % (fe_type,), (_ArrayProxy,), {"_fe_type": fe_type})


class _ComplexProxy:
    _fe_type = None

    def __init__(self, context, builder, value=None):
        self._builder = builder
        self._ref = alloca_once(builder, value_type(self._fe_type), zfill=True)
        if value is not None:
            builder.store(value, self._ref)

    @property
    def real(self):
        return self._builder.load(gep_inbounds(self._builder, self._ref, 0, 0))

    @real.setter
    def real(self, v):
        self._builder.store(v, gep_inbounds(self._builder, self._ref, 0, 0))

    @property
    def imag(self):
        return self._builder.load(gep_inbounds(self._builder, self._ref, 0, 1))

    @imag.setter
    def imag(self, v):
        self._builder.store(v, gep_inbounds(self._builder, self._ref, 0, 1))

    def _getvalue(self):
        return self._builder.load(self._ref)


def complex_proxy(fe_type):
    return type("ComplexProxy_%s" % (fe_type,), (_ComplexProxy,), {"_fe_type": fe_type})


_missing(globals(), """
    printf snprintf cbranch_or_continue memcpy raw_memcpy memset memset_padding global_constant
    make_bytearray add_global_variable for_range_slice loop_nest cgutils_printf dump_value guard_null
    guard_memory_error muladd_with_overflow is_nonelike
""")
