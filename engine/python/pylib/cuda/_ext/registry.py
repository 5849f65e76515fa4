"""Every registration of the extension API, in one place.

numba keeps registrations in per-module registries that a target installs;
in cuhost every registry object feeds these tables at once (there is one
target). Typing (resolve.py) reads them:

- callables: for each Python object kernels may call (an @overload'ed
  function, an @intrinsic, a class given type_callable, a typing template's
  key, a register_jitable function), its candidates, tried in order;
- attributes and methods: candidates keyed by a type class (every instance
  matches) or a type instance (equal types match);
- lowering: implementations of calls, attributes, casts and constants keyed
  by a function (or a string key) and formal argument types.
"""
import builtins
import cmath
import contextlib as _contextlib
import inspect as _inspect
import math
import operator
import threading as _threading

import numpy

import _cuhost

from .. import types

# Targets an implementation applies to on this target, most specific first.
TARGETS = ("cuda", "gpu", "generic")

_compiling = _threading.local()  # .target: "cuda" (kernels, device functions) or "cpu" (numba.njit)


@_contextlib.contextmanager
def compiling_for(target):
    """Typing in this scope is for `target` ("cuda" or "cpu"): target_rank follows it."""
    previous = getattr(_compiling, "target", "cuda")
    _compiling.target = target
    try:
        yield
    finally:
        _compiling.target = previous


def target_rank(target):
    """0 for implementations specific to the target being compiled for (CUDA,
    or the CPU for numba.njit), 1 for generic ones, None for other targets."""
    target = target or "generic"
    if target == "generic":
        return 1
    if getattr(_compiling, "target", "cuda") == "cpu":
        return 0 if target == "cpu" else None
    if target in ("cuda", "gpu"):
        return 0
    return None


class _Entry:
    def __init__(self, obj):
        self.obj = obj
        self.candidates = []


# Bumped by every registration: answers cached by the bridge are dropped then.
generation = 0

_callables = {}  # id(obj) -> _Entry (which keeps obj alive)
_attributes = []  # (key, name or None, candidate): None = any attribute (generic_resolve)
_lower_calls = []  # (key, formal argument types, impl, varargs)
_lower_getattrs = []  # (type key, attribute or None, impl)
_lower_setattrs = []  # (type key, attribute or None, impl)
_lower_casts = []  # (from key, to key, impl)
_lower_constants = []  # (type key, impl)


def _changed():
    global generation
    generation += 1


def add_callable(obj, candidate):
    _changed()
    entry = _callables.get(id(obj))
    if entry is None or entry.obj is not obj:
        entry = _callables[id(obj)] = _Entry(obj)
    entry.candidates.append(candidate)
    key = builtin_key(obj)
    if key is not None:
        # The engine types cuhost's builtins itself; it asks for these
        # overloads when an operand is of an extension type.
        _cuhost._register_builtin_extension(key, obj)


def builtin_key(obj):
    """The engine's key of one of cuhost's builtins ("operator.add", "builtins.len", "math.sqrt"), or None."""

    name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        return None
    for module in (operator, builtins, math, cmath):
        if getattr(module, name, None) is obj:
            return "%s.%s" % (module.__name__, name)
    return "numpy." + name if getattr(numpy, name, None) is obj else None


def candidates_of(obj):
    entry = _callables.get(id(obj))
    if entry is None or entry.obj is not obj:
        return []
    return entry.candidates


def add_attribute(key, name, candidate):
    _changed()
    _attributes.append((key, name, candidate))


def key_matches(key, ty):
    """A registration key (a type class, a type instance, or a tuple of those) matches `ty`."""

    if isinstance(key, tuple):
        return any(key_matches(k, ty) for k in key)
    if _inspect.isclass(key):
        return isinstance(ty, key)
    if isinstance(key, types.Type):
        return key == ty
    return False


def attribute_candidates(ty, name):
    """Candidates for `ty.name`, the latest registration first."""
    return [c for key, n, c in reversed(_attributes) if (n is None or n == name) and key_matches(key, ty)]


def add_lower_call(key, formals, impl):
    _changed()
    formals = tuple(formals)
    varargs = None
    if formals and isinstance(formals[-1], types.VarArg):
        varargs = formals[-1].dtype
        formals = formals[:-1]
    _lower_calls.append((key, formals, impl, varargs))


def _formal_score(formal, actual):
    """2 for an exact match, 1 for a class or 'any' match, None for none."""

    if formal is types.Any or formal is object:
        return 1
    if _inspect.isclass(formal):
        return 1 if isinstance(actual, formal) else None
    if isinstance(formal, types.Type):
        if formal == actual:
            return 2
        # numba matches a non-literal formal against a literal actual's type.
        if isinstance(actual, types.Literal) and formal == actual.literal_type:
            return 2
        return None
    return 2 if formal == actual else None


def _same_key(a, b):
    return a is b or (isinstance(a, str) and a == b)


def find_lower_call(key, actuals):
    """The implementation registered for calling `key` with argument types `actuals`, or None."""
    best, best_score = None, -1
    for k, formals, impl, varargs in _lower_calls:
        if not _same_key(k, key):
            continue
        if len(actuals) < len(formals) or (varargs is None and len(actuals) != len(formals)):
            continue
        score = 0
        for i, a in enumerate(actuals):
            f = formals[i] if i < len(formals) else varargs
            s = _formal_score(f, a)
            if s is None:
                break
            score += s
        else:
            if score >= best_score:  # ties: the latest registration
                best, best_score = impl, score
    return best


def add_lower_getattr(key, attr, impl):
    _changed()
    _lower_getattrs.append((key, attr, impl))


def find_lower_getattr(ty, attr):
    for key, a, impl in reversed(_lower_getattrs):
        if a == attr and key_matches(key, ty):
            return impl, False
    for key, a, impl in reversed(_lower_getattrs):
        if a is None and key_matches(key, ty):
            return impl, True
    return None, False


def add_lower_setattr(key, attr, impl):
    _changed()
    _lower_setattrs.append((key, attr, impl))


def add_lower_cast(fromty, toty, impl):
    _changed()
    _lower_casts.append((fromty, toty, impl))


def add_lower_constant(ty, impl):
    _changed()
    _lower_constants.append((ty, impl))
