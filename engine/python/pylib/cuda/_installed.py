"""numba and NVIDIA's cuda-python where the user's environment has them.

cuhost's packages come first on sys.path, so that `from numba import cuda`
means cuhost. That must not hide what the user installed beside cuhost:

- numba: when numba itself is installed, `import numba` is numba itself (its
  njit, parallel=True and prange run by numba) and `numba.cuda` is cuhost's
  `cuda` package, as numba-cuda plugs into numba. cuhost's own `numba`
  package (pylib/numba) hands over to it as it starts (become_real_numba),
  and the alias rules (_aliases.py) then map only numba.cuda. Without numba,
  or with CUHOST_REAL_NUMBA=0, cuhost's package serves.
- cuda-python: its `cuda` namespace folders extend this package's __path__
  after cuhost's own folder, so cuda.cccl and the like import; cuda.bindings
  and cuda.pathfinder are NVIDIA's when installed (CudaPythonFinder), while
  cuhost's own driver layer keeps its stand-in as `cuda._bindings`; cuda.core
  holds both NVIDIA's cuda.core and numba-cuda's core modules (see
  core/__init__.py), since numba.cuda.core is cuda.core in cuhost.
"""
import importlib.machinery
import importlib.util
import os
import sys

_PYLIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STANDIN_BINDINGS = os.path.join(_PYLIB, "cuda", "bindings")
_decided = {}


def _elsewhere():
    """sys.path without cuhost's own folder."""
    return [e for e in sys.path if isinstance(e, str) and os.path.abspath(e or ".") != _PYLIB]


def is_numba_folder(folder):
    """True for numba's own package folder (its compiler is there), not for
    folders merely named numba (numba-cuda's layout, a test overlay)."""
    return bool(folder) and os.path.exists(os.path.join(folder, "__init__.py")) and os.path.exists(
        os.path.join(folder, "core", "dispatcher.py"))


def real_numba_spec():
    """The spec of numba itself when installed outside cuhost, else None.
    Decided once per process: `numba` is then one thing for good."""
    if "numba" not in _decided:
        spec = None
        if os.environ.get("CUHOST_REAL_NUMBA", "1") != "0":
            try:
                spec = importlib.machinery.PathFinder.find_spec("numba", _elsewhere())
            except (ImportError, ValueError):
                spec = None
            if spec is not None and not is_numba_folder(os.path.dirname(spec.origin or "")):
                spec = None  # a namespace folder (numba-cuda's own layout) or another package named numba
        _decided["numba"] = spec
    return _decided["numba"]


def has_real_numba():
    return real_numba_spec() is not None


def become_real_numba(spec):
    """Executes numba itself as sys.modules["numba"] (called by cuhost's numba
    package while it is being imported: the import then yields numba)."""
    module = importlib.util.module_from_spec(spec)
    sys.modules["numba"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop("numba", None)
        raise
    return module


def cuda_python_dirs():
    """The folders of NVIDIA's `cuda` namespace package on sys.path (cuda-python:
    cuda/bindings, cuda/core, cuda/pathfinder; cuda-cccl's cuda/cccl ...)."""
    if "cuda" not in _decided:
        dirs = []
        for entry in _elsewhere():
            folder = os.path.abspath(os.path.join(entry or ".", "cuda"))
            if folder in dirs or not os.path.isdir(folder) or os.path.exists(os.path.join(folder, "__init__.py")):
                continue  # a `cuda` with an __init__ is a plain package, not NVIDIA's namespace
            dirs.append(folder)
        _decided["cuda"] = dirs
    return _decided["cuda"]


def nvidia_subpackage(name):
    """NVIDIA's cuda.<name> folder (bindings, core, pathfinder), or None."""
    for folder in cuda_python_dirs():
        candidate = os.path.join(folder, name)
        if os.path.exists(os.path.join(candidate, "__init__.py")):
            return candidate
    return None


class CudaPythonFinder:
    """cuda.bindings and cuda.pathfinder from NVIDIA's cuda-python when it is
    installed; cuda._bindings, cuhost's stand-in, for cuhost's driver layer.
    A meta path finder by its find_spec alone: importlib.abc, its base class
    in the documentation, costs a fresh process ~10 ms of imports
    (importlib.resources, typing, tempfile)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in ("cuda.bindings", "cuda.pathfinder"):
            folder = nvidia_subpackage(fullname.split(".")[1])
            if folder is None:
                return None
            return importlib.machinery.PathFinder.find_spec(fullname, [os.path.dirname(folder)])
        if fullname == "cuda._bindings" and nvidia_subpackage("bindings") is not None:
            return importlib.util.spec_from_file_location(
                fullname, os.path.join(_STANDIN_BINDINGS, "__init__.py"),
                submodule_search_locations=[_STANDIN_BINDINGS])
        return None


def install(package_path):
    """Extends the `cuda` package's __path__ with cuda-python's folders and puts
    the finder on sys.meta_path (once)."""
    for folder in cuda_python_dirs():
        if folder not in package_path:
            package_path.append(folder)
    if not any(isinstance(f, CudaPythonFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CudaPythonFinder())
