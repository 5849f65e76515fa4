"""Matching calls, attributes and methods to implementations (numba's
function templates and their resolution).

A call's argument types are tried against each candidate of the callee
(registry.py), CUDA-specific ones before generic ones; each candidate is
tried with plain types and, when that fails and some arguments are literals,
with Literal types (or the other way round for prefer_literal). The first
that matches gives the implementation:

- DeviceImpl: a Python function compiled as a device function, and for each
  of its parameters the argument it takes (an index) or its default (a
  1-tuple holding the value);
- CodegenImpl: a signature and a code generation callback (codegen.py);
- MemberImpl: a StructModel member of an extension type.

When none matches, the TypingError lists every candidate and why it failed,
in numba's format ("No implementation of function ... found for signature").
"""
import inspect as _inspect
import types as _pytypes

import _cuhost

from .. import compiler, types
from ..core.errors import InternalError, LoweringError, TypingError
from . import registry


class DeviceImpl:
    def __init__(self, dispatcher, binding):
        self.dispatcher = dispatcher
        self.binding = tuple(binding)


class CodegenImpl:
    """sig: the signature the code is generated for; order: which argument
    each of sig.args is; style: how `impl` is called ("call": (context,
    builder, sig, args), "getattr": (context, builder, typ, value),
    "getattr_generic": (context, builder, typ, value, attr))."""

    def __init__(self, sig, order, impl, style, name, attr=None):
        self.sig = sig
        self.order = tuple(order)
        self.impl = impl
        self.style = style
        self.name = name
        self.attr = attr


class MemberImpl:
    def __init__(self, index, type):
        self.index = index
        self.type = type


class MethodImpl:
    """The attribute is a method: its calls resolve through resolve_method."""


# ---- the arguments of a call -------------------------------------------------

def _literal_type(value):
    if isinstance(value, (bool, int, str)):
        return types.literal(value)
    return None


class CallArgs:
    """Argument types of a call: positional ones, then keyword ones (`kwnames`)."""

    def __init__(self, arg_types, kwnames, literals):
        self.types = tuple(arg_types)
        self.kwnames = tuple(kwnames)
        self.literals = tuple(literals)
        self.npos = len(self.types) - len(self.kwnames)

    def has_literals(self):
        return any(lit is not None and _literal_type(lit[0]) is not None for lit in self.literals)

    def typed(self, literal):
        """(positional types, {keyword: type}), with Literal types for literal arguments if `literal`."""
        out = []
        for t, lit in zip(self.types, self.literals):
            lt = _literal_type(lit[0]) if literal and lit is not None else None
            out.append(lt if lt is not None else t)
        return tuple(out[:self.npos]), dict(zip(self.kwnames, out[self.npos:]))

    def describe(self, literal=False):
        args, kws = self.typed(literal)
        return ", ".join([str(a) for a in args] + ["%s=%s" % (k, v) for k, v in kws.items()])


class TypingContext:
    """What typing functions get as `context` / `typingctx`."""

    def unify_types(self, *tys):
        first = tys[0] if tys else None
        return first if all(t == first for t in tys) else None

    def unify_pairs(self, a, b):
        return self.unify_types(a, b)

    def can_convert(self, fromty, toty):
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from .conversions import can_convert

        return can_convert(self, fromty, toty)

    def resolve_overload(self, key, cases, args, kws, allow_ambiguous=True, unsafe_casting=True,
                         exact_match_required=False):
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from .conversions import resolve_overload

        assert not kws, "Keyword arguments are not supported, yet"
        return resolve_overload(self, key, cases, args, allow_ambiguous, unsafe_casting, exact_match_required)

    def resolve_value_type(self, val):
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from ..typing.typeof import typeof

        return typeof(val)

    def refresh(self):
        pass


typing_context = TypingContext()


# ---- implementations compiled as device functions ------------------------------

_impls = {}  # id(pyfunc) -> (pyfunc, options, dispatcher)


def jit_impl(pyfunc, jit_options=None, inline=None):
    """The device-function dispatcher compiling `pyfunc` (one per function)."""

    if isinstance(pyfunc, _cuhost.Dispatcher):
        return pyfunc

    options = {k: v for k, v in (jit_options or {}).items() if k in compiler._KNOWN_OPTIONS and k != "device"}
    if inline in ("always", True):
        options["inline"] = True
    key = (id(pyfunc), tuple(sorted(options.items())))
    hit = _impls.get(key)
    if hit is not None and hit[0] is pyfunc:
        return hit[1]
    disp = compiler.jit(device=True, **options)(pyfunc)
    _impls[key] = (pyfunc, disp)
    return disp


def bind_call(pyfunc, call, receiver=False):
    """For each parameter of `pyfunc`: the index of the argument it takes,
    (default,), or for *args the list of the arguments it packs."""
    sig = _inspect.signature(pyfunc)
    params = list(sig.parameters.values())
    for p in params:
        if p.kind == p.VAR_KEYWORD:
            raise NotImplementedError("the implementation %s takes **kwargs, which cuhost does not support"
                                      % _name_of(pyfunc))
    if any(p.kind == p.VAR_POSITIONAL for p in params[:-1]):
        raise NotImplementedError("the implementation %s takes keyword-only parameters after *args, which cuhost "
                                  "does not support" % _name_of(pyfunc))
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = any(p.kind == p.VAR_POSITIONAL for p in params)
    if call.npos > len(positional) and not star:
        raise TypingError("%s() takes %d positional arguments but %d were given"
                          % (_name_of(pyfunc), len(positional), call.npos))
    binding = []
    used = set()
    for i, p in enumerate(params):
        if p.kind == p.VAR_POSITIONAL:
            # *args (the last parameter): a list of the remaining positional
            # arguments, which the call packs into one tuple.
            binding.append(list(range(len(positional), call.npos)))
        elif i < call.npos and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            binding.append(i)
        elif p.name in call.kwnames and p.kind != p.POSITIONAL_ONLY:
            binding.append(call.npos + call.kwnames.index(p.name))
            used.add(p.name)
        elif p.default is not p.empty:
            binding.append((p.default,))
        else:
            raise TypingError("%s() missing required argument '%s'" % (_name_of(pyfunc), p.name))
    extra = [k for k in call.kwnames if k not in used]
    if extra:
        raise TypingError("%s() got an unexpected keyword argument '%s'" % (_name_of(pyfunc), extra[0]))
    return binding


def _name_of(obj):
    return getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)


def _source_info(fn):
    try:
        fn = _inspect.unwrap(fn)
        _lines, first = _inspect.getsourcelines(fn)
        path = _inspect.getsourcefile(fn) or "unknown"
        return path, first
    except (OSError, TypeError):
        return "unknown", "unknown"


# ---- numba's check that an @overload's typing and implementation signatures agree ----

def validate_signatures(typing_func, impl_func):
    typing_sig = _inspect.signature(typing_func)
    impl_sig = _inspect.signature(impl_func)

    def split(sig):
        args, kws, star = [], [], None
        for p in sig.parameters.values():
            if p.default is p.empty:
                args.append(p)
                if p.kind == p.VAR_POSITIONAL:
                    star = p
                elif p.kind == p.VAR_KEYWORD:
                    raise InternalError("The use of VAR_KEYWORD (e.g. **kwargs) is unsupported. "
                                        "(offending argument name is '%s')" % p)
            else:
                kws.append(p)
        return args, kws, star

    ty_args, ty_kws, ty_star = split(typing_sig)
    im_args, im_kws, im_star = split(impl_sig)
    sig_str = "Typing signature:         %s\nImplementation signature: %s" % (typing_sig, impl_sig)
    prefix = "Typing and implementation arguments differ in "
    a, b = ty_args, im_args
    if ty_star:
        if not im_star:
            raise InternalError("VAR_POSITIONAL (e.g. *args) argument kind (offending argument name is '%s') "
                                "found in the typing function signature, but is not in the implementing function "
                                "signature.\n%s" % (ty_star, sig_str))
    elif im_star:
        b = im_args[:im_args.index(im_star)]
        try:
            a = ty_args[:ty_args.index(b[-1]) + 1]
        except (ValueError, IndexError):
            raise InternalError(prefix + "argument names.\n%s\nFirst difference: '%s'"
                                % (sig_str, b[-1] if b else im_star)) from None

    def diff(x, y):
        return "Difference: %s" % (set(x) ^ set(y),)

    if a != b:
        raise InternalError(prefix + "argument names.\n%s\n%s" % (sig_str, diff(a, b)))
    if [p.name for p in ty_kws] != [p.name for p in im_kws]:
        raise InternalError(prefix + "keyword argument names.\n%s\n%s" % (sig_str, diff(ty_kws, im_kws)))
    if [p.default for p in ty_kws] != [p.default for p in im_kws]:
        raise InternalError(prefix + "keyword argument default values.\n%s\n%s" % (sig_str, diff(ty_kws, im_kws)))


def _bind_or_fail(func, args, kws):
    try:
        _inspect.signature(func).bind(*args, **kws)
    except TypeError as e:
        raise TypingError(str(e)) from e


# ---- candidates ---------------------------------------------------------------

class Candidate:
    kind = "overload"
    target = "generic"
    prefer_literal = False

    def describe(self):
        """(kind, name, file, line) for messages."""
        fn = self.source()
        path, line = _source_info(fn)
        return self.kind, _name_of(fn), path, line

    def source(self):
        return None


class OverloadCandidate(Candidate):
    """@overload(func): typing_func(*arg types) returns an implementation."""

    def __init__(self, typing_func, target="generic", prefer_literal=False, strict=True, inline="never",
                 jit_options=None, receiver=False):
        self.typing_func = typing_func
        self.target = target
        self.prefer_literal = prefer_literal
        self.strict = strict
        self.inline = inline
        self.jit_options = dict(jit_options or {})

    def source(self):
        return self.typing_func

    def resolve(self, call, literal):
        args, kws = call.typed(literal)
        _bind_or_fail(self.typing_func, args, kws)
        result = self.typing_func(*args, **kws)
        if result is None:
            return None
        if isinstance(result, tuple):  # (signature, implementation)
            result = result[1]

        if not isinstance(result, (_pytypes.FunctionType, _cuhost.Dispatcher)):
            raise AssertionError("Implementation function returned by `@overload` has an unexpected type.  "
                                 "Got %r" % (result,))
        if self.strict and isinstance(result, _pytypes.FunctionType):
            validate_signatures(self.typing_func, result)
        pyfunc = result.py_func if isinstance(result, _cuhost.Dispatcher) else result
        return DeviceImpl(jit_impl(result, self.jit_options, self.inline), bind_call(pyfunc, call))


class JitableCandidate(Candidate):
    """register_jitable(fn) and numba.njit(fn): the function itself, compiled for the device."""

    def __init__(self, pyfunc, jit_options=None):
        self.pyfunc = pyfunc
        self.jit_options = dict(jit_options or {})

    def source(self):
        return self.pyfunc

    def resolve(self, call, literal):
        if literal:
            return None
        return DeviceImpl(jit_impl(self.pyfunc, self.jit_options), bind_call(self.pyfunc, call))


def _fold_positional(func, args, kws, skip=0):
    """The order of arguments (indexes into positional then keyword ones) in
    `func`'s parameter order, skipping its first `skip` parameters."""
    if not kws:
        return list(range(len(args)))
    params = list(_inspect.signature(func).parameters)[skip:]
    order = list(range(len(args)))
    names = list(kws)
    for name in params[len(args):]:
        if name in kws:
            order.append(len(args) + names.index(name))
    if len(order) != len(args) + len(kws):
        raise TypingError("unsupported call signature")
    return order


def _lowering_for(key, sig, name):
    impl = registry.find_lower_call(key, sig.args)
    if impl is None:
        raise LoweringError("No definition for lowering %s(%s) -> %s"
                            % (name, ", ".join(str(a) for a in sig.args), sig.return_type))
    return impl


class IntrinsicCandidate(Candidate):
    """@intrinsic: defn(typingctx, *arg types) returns (signature, codegen)."""
    kind = "intrinsic"

    def __init__(self, intrinsic):
        self.intrinsic = intrinsic
        self.prefer_literal = intrinsic._prefer_literal

    @property
    def target(self):
        return self.intrinsic._target

    def source(self):
        return self.intrinsic._defn

    def resolve(self, call, literal):
        args, kws = call.typed(literal)
        defn = self.intrinsic._defn
        result = defn(typing_context, *args, **kws)
        if result is None:
            return None
        sig, codegen = result
        if not isinstance(sig, types.Signature):
            raise TypingError("the typing function of intrinsic %s returned %r, not a signature"
                              % (self.intrinsic.__name__, sig))
        order = _fold_positional(defn, args, kws, skip=1)
        if len(sig.args) != len(order):
            raise TypingError("the signature %s of intrinsic %s does not take %d arguments"
                              % (sig, self.intrinsic.__name__, len(order)))
        return CodegenImpl(sig, order, codegen, "call", self.intrinsic.__name__)


def _as_signature(result, args):
    if isinstance(result, types.Signature):
        return result
    if not isinstance(result, types.Type):
        raise TypeError("invalid return type for callable template: got %r" % (result,))
    return types.Signature(result, args)


class TypeCallableCandidate(Candidate):
    """type_callable(key): typing_func(context) returns typer(*arg types) -> return type or signature."""

    def __init__(self, key, typing_func):
        self.key = key
        self.typing_func = typing_func

    def source(self):
        return self.typing_func

    def resolve(self, call, literal):
        args, kws = call.typed(literal)
        typer = self.typing_func(typing_context)
        _bind_or_fail(typer, args, kws)
        result = typer(*args, **kws)
        if result is None:
            return None
        bound = _inspect.signature(typer).bind(*args, **kws)
        if bound.kwargs:
            raise TypingError("unsupported call signature")
        sig = _as_signature(result, bound.args)
        name = _name_of(self.key)
        return CodegenImpl(sig, _fold_positional(typer, args, kws), _lowering_for(self.key, sig, name), "call", name)


def _select_case(cases, args):
    """A ConcreteTemplate's case for these arguments: numba's resolve_overload
    (the best-rated case, the first declared among equals)."""
    # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
    from .conversions import resolve_overload

    return resolve_overload(typing_context, None, cases, [types.unliteral(a) for a in args])


class TemplateCandidate(Candidate):
    """A typing template class (ConcreteTemplate, AbstractTemplate, CallableTemplate) keyed by a callable."""
    kind = "template"

    def __init__(self, template):
        self.template = template
        self.prefer_literal = getattr(template, "prefer_literal", False)

    def source(self):
        return getattr(self.template, "generic", None) or self.template

    def describe(self):
        _kind, _name, path, line = super().describe()
        return "type restricted function", _name_of(self.template.key), path, line

    def resolve(self, call, literal):
        args, kws = call.typed(literal)
        inst = self.template(typing_context)
        # typing/templates.py's classes say how they are matched (select_*
        # below); any other template class is matched as an AbstractTemplate.
        select = getattr(inst, "_cuhost_select", None)
        sig, order = select(args, kws) if select is not None else select_generic(inst, args, kws)
        if sig is None:
            return None
        key = self.template.key
        name = _name_of(key)
        return CodegenImpl(sig, order, _lowering_for(key, sig, name), "call", name)


def select_generic(inst, args, kws):
    """An AbstractTemplate's (signature or None, argument order): generic(args, kws)."""
    order = list(range(len(args)))
    sig = inst.generic(args, kws)
    if kws and sig is not None:
        order = _fold_positional(inst.generic, args, kws)
    return sig, order


def select_concrete(inst, args, kws):
    """A ConcreteTemplate's (signature or None, argument order): the first of its cases that matches."""
    if kws:
        return None, None
    return _select_case(inst.cases, args), list(range(len(args)))


def select_callable(inst, args, kws):
    """A CallableTemplate's (signature or None, argument order): its typer called with the argument types."""
    typer = inst.generic()
    _bind_or_fail(typer, args, kws)
    result = typer(*args, **kws)
    sig = None if result is None else _as_signature(result, args)
    return sig, _fold_positional(typer, args, kws)


# ---- attributes and methods ---------------------------------------------------------

class AttributeWrapperCandidate(Candidate):
    """make_attribute_wrapper: `value.python_attr` reads the StructModel member `struct_attr`."""

    def __init__(self, struct_attr):
        self.struct_attr = struct_attr

    def resolve_attribute(self, ty, attr):
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from ..models import StructModel, default_manager

        model = default_manager.lookup(ty)
        if not isinstance(model, StructModel):
            raise TypingError("make_attribute_wrapper needs a StructModel; %s has %s"
                              % (ty, type(model).__name__))
        index = model.get_field_position(self.struct_attr)
        return MemberImpl(index, model.get_type(index))


class AttributeTemplateCandidate(Candidate):
    """An AttributeTemplate class: resolve_<attr>(ty) or generic_resolve(ty, attr) gives the type;
    lower_getattr gives the code."""

    def __init__(self, template):
        self.template = template

    def _resolver(self, ty, attr):
        inst = self.template(typing_context)
        fn = getattr(inst, "resolve_" + attr, None)
        if fn is not None:
            return fn(ty)
        generic = getattr(inst, "generic_resolve", NotImplemented)
        if generic is NotImplemented:
            return None
        return generic(ty, attr)

    def resolve_attribute(self, ty, attr):
        result = self._resolver(ty, attr)
        if result is None:
            return None
        if isinstance(result, types.BoundFunction):
            return MethodImpl()
        impl, generic = registry.find_lower_getattr(ty, attr)
        if impl is None:
            raise LoweringError("No definition for lowering %s.%s" % (ty, attr))
        return CodegenImpl(types.Signature(result, (ty,)), (0,), impl, "getattr_generic" if generic else "getattr",
                           "%s.%s" % (ty, attr), attr)

    def resolve_method(self, ty, attr, call, literal):
        result = self._resolver(ty, attr)
        if not isinstance(result, types.BoundFunction):
            return None
        args, kws = call.typed(literal)
        sig = result.template.generic_for(args[1:], kws)
        if sig is None:
            return None
        full = types.Signature(sig.return_type, (ty, *tuple(sig.args)))
        key = result.template.key
        return CodegenImpl(full, _fold_positional(lambda *a: None, args, kws),
                           _lowering_for(key, full, str(key)), "call", str(key))


class OverloadAttributeCandidate(Candidate):
    """@overload_attribute(Type, attr): typing_func(ty) returns impl(obj)."""

    def __init__(self, typing_func, target="generic", jit_options=None):
        self.typing_func = typing_func
        self.target = target
        self.jit_options = dict(jit_options or {})

    def source(self):
        return self.typing_func

    def resolve_attribute(self, ty, attr):
        result = self.typing_func(ty)
        if result is None:
            return None
        return DeviceImpl(jit_impl(result, self.jit_options), (0,))


class OverloadMethodCandidate(OverloadCandidate):
    """@overload_method(Type, name): typing_func(self type, *arg types) returns impl(self, ...)."""

    def resolve_attribute(self, ty, attr):
        return MethodImpl()

    def resolve_method(self, ty, attr, call, literal):
        return self.resolve(call, literal)


# ---- resolution with numba's error reporting ---------------------------------------------

class Failures:
    def __init__(self, shown, fname, call):
        self.shown = shown
        self.fname = fname
        self.call = call
        self.entries = []  # (candidate, error, literal)

    def add(self, candidate, error, literal):
        self.entries.append((candidate, error, literal))

    def error(self):
        lines = ["No implementation of function %s found for signature:" % (self.shown,), " ",
                 " >>> %s(%s)" % (self.fname, self.call.describe()), " ",
                 "There are %d candidate implementations:" % len(self.entries)]
        groups = {}
        for cand, err, lit in self.entries:
            text = err if isinstance(err, str) else "%s: %s" % (type(err).__name__, err)
            groups.setdefault(text, []).append((cand, lit))
        for text, items in groups.items():
            cand, lit = items[0]
            kind, name, path, line = cand.describe()
            lines.append("  - Of which %d did not match due to:" % len(items))
            lines.append("  %s in function '%s': File: %s: Line %s." % (kind.title(), name, path, line))
            lines.append("    With argument(s): '(%s)':" % self.call.describe(lit))
            if text == "No match.":
                lines.append("   No match.")
            else:
                lines.append("   Rejected as the implementation raised a specific error:")
                lines.extend("     " + ln for ln in text.splitlines())
        return TypingError("\n".join(lines))


def _ordered(candidates):
    ranked = [(registry.target_rank(c.target), i, c) for i, c in enumerate(candidates)]
    return [c for rank, i, c in sorted((r for r in ranked if r[0] is not None), key=lambda r: (r[0], r[1]))]


def _attempts(candidate, call):
    literal_first = candidate.prefer_literal
    order = (True, False) if literal_first else (False, True)
    return [lit for lit in order if not lit or call.has_literals()]


def first_match(candidates, call, attempt, failures):
    """The first implementation `attempt(candidate, literal)` finds, recording why the others failed."""
    for cand in _ordered(candidates):
        for literal in _attempts(cand, call):
            try:
                impl = attempt(cand, literal)
            except LoweringError:
                raise
            except Exception as e:  # a typing function's error: reported with the others
                failures.add(cand, e, literal)
                continue
            if impl is not None:
                return impl
            failures.add(cand, "No match.", literal)
    return None


def shown_function(obj):
    return "Function(%r)" % (obj,)


def resolve_call(obj, call):
    candidates = registry.candidates_of(obj)
    fname = getattr(obj, "__name__", None) or "<unknown function>"
    failures = Failures(shown_function(obj), fname, call)
    impl = first_match(candidates, call, lambda c, lit: c.resolve(call, lit), failures)
    if impl is None:
        raise failures.error()
    return impl


def resolve_attribute(ty, attr):
    for cand in _ordered(registry.attribute_candidates(ty, attr)):
        impl = cand.resolve_attribute(ty, attr)
        if impl is not None:
            return impl
    return None


def resolve_method(ty, name, call):
    candidates = [c for c in registry.attribute_candidates(ty, name) if hasattr(c, "resolve_method")]
    failures = Failures("BoundFunction(%s.%s for %s)" % (ty, name, ty), name, call)
    impl = first_match(candidates, call, lambda c, lit: c.resolve_method(ty, name, call, lit), failures)
    if impl is None:
        raise failures.error()
    return impl
