"""numba.cuda.core.bytecode: a function's decoded CPython bytecode.

cuhost compiles kernels from their source, not their bytecode, so nothing in
the engine reads this module. It exists because numba-cuda exposes bytecode
analysis as a public tool (its control-flow graph of a Python function,
core/controlflow.py, is built from it), and code written against numba-cuda
uses `FunctionIdentity` and `ByteCode` to inspect ordinary Python functions.

Decoding is CPython's own (`dis`): an instruction's `arg` is the raw oparg
(EXTENDED_ARG folded in), jump targets are byte offsets, and inline CACHE
entries are skipped.
"""

import dis
import inspect
import itertools
import sys

from . import errors

__all__ = ["FunctionIdentity", "ByteCode", "ByteCodeInst", "get_function_object", "get_code_object"]

# Opcodes that end a block with no successor inside the function.
_TERMINATORS = frozenset({"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"})

# Jumps that always go to their target (no fall-through).
_UNCONDITIONAL_JUMPS = frozenset({
    "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP",
    "JUMP_NO_INTERRUPT",
})

_JUMP_OPCODES = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


def get_function_object(obj):
    """The plain Python function behind `obj` (a dispatcher's `py_func`, or `obj`)."""
    return getattr(obj, "py_func", None) or getattr(obj, "__wrapped__", None) or obj


def get_code_object(obj):
    """The code object of a function (None when it has none)."""
    return getattr(obj, "__code__", getattr(obj, "func_code", None))


def _fix_LOAD_GLOBAL_arg(arg):
    """The co_names index of a LOAD_GLOBAL's oparg (3.11+ keeps a flag in bit 0)."""
    return arg >> 1 if sys.version_info >= (3, 11) else arg


class ByteCodeInst:
    """One instruction: offset, opcode, name, raw argument, next offset, line."""

    __slots__ = ("offset", "next", "opcode", "opname", "arg", "lineno", "_target")

    def __init__(self, offset, opcode, arg, nextoffset, target=None, lineno=-1):
        self.offset = offset
        self.next = nextoffset
        self.opcode = opcode
        self.opname = dis.opname[opcode]
        self.arg = arg
        self.lineno = lineno
        self._target = target

    @property
    def is_jump(self):
        return self.opcode in _JUMP_OPCODES

    @property
    def is_unconditional_jump(self):
        return self.opname in _UNCONDITIONAL_JUMPS

    @property
    def is_terminator(self):
        return self.opname in _TERMINATORS

    def get_jump_target(self):
        """The byte offset this jump goes to."""
        if not self.is_jump:
            raise ValueError("%s is not a jump" % self.opname)
        return self._target

    def __repr__(self):
        return "%s(arg=%s, lineno=%d)" % (self.opname, self.arg, self.lineno)


class ByteCode:
    """The decoded bytecode of a function, indexed by offset."""

    def __init__(self, func_id):
        code = func_id.code
        self.func_id = func_id
        self.co_names = code.co_names
        self.co_varnames = code.co_varnames
        self.co_consts = code.co_consts
        self.co_cellvars = code.co_cellvars
        self.co_freevars = code.co_freevars

        instructions = list(dis.get_instructions(code))
        self.table = {}
        lineno = code.co_firstlineno
        for inst, following in zip(instructions, [*instructions[1:], None]):
            if inst.starts_line is not None and not isinstance(inst.starts_line, bool):
                lineno = inst.starts_line
            elif getattr(inst, "line_number", None) is not None:
                lineno = inst.line_number
            nextoffset = following.offset if following is not None else inst.offset + 2
            target = inst.argval if inst.opcode in _JUMP_OPCODES else None
            self.table[inst.offset] = ByteCodeInst(inst.offset, inst.opcode, inst.arg, nextoffset, target, lineno)

        labels = {0}
        labels.update(inst.get_jump_target() for inst in self.table.values() if inst.is_jump)
        self.labels = sorted(labels)
        self.exception_entries = tuple(dis.Bytecode(code).exception_entries) \
            if hasattr(dis.Bytecode, "exception_entries") else ()

    def __iter__(self):
        return iter(self.table.values())

    def __getitem__(self, offset):
        return self.table[offset]

    def __contains__(self, offset):
        return offset in self.table

    def find_exception_entry(self, offset):
        """The innermost exception-table entry that covers `offset` (or None)."""
        covering = [e for e in self.exception_entries if e.start <= offset < e.end]
        return max(covering, key=lambda e: e.depth) if covering else None

    def get_used_globals(self):
        """The globals (by name) that the function reads, with their current values."""
        func = self.func_id.func
        used = {}
        for inst in self:
            if inst.opname == "LOAD_GLOBAL":
                name = self.co_names[_fix_LOAD_GLOBAL_arg(inst.arg)]
                if name in func.__globals__:
                    used[name] = func.__globals__[name]
        return used

    def dump(self):
        labels = set(self.labels)
        return "\n".join("%s %5d\t%r" % (">" if inst.offset in labels else " ", inst.offset, inst)
                         for inst in self)


class FunctionIdentity:
    """A function's identity and metadata (name, code, module, signature)."""

    _unique_ids = itertools.count(1)

    @classmethod
    def from_function(cls, pyfunc):
        func = get_function_object(pyfunc)
        code = get_code_object(func)
        if not code:
            raise errors.ByteCodeSupportError("%s does not provide its bytecode" % func)
        pysig = inspect.signature(func)
        self = cls()
        self.func = func
        self.func_qualname = getattr(func, "__qualname__", func.__name__)
        self.func_name = self.func_qualname.split(".")[-1]
        self.code = code
        self.module = inspect.getmodule(func)
        self.modname = "<dynamic>" if self.module is None else self.module.__name__
        self.is_generator = inspect.isgeneratorfunction(func)
        self.pysig = pysig
        self.filename = code.co_filename
        self.firstlineno = code.co_firstlineno
        self.arg_count = len(pysig.parameters)
        self.arg_names = list(pysig.parameters)
        self.unique_id = next(cls._unique_ids)
        self.unique_name = "%s$%d" % (self.func_qualname, self.unique_id)
        return self

    def derive(self):
        """A new identity of the same function (a fresh unique id)."""
        return self.from_function(self.func)
