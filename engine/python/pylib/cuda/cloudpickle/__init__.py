"""numba.cuda.cloudpickle: pickling functions and classes by value.

numba-cuda ships its own copy of the cloudpickle library; cuhost builds on
the cloudpickle package of the system (Debian's python3-cloudpickle,
installed by scripts/setup.sh) with one difference numba-cuda also makes:
a class defined at run time keeps its identity and its state within a
process. Unpickling a class already known in this process (pickled from it,
or unpickled before) gives back that very class without resetting its
attributes to the values they had when it was pickled; only a class new to
the process is filled from the pickle.
"""
import io as _io
import pickle as _pickle
import weakref as _weakref

try:
    import cloudpickle as _cloudpickle
    from cloudpickle import cloudpickle as _cp
    from cloudpickle import cloudpickle_fast as _cpf
    from cloudpickle import register_pickle_by_value, unregister_pickle_by_value  # noqa: F401

    _why = None
except ImportError as _e:  # pragma: no cover - the package is a dependency
    _cloudpickle = None
    _why = str(_e)

__all__ = ["dumps", "loads", "dump", "load", "Pickler", "CloudPickler"]

# Classes _make_skeleton_class found already known in this process: their
# state in the pickle must not overwrite what they hold now.
_known_classes = _weakref.WeakSet()


def _make_skeleton_class(type_constructor, name, bases, type_kwargs, class_tracker_id, extra):
    known = class_tracker_id is not None and class_tracker_id in _cp._DYNAMIC_CLASS_TRACKER_BY_ID
    cls = _cp._make_skeleton_class(type_constructor, name, bases, type_kwargs, class_tracker_id, extra)
    if known:
        _known_classes.add(cls)
    return cls


def _class_setstate(cls, state):
    if cls in _known_classes:
        return cls
    return _cpf._class_setstate(cls, state)


if _cloudpickle is not None:

    class Pickler(_cloudpickle.CloudPickler):
        """cloudpickle's pickler, with classes that keep their state on unpickling."""

        def reducer_override(self, obj):
            rv = super().reducer_override(obj)
            if (isinstance(rv, tuple) and len(rv) == 6 and rv[0] is _cp._make_skeleton_class
                    and rv[5] is _cpf._class_setstate):
                return (_make_skeleton_class, *rv[1:5], _class_setstate)
            return rv

    CloudPickler = Pickler

    def dump(obj, file, protocol=None, buffer_callback=None):
        Pickler(file, protocol=protocol, buffer_callback=buffer_callback).dump(obj)

    def dumps(obj, protocol=None, buffer_callback=None):
        with _io.BytesIO() as file:
            dump(obj, file, protocol=protocol, buffer_callback=buffer_callback)
            return file.getvalue()

    load, loads = _pickle.load, _pickle.loads
else:  # pragma: no cover

    def _unavailable(*args, **kwargs):
        raise NotImplementedError("numba.cuda.cloudpickle needs the cloudpickle package (Debian: python3-cloudpickle): "
                                  + _why)

    Pickler = CloudPickler = dumps = loads = dump = load = _unavailable
