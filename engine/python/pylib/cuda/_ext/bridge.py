"""What the engine calls (engine/python/extension_api.cpp), with the GIL held,
while it types a kernel.

Types arrive as _cuhost.TypeHandles and literal arguments as 1-tuples of their values
(None for non-literal arguments); the answers are the tuples the engine
reads (see extension_api.cpp). Answers are cached per call shape, so typing
a kernel to its fixed point runs each typing function and code generation
callback once.
"""
from .. import types
from .._type_spelling import from_handle
from . import codegen, registry, resolve

_cache = {}
_generation = [registry.generation]


def extension_name(obj):
    """How messages name `obj` when the extension API types its calls; None when it does not."""
    if not registry.candidates_of(obj):
        return None
    return repr(obj)


def _handle(t):
    return types._handle(t)


def _answer(impl):
    if isinstance(impl, resolve.DeviceImpl):
        return ("device", impl.dispatcher, impl.binding)
    if isinstance(impl, resolve.CodegenImpl):
        ir_text, entry, internal = codegen.run(impl.impl, impl.sig, impl.style, impl.name, impl.attr)
        return ("codegen", _handle(impl.sig.return_type), tuple(_handle(a) for a in impl.sig.args), impl.order,
                ir_text, entry, internal)
    if isinstance(impl, resolve.MemberImpl):
        return ("member", impl.index, _handle(impl.type))
    if isinstance(impl, resolve.MethodImpl):
        return ("method",)
    raise AssertionError("unexpected implementation %r" % (impl,))


def _call_args(arg_handles, keywords, literals):
    return resolve.CallArgs([from_handle(h) for h in arg_handles], keywords, literals)


def _cached(key, compute):
    if _generation[0] != registry.generation:
        _cache.clear()
        _generation[0] = registry.generation
    try:
        hit = _cache[key]
    except TypeError:  # an unhashable literal
        return compute()
    except KeyError:
        hit = _cache[key] = compute()
    return hit


def _for_target(host, compute):
    """compute() with the target being compiled for: the host (numba.njit) or CUDA."""
    with registry.compiling_for("cpu" if host else "cuda"):
        return compute()


def resolve_call(obj, arg_handles, keywords, literals, host=0):
    key = ("call", host, id(obj), arg_handles, keywords, literals)
    return _cached(key, lambda: _for_target(host, lambda: _answer(
        resolve.resolve_call(obj, _call_args(arg_handles, keywords, literals)))))


def resolve_attribute(base_handle, attr, host=0):
    key = ("attr", host, base_handle, attr)

    def compute():
        impl = resolve.resolve_attribute(from_handle(base_handle), attr)
        return None if impl is None else _answer(impl)

    return _cached(key, lambda: _for_target(host, compute))


def resolve_method(receiver_handle, name, arg_handles, keywords, literals, host=0):
    key = ("method", host, receiver_handle, name, arg_handles, keywords, literals)

    def compute():
        call = _call_args(arg_handles, keywords, literals)
        return _answer(resolve.resolve_method(from_handle(receiver_handle), name, call))

    return _cached(key, lambda: _for_target(host, compute))


def forget():
    """Drops cached answers (registrations changed)."""
    _cache.clear()
