"""numba.cuda.utils: small pure-Python helpers numba-cuda code imports.

Only the helpers that are plain data or plain Python are here (written for
cuhost); the ones tied to numba's compiler are placeholders.
"""
import atexit as _atexit
import functools as _functools
import operator as _operator
import os as _os
import traceback as _traceback

from . import config as _config
from ._missing import missing as _missing

PYVERSION = _config.PYVERSION
MACHINE_BITS = _config.MACHINE_BITS


def _readenv(name, ctor, default):
    """The environment variable `name` converted by `ctor` (bool: "1"/"true"),
    else `default` (called when callable); warns and falls back on a bad value."""
    return _config._convert(name, _os.environ.get(name), ctor, default)


@_functools.cache
def cached_file_read(filepath, how="r"):
    """The contents of a file, read once per process."""
    with open(filepath, how) as f:
        return f.read()


def erase_traceback(exc_value):
    """`exc_value` without its traceback (frames keep large objects alive)."""
    if exc_value.__traceback__ is not None:
        _traceback.clear_frames(exc_value.__traceback__)
    return exc_value.with_traceback(None)


def safe_relpath(path, start=_os.curdir):
    """os.path.relpath that returns `path` itself where no relative path exists."""
    try:
        return _os.path.relpath(path, start)
    except ValueError:
        return path


def bit_length(intval):
    """Bits needed to hold `intval` in two's complement (numba's rule)."""
    assert isinstance(intval, int)
    if intval >= 0:
        return len(bin(intval)) - 2
    return len(bin(-intval - 1)) - 2


_shutting_down = False


@_atexit.register
def _at_shutdown():
    global _shutting_down
    _shutting_down = True


def shutting_down(globals=globals):
    """True once the interpreter is exiting."""
    return globals()["_shutting_down"] is True


BINOPS_TO_OPERATORS = {
    "+": _operator.add, "-": _operator.sub, "*": _operator.mul, "//": _operator.floordiv, "/": _operator.truediv,
    "%": _operator.mod, "**": _operator.pow, "&": _operator.and_, "|": _operator.or_, "^": _operator.xor,
    "<<": _operator.lshift, ">>": _operator.rshift, "==": _operator.eq, "!=": _operator.ne, "<": _operator.lt,
    "<=": _operator.le, ">": _operator.gt, ">=": _operator.ge, "is": _operator.is_, "is not": _operator.is_not,
    "in": _operator.contains, "@": _operator.matmul,
}
INPLACE_BINOPS_TO_OPERATORS = {
    "+=": _operator.iadd, "-=": _operator.isub, "*=": _operator.imul, "//=": _operator.ifloordiv,
    "/=": _operator.itruediv, "%=": _operator.imod, "**=": _operator.ipow, "&=": _operator.iand,
    "|=": _operator.ior, "^=": _operator.ixor, "<<=": _operator.ilshift, ">>=": _operator.irshift,
    "@=": _operator.imatmul,
}
ALL_BINOPS_TO_OPERATORS = {**BINOPS_TO_OPERATORS, **INPLACE_BINOPS_TO_OPERATORS}
UNARY_BUILTINS_TO_OPERATORS = {"+": _operator.pos, "-": _operator.neg, "~": _operator.invert,
                               "not": _operator.not_}
OPERATORS_TO_BUILTINS = {op: sym for sym, op in {**ALL_BINOPS_TO_OPERATORS, **UNARY_BUILTINS_TO_OPERATORS}.items()}

_missing(globals(), """
    ThreadLocalStack ConfigOptions order_by_target_specificity UniqueDict runonce stream_list BenchmarkResult
    format_time benchmark chain_exception get_nargs_range unified_function_type redirect_numba_module
    get_hashable_key threadsafe_cached_property dump_llvm numba_target_override
""")
