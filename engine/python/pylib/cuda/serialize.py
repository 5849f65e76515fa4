"""numba.cuda.serialize: the pickling helpers numba uses for objects that
compiled code refers to. cuhost's kernels refer to no Python objects; what
remains useful is pickling by value (cloudpickle) and numba's memoizing
unpickler.
"""
import pickle as _pickle

from .cloudpickle import dumps as _cloud_dumps

__all__ = ["dumps", "_numba_unpickle"]

# (address, hash) -> the object _numba_unpickle rebuilt for it.
_unpickled_memo = {}


def dumps(obj):
    """Pickles `obj` by value where needed (functions and classes defined at
    run time), with the highest protocol."""
    return _cloud_dumps(obj, protocol=_pickle.HIGHEST_PROTOCOL)


def _numba_unpickle(address, bytedata, hashed):
    """Unpickles `bytedata` once per (address, hashed) pair and returns the
    same object on every later call with that pair, as numba does for the
    objects compiled code refers to."""
    key = (address, hashed)
    try:
        return _unpickled_memo[key]
    except KeyError:
        obj = _unpickled_memo[key] = _pickle.loads(bytedata)
        return obj


from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    NumbaPickler custom_reduce custom_rebuild is_serialiable _reduce _rebuild_reduction
    _get_function_globals_for_reduction _CustomPickled _unpickle__CustomPickled runtime_build_excinfo_struct
""")
