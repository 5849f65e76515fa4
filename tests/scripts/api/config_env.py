# numba.cuda.config has every setting of numba-cuda 0.30's configuration,
# read from the same NUMBA_* environment variables with the same defaults;
# reload_config() reads them again, and ENABLE_CUDASIM stays False in cuhost.
# env: NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0
# env: NUMBA_OPT=max
# env: NUMBA_CUDA_DEFAULT_PTX_CC=8.6
# env: NUMBA_ENABLE_CUDASIM=1
# env: NUMBA_CUDA_ENABLE_NRT=1
# env: NUMBA_DEBUG=1
# env: NUMBA_CUDA_MEMORY_MANAGER=mymodule
# stdout: config ok
import os

from numba.cuda import config

# Every name numba-cuda's config module defines (and the ones it reads with
# getattr(config, NAME, default) from numba's).
NAMES = """
    IS_WIN32 IS_OSX MACHINE_BITS IS_32BITS PYVERSION DEVELOPER_MODE DISABLE_PERFORMANCE_WARNINGS FULL_TRACEBACKS
    SHOW_HELP COLOR_SCHEME BOUNDSCHECK ALWAYS_WARN_UNINIT_VAR CUDA_LOW_OCCUPANCY_WARNINGS CUDA_USE_NVIDIA_BINDING
    DEBUG DEBUG_PRINT_AFTER DEBUG_PRINT_BEFORE DEBUG_PRINT_WRAP HIGHLIGHT_DUMPS DEBUG_JIT DEBUG_FRONTEND DEBUG_NRT
    NRT_STATS FUNCTION_CACHE_SIZE PARFOR_MAX_TUPLE_SIZE DEBUG_CACHE CACHE_DIR TRACE CHROME_TRACE DEBUG_TYPEINFER
    CPU_NAME CPU_FEATURES OPT DUMP_BYTECODE DUMP_CFG DUMP_IR DUMP_SSA DEBUG_ARRAY_OPT DEBUG_ARRAY_OPT_RUNTIME
    DEBUG_ARRAY_OPT_STATS PARALLEL_DIAGNOSTICS DEBUG_INLINE_CLOSURE DUMP_LLVM DUMP_FUNC_OPT DUMP_OPTIMIZED
    LOOP_VECTORIZE SLP_VECTORIZE DUMP_ASSEMBLY ANNOTATE DIFF_IR HTML ENABLE_AVX DISABLE_INTEL_SVML DISABLE_JIT
    THREADING_LAYER_PRIORITY THREADING_LAYER CUDA_WARN_ON_IMPLICIT_COPY FORCE_CUDA_CC CUDA_DEFAULT_PTX_CC
    DISABLE_CUDA ENABLE_CUDASIM CUDA_LOG_LEVEL CUDA_LOG_API_ARGS CUDA_DEALLOCS_COUNT CUDA_DEALLOCS_RATIO
    CUDA_ARRAY_INTERFACE_SYNC CUDA_DRIVER CUDA_LOG_SIZE CUDA_VERBOSE_JIT_LOG CUDA_PER_THREAD_DEFAULT_STREAM
    CUDA_INCLUDE_PATH NUMBA_DEFAULT_NUM_THREADS NUMBA_NUM_THREADS ENABLE_SYS_MONITORING RUNNING_UNDER_PROFILER
    ENABLE_PROFILING DEBUGINFO_DEFAULT CUDA_DEBUGINFO_DEFAULT EXTEND_VARIABLE_LIFETIMES GDB_BINARY
    CUDA_MEMORY_MANAGER LLVM_REFPRUNE_PASS LLVM_REFPRUNE_FLAGS USE_LLVMLITE_MEMORY_MANAGER LLVM_PASS_TIMINGS
    JIT_COVERAGE CUDA_ENABLE_NRT CUDA_NRT_STATS CUDA_DEBUG_POLY CUDA_DEBUG_POLY_USE_TYPED_CONST
    CUDA_NVRTC_EXTRA_SEARCH_PATHS
""".split()
missing = [n for n in NAMES if not hasattr(config, n)]
assert not missing, missing

# Values from the environment given above.
assert config.CUDA_LOW_OCCUPANCY_WARNINGS == 0
assert config.OPT == 3 and config.OPT.is_opt_max, repr(config.OPT)
assert config.CUDA_DEFAULT_PTX_CC == (8, 6), config.CUDA_DEFAULT_PTX_CC
assert config.ENABLE_CUDASIM == 0, config.ENABLE_CUDASIM  # cuhost is never the simulator
assert config.CUDA_ENABLE_NRT is True
assert config.DEBUG == 1 and config.DUMP_LLVM == 1 and config.DEBUG_CACHE == 1  # defaults that follow NUMBA_DEBUG
assert config.CUDA_MEMORY_MANAGER == "mymodule"

# numba-cuda's defaults where nothing is set.
assert config.CUDA_WARN_ON_IMPLICIT_COPY == 1
assert config.CUDA_DEBUGINFO_DEFAULT == 0 and config.DEBUGINFO_DEFAULT == 0
assert config.CUDA_ARRAY_INTERFACE_SYNC == 1 and config.CUDA_LOG_SIZE == 1024 and config.CUDA_DEALLOCS_RATIO == 0.2
assert config.FORCE_CUDA_CC is None and config.COLOR_SCHEME == "no_color" and config.CUDA_PER_THREAD_DEFAULT_STREAM == 0

# reload_config() picks up environment changes; a bad value warns and keeps the default.
os.environ["NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS"] = "1"
os.environ["NUMBA_FORCE_CUDA_CC"] = "9.0"
del os.environ["NUMBA_CUDA_MEMORY_MANAGER"]
config.reload_config()
assert config.CUDA_LOW_OCCUPANCY_WARNINGS == 1 and config.FORCE_CUDA_CC == (9, 0)
assert config.CUDA_MEMORY_MANAGER == "default"
import warnings  # noqa: E402
os.environ["NUMBA_CUDA_LOG_SIZE"] = "lots"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    config.reload_config()
assert config.CUDA_LOG_SIZE == 1024 and any("NUMBA_CUDA_LOG_SIZE" in str(w.message) for w in caught), caught
try:
    os.environ["NUMBA_OPT"] = "7"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        config.reload_config()
    assert config.OPT == 3 and any("NUMBA_OPT" in str(w.message) for w in caught)
finally:
    del os.environ["NUMBA_OPT"]

# Run-time assignments still reach the foreign-code compiler's environment.
config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = "/x:/y"
assert os.environ["NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS"] == "/x:/y"
config.reload_config()  # the mirrored value reads back the same
assert config.CUDA_NVRTC_EXTRA_SEARCH_PATHS == "/x:/y"
print("config ok")
