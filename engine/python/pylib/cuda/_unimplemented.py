"""numba-cuda modules that cuhost has no counterpart for at all.

numba-cuda is a Python compiler: its package holds the compiler's own
modules (bytecode analysis, numba IR, passes, lowering, data models, the
typing registries) beside the user API. cuhost compiles in C++, so these
modules have nothing to re-export; they exist here only so that code which
imports them still imports. Every name read from such a module is a
placeholder (cuda._missing) that raises NotImplementedError naming it when
used. Modules with at least one real name are real files instead.

The finder below creates these modules on import. Names are cuhost's real
names (`cuda.X`); numba's paths reach them through cuda._aliases.
"""

import importlib.machinery
import sys
import types

from ._missing import display_name, missing_getattr

# Packages whose every submodule is unimplemented too ("core.rewrites.static_getitem").
_PACKAGES = {
    "core.annotations", "core.rewrites", "core.unsafe", "cpython", "datamodel", "typeconv",
    "np.math", "np.polynomial", "np.unsafe",
}

# Modules (relative to `cuda`) that are unimplemented as a whole.
_MODULES = set("""
    core.analysis core.base core.boxing core.byteflow core.codegen
    core.compiler core.compiler_lock core.compiler_machinery core.consts core.entrypoints
    core.environment core.event core.funcdesc core.generators core.inline_closurecall
    core.interpreter core.ir core.ir_utils core.optional core.options core.postproc core.pythonapi core.registry
    core.removerefctpass core.sigutils core.ssa core.targetconfig core.tracing core.transforms core.typed_passes
    core.typeinfer core.untyped_passes
    codegen cudamath debuginfo intrinsics itanium_mangler libdevicedecl
    libdeviceimpl lowering mathimpl nvvmutils printimpl stubs target ufuncs
    flags cuda_paths cache_hints fp8 api_util initialize locks
    cudadrv.drvapi cudadrv.mappings cudadrv.ndarray
    misc.appdirs misc.cffiimpl misc.coverage_support misc.dump_style misc.findlib misc.firstlinefinder misc.gdb_hook
    misc.literal misc.llvm_pass_timings
    np.ufunc.ufuncbuilder
    np.arraymath np.arrayobj np.extensions np.linalg np.npdatetime np.npdatetime_helpers np.npyfuncs np.npyimpl
    np.ufunc_db
    typing.arraydecl typing.asnumbatype typing.bufproto typing.builtins typing.cffi_utils typing.cmathdecl
    typing.collections typing.context typing.ctypes_utils typing.dictdecl typing.enumdecl typing.listdecl
    typing.mathdecl typing.npdatetime typing.npydecl typing.setdecl
""".split()) | _PACKAGES

_NOTE = " (cuhost compiles kernels in C++ and has no numba compiler internals)"


def _relative(fullname):
    if not fullname.startswith("cuda."):
        return None
    rel = fullname[len("cuda."):]
    if rel in _MODULES:
        return rel
    parent = rel.rpartition(".")[0]
    while parent:
        if parent in _PACKAGES:
            return rel
        parent = parent.rpartition(".")[0]
    return None


class _UnimplementedLoader:
    def create_module(self, spec):
        module = types.ModuleType(spec.name, "%s is not implemented in cuhost yet%s: every name in it raises "
                                             "NotImplementedError when used." % (display_name(spec.name), _NOTE))
        module.__getattr__ = missing_getattr(spec.name, _NOTE)
        return module

    def exec_module(self, module):
        pass


class UnimplementedFinder:
    """Creates the modules listed above when they are imported."""

    def find_spec(self, fullname, path=None, target=None):
        rel = _relative(fullname)
        if rel is None:
            return None
        is_package = rel in _PACKAGES or any(m.startswith(rel + ".") for m in _MODULES)
        return importlib.machinery.ModuleSpec(fullname, _UnimplementedLoader(), is_package=is_package)


def install():
    """Put the finder on sys.meta_path after the alias finder (once)."""
    if not any(isinstance(f, UnimplementedFinder) for f in sys.meta_path):
        sys.meta_path.insert(1, UnimplementedFinder())
