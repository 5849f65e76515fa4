"""numba.cuda.dispatcher: the object @cuda.jit returns.

CUDADispatcher is cuhost's C++ dispatcher (_cuhost.Dispatcher,
engine/python/dispatcher.cpp: options, signatures, compilation, launches)
plus numba-cuda's Python-level API over it: overloads, specializations,
specialize(), the inspect_* methods, the kernel properties
(get_regs_per_thread and friends) and pickling. numba-cuda's internal pieces
of its dispatcher (kernel objects, caches, compile statistics) have no
counterpart in cuhost.
"""
import importlib as _importlib
import marshal as _marshal
import os as _os
import types as _pytypes

import _cuhost

from . import _jit_options, config, types as _types
from ._llvmlite_spelling import llvmlite_spelling
from ._type_spelling import from_handle
from .cudadrv import _modules
from .launchconfig import ensure_current_launch_config


def _types_of_handles(handles):
    """The cuda.types objects of a tuple of _cuhost.TypeHandles (how the
    engine hands out compiled signatures and inspection results)."""
    return tuple(from_handle(h) for h in handles)


def _sig_arg(signature):
    """Signature given to inspect_*/get_*: None, a tuple of types, a Signature or a string."""
    if signature is None or isinstance(signature, (str, tuple)):
        return signature
    if isinstance(signature, _types.Signature):
        return signature.args
    return signature


class _Overload:
    """One compiled specialization (numba's compile result): its signature,
    PTX, LLVM IR and the mangled name of the entry point."""

    def __init__(self, dispatcher, argtypes):
        self._dispatcher = dispatcher
        self.argtypes = argtypes

    def _info(self):
        return self._dispatcher._nvptx(self.argtypes)

    @property
    def signature(self):
        info = self._info()

        return _types.Signature(from_handle(info["return"]), self.argtypes)

    @property
    def fndesc(self):
        return _pytypes.SimpleNamespace(mangled_name=self._info()["symbol"], qualname=self._dispatcher.__qualname__)

    @property
    def entry_point(self):
        return self._info()["symbol"]

    def inspect_llvm(self):
        return llvmlite_spelling(self._info()["llvm"])

    def inspect_asm(self, cc=None):
        return self._info()["ptx"]

    @property
    def _type_annotation(self):
        """numba's type annotation, as far as it is read: the typemap of locals and parameters."""

        typemap = {name: from_handle(t) for name, t in self._dispatcher._typemap(self.argtypes).items()}
        return _pytypes.SimpleNamespace(typemap=typemap)

    @property
    def library(self):
        """numba's code library, as far as reading its code goes: get_llvm_str() and get_asm_str()."""
        info = self._info()
        return _pytypes.SimpleNamespace(get_llvm_str=lambda: llvmlite_spelling(info["llvm"]),
                                        get_asm_str=lambda: info["ptx"], name=info["symbol"])

    @property
    def _codelibrary(self):
        """numba's code library of the specialization: the files linked in
        and get_cufunc(), the loaded kernel function."""
        return _CodeLibrary(self)

    @property
    def launch_config_sensitive(self):
        """Whether its compilation was marked as depending on the launch configuration."""
        return self.argtypes in self._dispatcher.__dict__.get("_launch_config_sensitive_sigs", ())

    @property
    def cooperative(self):
        """Whether launches use cuLaunchCooperativeKernel (the kernel syncs the grid)."""
        return self._dispatcher._cooperative(self.argtypes, 1, 0)[0]

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The largest grid of `blockdim` blocks a cooperative launch may use."""
        if isinstance(blockdim, int):
            blockdim = (blockdim,)
        threads = 1
        for d in blockdim:
            threads *= int(d)
        return self._dispatcher._cooperative(self.argtypes, threads, int(dynsmemsize))[1]

    def __repr__(self):
        return "<compiled %s%r>" % (self._dispatcher.__name__, self.argtypes)


class _CodeLibrary:
    def __init__(self, overload):
        self._overload = overload

    @property
    def _linking_files(self):
        return list(self._overload._info()["link"])

    def get_cufunc(self):
        """The kernel's loaded function: its cache configuration and
        shared-memory carveout can be set (on the CPU backend, which has no
        cache to configure, the values are checked and kept only)."""
        ov = self._overload
        return _KernelFunction(ov._dispatcher._cufunc(ov.argtypes), ov._dispatcher.__name__)


class _KernelFunction:
    """A loaded kernel function (numba's CudaPythonFunction, as far as a
    compiled kernel's is reachable): cache_config and
    set_shared_memory_carveout."""

    def __init__(self, handle, name):
        self.handle = handle
        self.name = name
        self.cache_preference = None
        self.carveout = -1

    def cache_config(self, prefer_equal=False, prefer_cache=False, prefer_shared=False):
        self.cache_preference = ("equal" if prefer_equal else "cache" if prefer_cache else
                                 "shared" if prefer_shared else None)
        if self.handle is not None:
            _modules.cache_config_for(self.handle, prefer_equal, prefer_cache, prefer_shared)

    def set_shared_memory_carveout(self, carveout):
        self.carveout = _modules.check_carveout(carveout)
        if self.handle is not None:
            _modules.set_carveout_for(self.handle, self.carveout)

    def __repr__(self):
        return "<CUDA function %s>" % self.name


class CUDADispatcher(_cuhost.Dispatcher):
    # A @cuda.jit kernel or device function; its __doc__ is the Python function's.
    __doc__ = property(lambda self: self.py_func.__doc__)

    # ---- signatures and specializations ---------------------------------

    @property
    def overloads(self):
        """{argument types: compiled specialization} for every compiled signature
        (a kernel's calls from other kernels included, as device compiles)."""
        return {t: _Overload(self, t) for t in self.signatures}

    @property
    def specializations(self):
        d = self.__dict__.get("_specializations")
        if d is None:
            d = self.__dict__["_specializations"] = {}
        return d

    @property
    def specialized(self):
        """True for a dispatcher with explicit signatures or made by specialize()."""
        return bool(self.__dict__.get("_is_specialization")) or bool(self._signature_spellings_eager)

    @property
    def _signature_spellings_eager(self):
        return self.__dict__.get("_eager_sigs", ())

    def specialize(self, *args):
        """A dispatcher compiled for the types of these arguments (values or
        type objects); the same one for the same types."""
        # Lazy: keeps `import cuda` fast (docs/DESIGN.md, Startup).
        from .typing.typeof import typeof

        argtypes = tuple(a if isinstance(a, _types.Type) else typeof(a) for a in args)
        if self.specialized:
            raise RuntimeError("Dispatcher already specialized")
        spec = self.specializations.get(argtypes)
        if spec is not None:
            return spec
        spec = _build(type(self), self.py_func, argtypes, self.targetoptions)
        spec.__dict__["_is_specialization"] = True
        self.specializations[argtypes] = spec
        return spec

    def compile(self, sig):
        """Compile for a signature (argument types) now; returns the overload."""
        argtypes = _sig_arg(sig)
        if isinstance(argtypes, str):
            argtypes = _types_of_handles(self._nvptx(argtypes)["args"])
        if self._is_device:
            self._nvptx(argtypes)
        else:
            self._compile_launch(argtypes)
        return _Overload(self, tuple(argtypes))

    def compile_device(self, args, return_type=None):
        """Compile a device function for argument types; returns the overload."""
        if not self._is_device:
            raise RuntimeError("compile_device() is only for device functions")
        self._nvptx(tuple(args))
        return _Overload(self, tuple(args))

    # ---- inspection ------------------------------------------------------

    def _per_signature(self, signature, key):
        signature = _sig_arg(signature)
        if signature is not None:
            return key(self._nvptx(signature))
        return {t: key(self._nvptx(t)) for t in map(_types_of_handles, self._compiled_signatures())}

    def inspect_llvm(self, signature=None):
        """LLVM IR (as lowered, before optimization, like numba's) per signature, or for one."""
        return self._per_signature(signature, lambda i: llvmlite_spelling(i["llvm"]))

    def inspect_asm(self, signature=None):
        """PTX per signature, or for one."""
        return self._per_signature(signature, lambda i: i["ptx"])

    def inspect_lto_ptx(self, signature=None):
        """PTX of the whole kernel per signature, or for one. numba-cuda gets it
        by link-time optimizing its LTO-IR through nvJitLink; cuhost's LLVM-made
        PTX is already the whole kernel (foreign code linked in stays a call)."""
        return self._per_signature(signature, lambda i: i["ptx"])

    def inspect_sass(self, signature=None):
        """SASS (nvdisasm's listing of the kernel assembled by nvJitLink)."""
        return self._sass(signature, [])

    def inspect_sass_cfg(self, signature=None):
        """The control-flow graph of the SASS in DOT format."""
        return self._sass(signature, ["-cfg"])

    def _sass(self, signature, flags):
        if self._is_device:
            raise RuntimeError("Cannot inspect SASS of a device function")
        signature = _sig_arg(signature)
        if signature is None:
            return {t: self._sass(t, flags) for t in map(_types_of_handles, self._compiled_signatures())}
        nvdisasm = _find_nvdisasm()
        cubin = self._cubin(signature)
        import tempfile  # imported at first use: `from numba import cuda` stays short

        with tempfile.TemporaryDirectory() as tmp:
            path = _os.path.join(tmp, "kernel.cubin")
            with open(path, "wb") as f:
                f.write(cubin)
            import subprocess  # only here: a fresh process need not import it

            r = subprocess.run([nvdisasm, "-c", *flags, path], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("nvdisasm failed: %s" % r.stderr.strip())
        return r.stdout

    # ---- kernel properties -------------------------------------------------

    def _property(self, signature, key):
        if self._is_device:
            raise RuntimeError("device functions have no kernel properties")
        signature = _sig_arg(signature)
        if signature is not None:
            return self._resources(signature)[key]
        sigs = list(map(_types_of_handles, self._compiled_signatures()))
        if self.specialized and len(sigs) == 1:
            return self._resources(sigs[0])[key]
        return {t: self._resources(t)[key] for t in sigs}

    def get_regs_per_thread(self, signature=None):
        """Registers per thread of the kernel (a dict over signatures when none is given)."""
        return self._property(signature, "regs")

    def get_const_mem_size(self, signature=None):
        """Bytes of constant memory the kernel uses."""
        return self._property(signature, "const")

    def get_shared_mem_per_block(self, signature=None):
        """Bytes of static shared memory per block."""
        return self._property(signature, "shared")

    def get_max_threads_per_block(self, signature=None):
        """The largest block the kernel can be launched with."""
        return self._property(signature, "max_threads")

    def get_local_mem_per_thread(self, signature=None):
        """Bytes of local memory per thread."""
        return self._property(signature, "local")

    def _compile_launch(self, argtypes):
        self._nvptx(tuple(argtypes))

    # ---- numba's compile dumps ------------------------------------------------

    def _debug_dumps(self, handles):
        """Prints what numba.cuda.config's DUMP_* settings ask for, after a
        compile: the Python bytecode (DUMP_BYTECODE), the LLVM IR as lowered
        (DUMP_LLVM), as optimized (DUMP_OPTIMIZED) and the PTX
        (DUMP_ASSEMBLY), each between numba's banners."""

        sig = _types_of_handles(handles)
        name = self.__qualname__

        def banner(title, text):
            print(("%s %s" % (title, name)).center(80, "-"))
            print(text)
            print("=" * 80)

        if config.DUMP_BYTECODE:
            # Lazy: only NUMBA_DUMP_BYTECODE needs the disassembler.
            import dis

            lines = ["%s %s(arg=%s, lineno=%s)" % (i.offset, i.opname, i.arg, i.positions.lineno if i.positions else
                                                  None) for i in dis.get_instructions(self.py_func)]
            banner("BYTECODE DUMP", "\n".join(lines))
        if config.DUMP_LLVM or config.DUMP_OPTIMIZED or config.DUMP_ASSEMBLY:
            info = self._nvptx(sig)
            if config.DUMP_LLVM:
                banner("LLVM DUMP", llvmlite_spelling(info["llvm"]))
            if config.DUMP_OPTIMIZED:
                banner("OPTIMIZED DUMP", info["llvm_optimized"])
            if config.DUMP_ASSEMBLY:
                banner("ASSEMBLY", info["ptx"])

    # ---- cache=True (cuda/core/caching.py) -----------------------------------
    # The compile lookup (engine/runtime/compile_lookup.h) loads and saves
    # kernels through caching.function_cache(self) and counts which layer
    # served each specialization; here are only the views.

    @property
    def stats(self):
        """Cache statistics, as numba's: cache_path, and Counters cache_hits
        (kernels loaded from the cache=True files, cache=True only) and
        cache_misses (every other kernel the dispatcher got: compiled, or
        found in the engine's content cache, where numba would have compiled)
        per signature."""
        from .core.caching import CacheStats, function_cache

        cached = bool(self.targetoptions.get("cache"))
        stats = CacheStats(function_cache(self).cache_path if cached else None)
        for handles, by_layer in self._lookup_counts():
            sig = _types_of_handles(handles)
            hits = by_layer["cache files"] if cached else 0
            misses = by_layer["compiled"] + by_layer["disk"] + (0 if cached else by_layer["cache files"])
            if hits:
                stats.cache_hits[sig] = hits
            if misses:
                stats.cache_misses[sig] = misses
        return stats

    def recompile(self):
        """Compiles every compiled signature again, capturing the function and
        its globals anew; with cache=True the new kernels replace the saved ones."""
        sigs = [_types_of_handles(s) for s in self._compiled_signatures()]
        self._forget_compiled()
        files = None
        if sigs and self.targetoptions.get("cache"):
            from .core.caching import function_cache

            files = function_cache(self)
            files.skip_load = True
        try:
            for sig in sigs:
                self.compile(sig)
        finally:
            if files is not None:
                files.skip_load = False

    # ---- launch-triggered compilation ---------------------------------------

    def _compile_for_args(self, *args, **kws):
        """Compiles the specialization a launch with `args` needs. Launches
        call it (with the launch configuration current, cuda.launchconfig)
        only when that specialization is not compiled yet."""
        assert not kws
        before = set(self._compiled_signatures())
        self._compile_args(args)
        if self.__dict__.pop("_launch_config_sensitive_pending", False):
            sigs = self.__dict__.setdefault("_launch_config_sensitive_sigs", set())
            for t in self._compiled_signatures():
                if t not in before:
                    sigs.add(_types_of_handles(t))

    def mark_launch_config_sensitive(self):
        """Marks the compilation in progress (triggered by a launch of this
        kernel) as depending on its launch configuration."""

        cfg = ensure_current_launch_config()
        if cfg.dispatcher is not self:
            raise RuntimeError("mark_launch_config_sensitive() must be called on the active launch configuration's "
                               "dispatcher")
        self.__dict__["_launch_config_sensitive_pending"] = True

    # ---- pickling --------------------------------------------------------

    def __reduce__(self):
        sigs = list(self._signature_spellings_eager) or None
        return (_rebuild, (_FunctionPayload(self.py_func), sigs, dict(self.targetoptions),
                           bool(self.__dict__.get("_is_specialization"))))


def _find_nvdisasm():
    for d in (_os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if d:
            p = _os.path.join(d, "bin", "nvdisasm")
            if _os.path.exists(p):
                return p
    import shutil

    p = shutil.which("nvdisasm")
    if p is None:
        raise RuntimeError("nvdisasm was not found: inspect_sass() needs the CUDA toolkit's nvdisasm "
                           "(set CUDA_HOME or put it on PATH)")
    return p


def _build(cls, pyfunc, sigs, options):
    d = cls(pyfunc, sigs, options)
    if sigs:
        d.__dict__["_eager_sigs"] = list(sigs) if isinstance(sigs, list) else [sigs]
    return d


# ---- pickling by value (numba pickles jitted functions with cloudpickle) --

class _ModuleRef:
    def __init__(self, name):
        self.name = name

    def __reduce__(self):
        return (_importlib.import_module, (self.name,))


def _code_names(code, out):
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, _pytypes.CodeType):
            _code_names(c, out)
    return out


class _FunctionPayload:
    """A Python function pickled by value: its code, the globals it names
    (modules by name), defaults and closure values."""

    def __init__(self, func):
        self.func = func

    def __reduce__(self):
        f = self.func
        g = {}
        for name in _code_names(f.__code__, set()):
            if name in f.__globals__:
                v = f.__globals__[name]
                g[name] = _ModuleRef(v.__name__) if isinstance(v, _pytypes.ModuleType) else v
        cells = tuple(_ModuleRef(c.cell_contents.__name__) if isinstance(c.cell_contents, _pytypes.ModuleType)
                      else c.cell_contents for c in (f.__closure__ or ()))
        return (_rebuild_function, (_marshal.dumps(f.__code__), g, f.__name__, f.__qualname__, f.__module__,
                                    f.__defaults__, cells, f.__doc__))


def _rebuild_function(code, globs, name, qualname, module, defaults, cells, doc):
    code = _marshal.loads(code)
    mod = _importlib.import_module(module) if module else None
    base = dict(vars(mod)) if mod is not None and module != "__main__" else {"__builtins__": __builtins__}
    base.update(globs)
    base.setdefault("__name__", module)
    closure = tuple(_pytypes.CellType(v) for v in cells) if cells else None
    f = _pytypes.FunctionType(code, base, name, defaults, closure)
    f.__qualname__ = qualname
    f.__module__ = module
    f.__doc__ = doc
    return f


def _rebuild(payload, sigs, options, is_specialization):
    """A pickled dispatcher made again, as cuda.jit made it (its options
    checked and defaulted the same way; sigs: its eager signatures, a list)."""
    options = dict(options)
    device = options.pop("device", False)
    d = _build(CUDADispatcher, payload, sigs, _jit_options.prepare(options, device))
    if is_specialization:
        d.__dict__["_is_specialization"] = True
    return d


from ._missing import missing as _missing  # noqa: E402

_missing(globals(), """
    _Kernel ForAll _LaunchConfiguration CUDACacheImpl CUDACache OmittedArg CompilingCounter _DispatcherBase
    _MemoMixin _CompileStats _FunctionCompiler LiftedCode LiftedLoop LiftedWith ObjModeLiftedWith
""")
