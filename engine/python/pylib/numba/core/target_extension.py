"""numba.core.target_extension, as far as cuhost has targets: the dispatcher
class of a target named by its string. "cuda" (and "gpu") is numba-cuda's
CUDADispatcher; cuhost has no other numba target (its numba.njit functions
are compiled by cuhost's CPU backend, not through a numba target registry),
so any other name raises NotImplementedError naming it."""


def resolve_dispatcher_from_str(target):
    """The dispatcher class of `target` ("cuda")."""
    if target in ("cuda", "gpu"):
        from cuda.dispatcher import CUDADispatcher

        return CUDADispatcher
    raise NotImplementedError("numba.core.target_extension.resolve_dispatcher_from_str(%r) is not implemented in "
                              "cuhost: its only numba target is 'cuda'" % (target,))
