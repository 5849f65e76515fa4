"""numba's `signature()` helper, in a module of its own below its users:
the package cuda.typing exports it, and importing any cuda.typing module
(typeof, which the extension resolver needs) runs the package, so the
package must not pull in typing/templates.py (which sits above the
resolver)."""
from ..types import Signature


def signature(return_type, *args, **kws):
    """The signature `return_type(*args)` (recvr: the receiver of a method)."""
    recvr = kws.pop("recvr", None)
    if kws:
        raise TypeError("signature() got unexpected keyword arguments %s" % ", ".join(sorted(kws)))
    return Signature(return_type, args, recvr=recvr)
