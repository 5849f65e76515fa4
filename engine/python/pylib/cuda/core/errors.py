"""numba's errors and warnings (numba.cuda.core.errors, numba.core.errors, numba.errors).

The classes carry numba-cuda's names and hierarchy, built on the classes
cuhost's C++ side raises so that `except` clauses written for numba-cuda
catch cuhost's errors:

    NumbaError       is _cuhost.CudaError (the root of every cuhost error)
    TypingError      is _cuhost.TypingError
    UnsupportedError is _cuhost.UnsupportedError
    CompilerError    is _cuhost.CompileError

and numba's other classes subclass those as in numba (NumbaTypeError is a
TypingError, LoweringError a NumbaError, ...). Classes cuhost defines in
Python take numba's (msg, loc=None) arguments and its add_context().

One divergence comes from the C++ classes: every cuhost error derives from
CudaError, so `except NumbaError` also catches cuhost's driver and linker
errors (numba's CudaSupportError, for one, is an ImportError instead).
"""
import _cuhost

__all__ = []


def _export(cls):
    __all__.append(cls.__name__)
    return cls


# ---- warnings ----------------------------------------------------------------

@_export
class NumbaWarning(Warning):
    """Base category for all Numba compiler warnings."""

    def __init__(self, msg, loc=None, highlighting=True):
        self.msg = msg
        self.loc = loc
        if loc:
            super().__init__("%s\n%s\n" % (msg, loc.strformat()))
        else:
            super().__init__("%s" % (msg,))


@_export
class NumbaPerformanceWarning(NumbaWarning):
    """Code that cannot run fast, e.g. a launch that cannot fill the GPU."""


@_export
class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


@_export
class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


@_export
class NumbaParallelSafetyWarning(NumbaWarning):
    pass


@_export
class NumbaTypeSafetyWarning(NumbaWarning):
    pass


@_export
class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass


@_export
class NumbaInvalidConfigWarning(NumbaWarning):
    pass


@_export
class NumbaPedanticWarning(NumbaWarning):
    pass


@_export
class NumbaIRAssumptionWarning(NumbaPedanticWarning):
    pass


@_export
class NumbaDebugInfoWarning(NumbaWarning):
    pass


@_export
class NumbaSystemWarning(NumbaWarning):
    pass


# ---- errors ------------------------------------------------------------------

class _NumbaErrorBehaviour:
    """numba's NumbaError methods, for the classes defined here."""

    def __init__(self, msg, loc=None, highlighting=True):
        self.msg = msg
        self.loc = loc
        super().__init__("%s\n%s\n" % (msg, loc.strformat()) if loc else "%s" % (msg,))

    @property
    def contexts(self):
        if "_contexts" not in self.__dict__:
            self._contexts = []
        return self._contexts

    def add_context(self, msg):
        """Append context to the message ("During: ...")."""
        self.contexts.append(msg)
        self.args = ("%s\nDuring: %s" % (self, msg),)
        return self

    def patch_message(self, new_message):
        self.args = (new_message, *self.args[1:])


NumbaError = _export(_cuhost.CudaError)
TypingError = _export(_cuhost.TypingError)
UnsupportedError = _export(_cuhost.UnsupportedError)
CompilerError = _export(_cuhost.CompileError)


@_export
class UnsupportedRewriteError(_NumbaErrorBehaviour, UnsupportedError):
    """UnsupportedError from a rewrite pass."""


@_export
class IRError(_NumbaErrorBehaviour, NumbaError):
    """An error in the intermediate representation."""


@_export
class RedefinedError(IRError):
    pass


@_export
class NotDefinedError(IRError):
    pass


@_export
class VerificationError(IRError):
    pass


@_export
class DeprecationError(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class LoweringError(_NumbaErrorBehaviour, NumbaError):
    """An error while lowering to machine code."""


@_export
class UnsupportedParforsError(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class ForbiddenConstruct(LoweringError):
    pass


@_export
class UntypedAttributeError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class ByteCodeSupportError(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class ConstantInferenceError(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class InternalError(_NumbaErrorBehaviour, NumbaError):
    """An internal compiler error."""


@_export
class InternalTargetMismatchError(InternalError):
    pass


@_export
class NonexistentTargetError(InternalError):
    pass


@_export
class RequireLiteralValue(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class ForceLiteralArg(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class LiteralTypingError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaValueError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaTypeError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaAttributeError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaAssertionError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaNotImplementedError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaKeyError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaIndexError(_NumbaErrorBehaviour, TypingError):
    pass


@_export
class NumbaRuntimeError(_NumbaErrorBehaviour, NumbaError):
    pass


@_export
class UnsupportedBytecodeError(Exception):
    """Bytecode the compiler cannot handle (numba: not a NumbaError)."""

    def __init__(self, msg, loc=None):
        super().__init__("%s. Raised from %s" % (msg, loc))
