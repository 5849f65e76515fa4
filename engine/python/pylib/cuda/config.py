"""Run-time configuration: numba.cuda.config, also numba.cuda.core.config.

Every setting of numba-cuda 0.30's configuration module, read from the same
NUMBA_* environment variables (and a `.numba_config.yaml` in the current
folder, as numba does) with the same defaults; reload_config() reads them
again. Scripts may also assign values at run time.

cuhost reads the settings where it has an equivalent: the NVRTC include and
search paths (CUDA_INCLUDE_PATH, CUDA_NVRTC_EXTRA_SEARCH_PATHS: assignments
are mirrored into the NUMBA_CUDA_* variables that the C++ side reads when
it compiles foreign code), OPT and the debug-info defaults for @cuda.jit.
The others exist so that code written for numba-cuda can read and override
them; ENABLE_CUDASIM is always False (cuhost is never the simulator).
"""
import os as _os
import re as _re
import sys as _sys
import traceback as _traceback
import warnings as _warnings

import _cuhost

IS_WIN32 = _sys.platform.startswith("win32")
IS_OSX = _sys.platform.startswith("darwin")
MACHINE_BITS = tuple.__itemsize__ * 8
IS_32BITS = MACHINE_BITS == 32
PYVERSION = _sys.version_info[:2]

_CONFIG_FILE = ".numba_config.yaml"


def _parse_cc(text):
    """'8.6' -> (8, 6); empty -> None."""
    if not text:
        return None
    m = _re.match(r"(\d+)\.(\d+)", text)
    if not m:
        raise ValueError('Compute capability must be specified as a string of "major.minor" where major and minor '
                         "are decimals")
    return int(m.group(1)), int(m.group(2))


class _OptLevel(int):
    """NUMBA_OPT: 0-3 or "max" (which counts as 3 and sets is_opt_max)."""

    def __new__(cls, value):
        new = super().__new__(cls, 3 if value == "max" else int(value))
        new._raw_value = value if value == "max" else int(value)
        return new

    @property
    def is_opt_max(self):
        return self._raw_value == "max"

    def __repr__(self):
        return "_OptLevel(%r)" % (self._raw_value,)


def _opt_level(text):
    if text not in ("0", "1", "2", "3", "max"):
        raise ValueError("Environment variable `NUMBA_OPT` is set to an unsupported value '%s', supported values are "
                         "0, 1, 2, 3, and 'max'" % text)
    return _OptLevel(text)


def _os_supports_avx():
    if not _sys.platform.startswith("linux") or _os.uname().machine not in ("i386", "i586", "i686", "x86_64"):
        return True
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                head, _, body = line.partition(":")
                if head.strip() == "flags" and "avx" in body.split():
                    return True
    except OSError:
        return True
    return False


def _default_threads():
    try:
        return max(1, len(_os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, _os.cpu_count() or 1)


def _environment():
    """NUMBA_* settings: the YAML file's, overridden by the environment's."""
    env = {}
    if _os.path.isfile(_CONFIG_FILE):
        try:
            # Lazy and optional: PyYAML is needed only when a .numba_config.yaml exists.
            import yaml
        except ImportError:
            _warnings.warn("A Numba config file is found but YAML parsing capabilities appear to be missing. "
                           "To use this feature please install `pyyaml`.")
        else:
            with open(_CONFIG_FILE) as f:
                for k, v in (yaml.safe_load(f) or {}).items():
                    env["NUMBA_" + k.upper()] = v
    env.update((k, v) for k, v in _os.environ.items() if k.startswith("NUMBA_"))
    return env


def _convert(name, value, ctor, default):
    """`value` (of setting `name`) converted by `ctor` (bool: "1"/"true"), or
    `default` (called when callable) when it is None; warns and falls back on
    a value that does not convert. numba.cuda.utils._readenv uses it too."""
    if value is None:
        return default() if callable(default) else default
    try:
        if ctor is bool:
            return str(value).lower() in ("1", "true")
        return ctor(value)
    except Exception:
        _warnings.warn("Environment variable '%s' is defined but its associated value '%s' could not be "
                       "parsed.\nThe parse failed with exception:\n%s" % (name, value, _traceback.format_exc()),
                       RuntimeWarning)
        return default


def _settings(environ):
    """Every setting as numba-cuda computes it from `environ`."""
    def read(name, ctor, default):
        return _convert(name, environ.get(name), ctor, default)

    def optional_str(x):
        return str(x) if x is not None else None

    def html_path(path):
        return path if path is None else _os.path.abspath(path)

    def which_gdb(path_or_bin):
        import shutil  # only when NUMBA_GDB_BINARY is set

        return shutil.which(path_or_bin) or path_or_bin

    s = {}
    s["DEVELOPER_MODE"] = read("NUMBA_DEVELOPER_MODE", int, 0)
    s["DISABLE_PERFORMANCE_WARNINGS"] = read("NUMBA_DISABLE_PERFORMANCE_WARNINGS", int, 0)
    s["FULL_TRACEBACKS"] = read("NUMBA_FULL_TRACEBACKS", int, s["DEVELOPER_MODE"])
    s["SHOW_HELP"] = read("NUMBA_SHOW_HELP", int, 0)
    s["COLOR_SCHEME"] = read("NUMBA_COLOR_SCHEME", str, "no_color")
    s["BOUNDSCHECK"] = read("NUMBA_BOUNDSCHECK", int, None)
    s["ALWAYS_WARN_UNINIT_VAR"] = read("NUMBA_ALWAYS_WARN_UNINIT_VAR", int, 0)
    s["CUDA_LOW_OCCUPANCY_WARNINGS"] = read("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", int, 1)
    s["CUDA_USE_NVIDIA_BINDING"] = read("NUMBA_CUDA_USE_NVIDIA_BINDING", int, 0)
    s["DEBUG"] = debug = read("NUMBA_DEBUG", int, 0)
    s["DEBUG_PRINT_AFTER"] = read("NUMBA_DEBUG_PRINT_AFTER", str, "none")
    s["DEBUG_PRINT_BEFORE"] = read("NUMBA_DEBUG_PRINT_BEFORE", str, "none")
    s["DEBUG_PRINT_WRAP"] = read("NUMBA_DEBUG_PRINT_WRAP", str, "none")
    s["HIGHLIGHT_DUMPS"] = read("NUMBA_HIGHLIGHT_DUMPS", int, 0)
    s["DEBUG_JIT"] = read("NUMBA_DEBUG_JIT", int, 0)
    s["DEBUG_FRONTEND"] = frontend = read("NUMBA_DEBUG_FRONTEND", int, 0)
    s["DEBUG_NRT"] = read("NUMBA_DEBUG_NRT", int, 0)
    s["NRT_STATS"] = read("NUMBA_NRT_STATS", int, 0)
    s["FUNCTION_CACHE_SIZE"] = read("NUMBA_FUNCTION_CACHE_SIZE", int, 128)
    s["PARFOR_MAX_TUPLE_SIZE"] = read("NUMBA_PARFOR_MAX_TUPLE_SIZE", int, 100)
    s["DEBUG_CACHE"] = read("NUMBA_DEBUG_CACHE", int, debug)
    s["CACHE_DIR"] = read("NUMBA_CACHE_DIR", str, "")
    s["TRACE"] = read("NUMBA_TRACE", int, 0)
    s["CHROME_TRACE"] = read("NUMBA_CHROME_TRACE", str, "")
    s["DEBUG_TYPEINFER"] = read("NUMBA_DEBUG_TYPEINFER", int, 0)
    s["CPU_NAME"] = read("NUMBA_CPU_NAME", optional_str, None)
    s["CPU_FEATURES"] = read("NUMBA_CPU_FEATURES", optional_str,
                             "" if str(s["CPU_NAME"]).lower() == "generic" else None)
    s["OPT"] = read("NUMBA_OPT", _opt_level, _OptLevel(3))
    s["DUMP_BYTECODE"] = read("NUMBA_DUMP_BYTECODE", int, frontend)
    s["DUMP_CFG"] = read("NUMBA_DUMP_CFG", int, frontend)
    s["DUMP_IR"] = read("NUMBA_DUMP_IR", int, frontend)
    s["DUMP_SSA"] = read("NUMBA_DUMP_SSA", int, frontend or s["DEBUG_TYPEINFER"])
    s["DEBUG_ARRAY_OPT"] = read("NUMBA_DEBUG_ARRAY_OPT", int, 0)
    s["DEBUG_ARRAY_OPT_RUNTIME"] = read("NUMBA_DEBUG_ARRAY_OPT_RUNTIME", int, 0)
    s["DEBUG_ARRAY_OPT_STATS"] = read("NUMBA_DEBUG_ARRAY_OPT_STATS", int, 0)
    s["PARALLEL_DIAGNOSTICS"] = read("NUMBA_PARALLEL_DIAGNOSTICS", int, 0)
    s["DEBUG_INLINE_CLOSURE"] = read("NUMBA_DEBUG_INLINE_CLOSURE", int, 0)
    s["DUMP_LLVM"] = read("NUMBA_DUMP_LLVM", int, debug)
    s["DUMP_FUNC_OPT"] = read("NUMBA_DUMP_FUNC_OPT", int, debug)
    s["DUMP_OPTIMIZED"] = read("NUMBA_DUMP_OPTIMIZED", int, debug)
    s["LOOP_VECTORIZE"] = read("NUMBA_LOOP_VECTORIZE", int, 1)
    s["SLP_VECTORIZE"] = read("NUMBA_SLP_VECTORIZE", int, 0)
    s["DUMP_ASSEMBLY"] = read("NUMBA_DUMP_ASSEMBLY", int, debug)
    s["ANNOTATE"] = read("NUMBA_DUMP_ANNOTATION", int, 0)
    s["DIFF_IR"] = read("NUMBA_DIFF_IR", int, 0)
    s["HTML"] = read("NUMBA_DUMP_HTML", html_path, None)
    s["ENABLE_AVX"] = read("NUMBA_ENABLE_AVX", int, _os_supports_avx)
    s["DISABLE_INTEL_SVML"] = read("NUMBA_DISABLE_INTEL_SVML", int, IS_32BITS)
    s["DISABLE_JIT"] = read("NUMBA_DISABLE_JIT", int, 0)
    s["THREADING_LAYER_PRIORITY"] = read("NUMBA_THREADING_LAYER_PRIORITY", lambda x: x.split(),
                                         ["tbb", "omp", "workqueue"])
    s["THREADING_LAYER"] = read("NUMBA_THREADING_LAYER", str, "default")
    s["CUDA_WARN_ON_IMPLICIT_COPY"] = read("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", int, 1)
    s["FORCE_CUDA_CC"] = read("NUMBA_FORCE_CUDA_CC", _parse_cc, None)
    # numba-cuda raises numba's (5, 0) default to (7, 5) when it is imported.
    s["CUDA_DEFAULT_PTX_CC"] = max(read("NUMBA_CUDA_DEFAULT_PTX_CC", _parse_cc, (5, 0)) or (5, 0), (7, 5))
    s["DISABLE_CUDA"] = read("NUMBA_DISABLE_CUDA", int, int(MACHINE_BITS == 32))
    s["ENABLE_CUDASIM"] = 0  # cuhost is never numba-cuda's simulator, whatever NUMBA_ENABLE_CUDASIM says
    s["CUDA_LOG_LEVEL"] = read("NUMBA_CUDA_LOG_LEVEL", str, "")
    s["CUDA_LOG_API_ARGS"] = read("NUMBA_CUDA_LOG_API_ARGS", int, 0)
    s["CUDA_DEALLOCS_COUNT"] = read("NUMBA_CUDA_MAX_PENDING_DEALLOCS_COUNT", int, 10)
    s["CUDA_DEALLOCS_RATIO"] = read("NUMBA_CUDA_MAX_PENDING_DEALLOCS_RATIO", float, 0.2)
    s["CUDA_ARRAY_INTERFACE_SYNC"] = read("NUMBA_CUDA_ARRAY_INTERFACE_SYNC", int, 1)
    s["CUDA_DRIVER"] = read("NUMBA_CUDA_DRIVER", str, "")
    s["CUDA_LOG_SIZE"] = read("NUMBA_CUDA_LOG_SIZE", int, 1024)
    s["CUDA_VERBOSE_JIT_LOG"] = read("NUMBA_CUDA_VERBOSE_JIT_LOG", int, 1)
    s["CUDA_PER_THREAD_DEFAULT_STREAM"] = read("NUMBA_CUDA_PER_THREAD_DEFAULT_STREAM", int, 0)
    s["CUDA_INCLUDE_PATH"] = read("NUMBA_CUDA_INCLUDE_PATH", str, _os.path.join(_os.sep, "usr", "local", "cuda",
                                                                              "include"))
    s["NUMBA_DEFAULT_NUM_THREADS"] = _default_threads()
    s["NUMBA_NUM_THREADS"] = read("NUMBA_NUM_THREADS", int, s["NUMBA_DEFAULT_NUM_THREADS"])
    s["ENABLE_SYS_MONITORING"] = read("NUMBA_ENABLE_SYS_MONITORING", int, 0)
    s["RUNNING_UNDER_PROFILER"] = "VS_PROFILER" in _os.environ
    s["ENABLE_PROFILING"] = read("NUMBA_ENABLE_PROFILING", int, int(s["RUNNING_UNDER_PROFILER"]))
    s["DEBUGINFO_DEFAULT"] = read("NUMBA_DEBUGINFO", int, s["ENABLE_PROFILING"])
    s["CUDA_DEBUGINFO_DEFAULT"] = read("NUMBA_CUDA_DEBUGINFO", int, 0)
    s["EXTEND_VARIABLE_LIFETIMES"] = read("NUMBA_EXTEND_VARIABLE_LIFETIMES", int, 0)
    s["GDB_BINARY"] = read("NUMBA_GDB_BINARY", which_gdb, "gdb")
    s["CUDA_MEMORY_MANAGER"] = read("NUMBA_CUDA_MEMORY_MANAGER", str, "default")
    s["LLVM_REFPRUNE_PASS"] = read("NUMBA_LLVM_REFPRUNE_PASS", int, 1)
    s["LLVM_REFPRUNE_FLAGS"] = read("NUMBA_LLVM_REFPRUNE_FLAGS", str, "all" if s["LLVM_REFPRUNE_PASS"] else "")
    s["USE_LLVMLITE_MEMORY_MANAGER"] = read("NUMBA_USE_LLVMLITE_MEMORY_MANAGER", int, None)
    s["LLVM_PASS_TIMINGS"] = read("NUMBA_LLVM_PASS_TIMINGS", int, 0)
    s["JIT_COVERAGE"] = read("NUMBA_JIT_COVERAGE", int, 0)
    # Settings numba-cuda reads with getattr(config, NAME, default) (numba's
    # config defines them): the NRT, polymorphic debug info, NVRTC's paths.
    s["CUDA_ENABLE_NRT"] = read("NUMBA_CUDA_ENABLE_NRT", bool, False)
    s["CUDA_NRT_STATS"] = read("NUMBA_CUDA_NRT_STATS", bool, False)
    s["CUDA_DEBUG_POLY"] = read("NUMBA_CUDA_DEBUG_POLY", int, 0)
    s["CUDA_DEBUG_POLY_USE_TYPED_CONST"] = read("NUMBA_CUDA_DEBUG_POLY_USE_TYPED_CONST", int, 1)
    s["CUDA_NVRTC_EXTRA_SEARCH_PATHS"] = read("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", str, "")
    return s


class _Reloader:
    """Applies the settings to this module when the NUMBA_* environment changed."""

    def __init__(self):
        self.old_environ = None

    def update(self, force=False):
        environ = _environment()
        if force or environ != self.old_environ:
            module = _sys.modules[__name__]
            for name, value in _settings(environ).items():
                module.__dict__[name] = value  # not through _Config.__setattr__: no mirroring back
            self.old_environ = environ
            _push_engine_settings()


def _push_engine_settings():
    """Hands the settings the C++ runtime reads to it: the limits of the
    pending-deallocation queues (CUDA_DEALLOCS_COUNT, CUDA_DEALLOCS_RATIO)."""

    module = _sys.modules[__name__]
    _cuhost._set_pending_free_limits(int(module.CUDA_DEALLOCS_COUNT), float(module.CUDA_DEALLOCS_RATIO))


_ENGINE_SETTINGS = ("CUDA_DEALLOCS_COUNT", "CUDA_DEALLOCS_RATIO")

_env_reloader = _Reloader()
_env_reloader.update(force=True)


def reload_config():
    """Read the configuration again from the environment, if it changed."""
    _env_reloader.update()


# Assignments at run time (numba.cuda.config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ...)
# are mirrored into the environment, which is where cuhost's C++ side reads
# them when it compiles foreign code.
_ENVIRONMENT_NAMES = {
    "CUDA_NVRTC_EXTRA_SEARCH_PATHS": "NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS",
    "CUDA_INCLUDE_PATH": "NUMBA_CUDA_INCLUDE_PATH",
}


class _Config(type(_os)):
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in _ENGINE_SETTINGS:
            _push_engine_settings()
        env = _ENVIRONMENT_NAMES.get(name)
        if env is not None:
            if value:
                _os.environ[env] = str(value)
            else:
                _os.environ.pop(env, None)
            _env_reloader.old_environ = _environment()  # the mirrored value is not a change to reload


_sys.modules[__name__].__class__ = _Config
