"""One module, two paths: numba-cuda's `numba.cuda.X` is cuhost's `cuda.X`.

cuhost's API lives in the top-level `cuda` package (the C++ engine imports
it by that name and existing cuhost scripts do `import cuda`);
`numba.cuda` is the very same package object. Each feature has exactly one
real home under `cuda.` and numba's paths are aliases resolved by the
meta-path finder below, so `import numba.cuda.cudadrv.driver` and
`import cuda.cudadrv.driver` give the *same* module object (one entry in
sys.modules under each name, no copied code, no second execution).

Rules, applied repeatedly until none matches (longest prefix first):

    numba.cuda[.X]         -> cuda[.X]               (numba-cuda's layout)
    numba.core.errors      -> cuda.core.errors       (no base numba in cuhost:
    numba.errors           -> cuda.core.errors        numba's own paths show
    numba.core.types       -> cuda.types              numba-cuda's objects)
    numba.types            -> cuda.types
    numba.extending, numba.core.extending -> cuda.extending
    numba.core.typing[.X]  -> cuda.typing[.X]
    cuda.core.config       -> cuda.config            (one config module)
    cuda._bindings         -> cuda.bindings          (the stand-in for cuda-python's bindings,
                                                      by the name cuhost's driver layer uses)

A name the rules map is imported under its real name first, then registered
under the alias; the module keeps its own __spec__ and __name__.
imported_name() gives back the alias a module was first imported by, for the
objects whose __module__ numba reports as the user's import path (@intrinsic).

Where numba itself is installed (_installed.py), `numba` is numba and only
the numba.cuda rule applies; where NVIDIA's cuda-python is, cuda.bindings is
NVIDIA's and cuda._bindings is the stand-in under its own name.
"""
import importlib
import importlib.util
import sys

from . import _installed

_PREFIX_RULES = (
    ("numba.cuda", "cuda"),
    ("numba.core.errors", "cuda.core.errors"),
    ("numba.errors", "cuda.core.errors"),
    ("numba.core.types", "cuda.types"),
    ("numba.types", "cuda.types"),
    ("numba.core.extending", "cuda.extending"),
    ("numba.extending", "cuda.extending"),
    ("numba.core.typing", "cuda.typing"),
    ("cuda.core.config", "cuda.config"),
    ("cuda._bindings", "cuda.bindings"),
)


def _rules():
    rules = _PREFIX_RULES
    if _installed.has_real_numba():
        rules = tuple(r for r in rules if not r[0].startswith("numba.") or r[0] == "numba.cuda")
    if _installed.nvidia_subpackage("bindings") is not None:
        rules = tuple(r for r in rules if r[0] != "cuda._bindings")
    return rules


# Real module name -> the alias whose import first loaded it.
_IMPORTED_AS = {}


def imported_name(module_name):
    """The name the user's import loaded module `module_name` by: the alias
    (numba.cuda.X) where that import is what loaded it, else the name itself."""
    return _IMPORTED_AS.get(module_name, module_name)


def real_name(fullname):
    """The module `fullname` is an alias of, or None when it is a real name."""
    if not (fullname.startswith(("numba.", "cuda."))):
        return None
    rules = _rules()
    name = fullname
    for _ in range(len(rules)):
        for alias, target in rules:
            if name == alias or name.startswith(alias + "."):
                name = target + name[len(alias):]
                break
        else:
            break
    return None if name == fullname else name


class _AliasLoader:
    def __init__(self, target):
        self._target = target
        self._real_spec = None

    def create_module(self, spec):
        if self._target not in sys.modules:
            _IMPORTED_AS.setdefault(self._target, spec.name)
        module = importlib.import_module(self._target)
        self._real_spec = module.__spec__
        return module

    def exec_module(self, module):
        # The import system stamped the alias spec on the shared module;
        # the module keeps the spec of its real name.
        module.__spec__ = self._real_spec

    # runpy (python -m numba.cuda..., runpy.run_module) reads the code
    # through the loader: the real module's loader has it.
    def _real_loader(self):
        spec = importlib.util.find_spec(self._target)
        if spec is None or spec.loader is None:
            raise ImportError("no loader for %s" % self._target)
        return spec.loader

    def get_code(self, fullname):
        return self._real_loader().get_code(self._target)

    def get_source(self, fullname):
        return self._real_loader().get_source(self._target)

    def is_package(self, fullname):
        return self._real_loader().is_package(self._target)


class AliasFinder:
    """Resolves numba's module paths to cuhost's real modules (see the module docstring)."""

    def find_spec(self, fullname, path=None, target=None):
        real = real_name(fullname)
        if real is None:
            return None
        if real in sys.modules:
            is_package = hasattr(sys.modules[real], "__path__")
        else:
            try:
                real_spec = importlib.util.find_spec(real)
            except ModuleNotFoundError:
                return None
            if real_spec is None:
                return None
            is_package = real_spec.submodule_search_locations is not None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real), is_package=is_package)


def install():
    """Put the alias finder first on sys.meta_path (once)."""
    if not any(isinstance(f, AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder())
