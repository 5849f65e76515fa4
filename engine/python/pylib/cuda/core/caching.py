"""numba.cuda.core.caching: the files of @cuda.jit(cache=True).

As numba does, a kernel compiled with cache=True is saved under
$NUMBA_CACHE_DIR when it is set, else in the ``__pycache__`` folder beside
its source file (or, when that folder cannot be written, in a user-wide
cache folder, ~/.cache/cuhost/numba), so a later process loads it instead of
compiling:

- one index file per function, ``<module>.<qualname>-<line>.pyXY.nbi``,
  mapping each compiled specialization to its data file, and stamped with
  the source file's modification time and size: editing the file makes the
  whole index stale;
- one data file per specialization, ``....<n>.nbc``: the compiled kernel
  as an entry of the engine's disk-cache format (engine/runtime/
  compile_cache.h: framed by its key and a digest; on the CPU backend its
  LLVM IR, compiled to machine code again when loaded). Where the engine's
  content-keyed cache keeps the kernel too (GPU kernels), the data file is
  that very entry, framed with the same key; the index records the key
  each entry was framed with.

A specialization's key is its argument types, the target (backend,
architecture, compiler build), the function's bytecode and the values of
its closure variables, and the jit options. As in numba, the values of
globals are not part of it: a cached kernel keeps the globals it was
compiled with until the source file changes or ``recompile()`` is called.

The engine's compile lookup (engine/runtime/compile_lookup.h) owns the
lookup and the dispatcher's ``stats``; through
engine/python/dispatcher_cache.cpp it asks ``function_cache(dispatcher)``
for these files and calls the public methods ``load_overload`` and
``save_overload`` with a specialization's argument types (a tuple of
``_cuhost.TypeHandle``) and the target string; the entries cross as their
key and bytes. The index keys the entries by the types' spellings, read as
text only.
"""
import collections
import contextlib
import hashlib
import inspect
import os
import pickle
import sys
import tempfile

_INDEX_VERSION = b"cuhost-cache-index-2\n"


class CacheStats:
    """A dispatcher's cache statistics, as numba's: the cache folder and
    Counters of hits and misses keyed by signature."""

    def __init__(self, cache_path):
        self.cache_path = cache_path
        self.cache_hits = collections.Counter()
        self.cache_misses = collections.Counter()


def _writable(folder):
    """Whether `folder` exists (or can be made) and files can be written in it."""
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        return True
    except OSError:
        return False


_warned = set()


def _untrusted_reason(folder):
    """Why another user could change what is loaded from `folder` (its index
    files are pickles: loading one runs code), or None. The rules of cuhost's
    other caches (support/folder_trust.h): the folder is the current user's
    and no one else may write it; each folder above belongs to the user or
    root and, when others may write it, has the sticky bit."""
    me = os.geteuid()
    st = os.stat(folder)
    if st.st_uid != me:
        return "it belongs to another user (uid %d; cuhost runs as uid %d)" % (st.st_uid, me)
    if st.st_mode & 0o022:
        return "it is writable by other users (mode %04o)" % (st.st_mode & 0o7777)
    up = os.path.dirname(os.path.abspath(folder))
    while True:
        ust = os.stat(up)
        if ust.st_uid not in (me, 0):
            return "the folder above it, %s, belongs to another user (uid %d)" % (up, ust.st_uid)
        if ust.st_mode & 0o022 and not ust.st_mode & 0o1000:
            return ("the folder above it, %s, is writable by other users without the sticky bit (mode %04o)"
                    % (up, ust.st_mode & 0o7777))
        parent = os.path.dirname(up)
        if parent == up:
            return None
        up = parent


def _usable(folder):
    if not _writable(folder):
        return False
    why = _untrusted_reason(folder)
    if why is None:
        return True
    if folder not in _warned:
        _warned.add(folder)
        sys.stderr.write("cuhost: warning: not using the cache folder %s: %s; cache=True kernels are not cached "
                         "there\n" % (folder, why))
    return False


def _user_cache_folder(source_dir):
    root = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "cuhost", "numba")
    # One subfolder per source folder, so functions of equal names stay apart.
    tail = os.path.abspath(source_dir).strip(os.sep).replace(os.sep, "_")
    return os.path.join(root, tail)


def function_cache(dispatcher):
    """The cache files of a cache=True dispatcher, made at their first use
    (RuntimeError when the function's source file cannot be located)."""
    cache = dispatcher.__dict__.get("_cache_files")
    if cache is None:
        cache = dispatcher.__dict__["_cache_files"] = FunctionCache(dispatcher.py_func, dispatcher.targetoptions)
    return cache


class FunctionCache:
    """The cache files of one function (see the module's documentation)."""

    def __init__(self, py_func, options):
        self._py_func = py_func
        # Set while recompile() compiles anew: saved entries are replaced, not loaded.
        self.skip_load = False
        try:
            source = inspect.getfile(py_func)
        except TypeError:
            source = None
        if not source or not os.path.isfile(source):
            raise RuntimeError("cannot cache function %r: no locator available for file %r"
                               % (py_func.__qualname__, source))
        self._source = os.path.abspath(source)
        source_dir = os.path.dirname(self._source)
        # numba's order: $NUMBA_CACHE_DIR when set, else __pycache__ beside
        # the source, else the user-wide folder.
        candidates = [os.path.join(source_dir, "__pycache__"), _user_cache_folder(source_dir)]
        if os.environ.get("NUMBA_CACHE_DIR"):
            candidates.reverse()
        self.cache_path = next((c for c in candidates if _usable(c)), None)
        modname = os.path.splitext(os.path.basename(self._source))[0]
        qualname = py_func.__qualname__.replace("<", "").replace(">", "")
        base = "%s.%s-%d.py%d%d" % (modname, qualname, py_func.__code__.co_firstlineno, sys.version_info[0],
                                    sys.version_info[1])
        self._index_name = base + ".nbi"
        self._data_pattern = base + ".{}.nbc"
        self._options = repr(sorted((k, repr(v)) for k, v in options.items()))

    # ---- keys ------------------------------------------------------------

    def _closure_digest(self):
        cells = self._py_func.__closure__ or ()
        values = []
        for cell in cells:
            try:
                values.append(cell.cell_contents)
            except ValueError:  # an empty cell
                values.append(None)
        try:
            data = pickle.dumps(tuple(values), protocol=4)
        except Exception:
            data = repr(values).encode()
        return hashlib.sha256(data).hexdigest()

    def key(self, handles, target):
        code = self._py_func.__code__
        return (tuple(h.spelling for h in handles), target, self._options, hashlib.sha256(code.co_code).hexdigest(),
                self._closure_digest())

    # ---- the engine's calls -----------------------------------------------------

    def load_overload(self, handles, target):
        """The entry saved for argument types `handles` compiled for
        `target`, as (the key it was framed with, its bytes), or None."""
        if self.skip_load:
            return None
        return self.load(self.key(handles, target))

    def save_overload(self, handles, target, entry_key, data):
        """Saves the entry `data`, framed with `entry_key`, for argument types
        `handles` compiled for `target`."""
        self.save(self.key(handles, target), (entry_key, data))

    # ---- files -------------------------------------------------------------

    def _stamp(self):
        st = os.stat(self._source)
        return (st.st_mtime, st.st_size)

    def _index_path(self):
        return os.path.join(self.cache_path, self._index_name)

    def _load_index(self):
        try:
            with open(self._index_path(), "rb") as f:
                data = f.read()
        except OSError:
            return {}
        if not data.startswith(_INDEX_VERSION):
            return {}
        try:
            stamp, overloads = pickle.loads(data[len(_INDEX_VERSION):])
        except Exception:
            return {}
        # A changed source file makes every entry stale.
        return overloads if stamp == self._stamp() else {}

    def _write(self, name, data):
        """Writes a file of the cache folder whole or not at all (a temporary
        file renamed over it), so concurrent processes never read half a file."""
        path = os.path.join(self.cache_path, name)
        fd, tmp = tempfile.mkstemp(dir=self.cache_path, prefix=name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def load(self, key):
        """The (entry key, bytes) saved under `key`, or None."""
        if self.cache_path is None:
            return None
        found = self._load_index().get(key)
        if found is None:
            return None
        name, entry_key = found
        try:
            with open(os.path.join(self.cache_path, name), "rb") as f:
                return entry_key, f.read()
        except OSError:
            return None

    def save(self, key, entry):
        """Saves `entry`, (entry key, bytes), under `key` (overwriting its
        previous data file)."""
        if self.cache_path is None:
            return
        entry_key, data = entry
        overloads = self._load_index()
        found = overloads.get(key)
        if found is None or found[1] != entry_key:
            if found is None:
                used = {name for name, _ in overloads.values()}
                n = 1
                while self._data_pattern.format(n) in used:
                    n += 1
                name = self._data_pattern.format(n)
            else:
                name = found[0]
            overloads[key] = (name, entry_key)
            self._write(self._index_name, _INDEX_VERSION + pickle.dumps((self._stamp(), overloads), protocol=4))
        self._write(overloads[key][0], data)


from .._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    Cache CacheImpl IndexDataCacheFile NullCache _Cache _CacheImpl _CacheLocator _SourceFileBackedLocatorMixin
    _UserProvidedCacheLocator _InTreeCacheLocator _UserWideCacheLocator _IPythonCacheLocator _ZipCacheLocator
    CompileResultCacheImpl
""")
