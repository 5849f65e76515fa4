"""Which of numba-cuda's test modules measure cuhost, and which do not.

Every test module of numba-cuda 0.30.4's wheel is in the denominator except
those listed in OUT_OF_SCOPE: modules that test numba's *internal* compiler
(its bytecode analysis, Numba IR and its passes, SSA, copy propagation, the
internals of its type inference and type conversion, event tracing), the CUDA
simulator, numba-cuda's own packaging, and benchmarks. cuhost has its own
compiler (a C++ type inference over a Python AST, LLVM lowering); what those
modules check are the intermediate data structures of another compiler, which
no user script can observe through the numba.cuda API. A module is out of
scope for what it tests, never because cuhost fails it; so is a single test
of an in-scope module (OUT_OF_SCOPE_TESTS) that checks numba's internals.
"""

NUMBA_VERSION = "0.30.4"

OUT_OF_SCOPE = {
    # numba's compiler internals
    "cudapy/test_analysis.py": "numba IR analysis passes (dead branch pruning on numba.core.ir)",
    "cudapy/test_byteflow.py": "numba's bytecode flow analysis (numba.cuda.core.byteflow)",
    "cudapy/test_copy_propagate.py": "copy propagation over Numba IR",
    "cudapy/test_ir.py": "the Numba IR data structures (ir.Loc, ir.Var, ir.Block equality)",
    "cudapy/test_ir_utils.py": "Numba IR utilities (find_callname, dead code elimination on IR)",
    "cudapy/test_ssa.py": "numba's SSA reconstruction pass over Numba IR",
    "cudapy/test_typeinfer.py": "numba's type-inference engine internals (TypeVar, unification, constraint objects)",
    "cudapy/test_typeconv.py": "numba's type-conversion rule tables (typeconv.TypeManager, casting graph)",
    "cudapy/test_tracing.py": "numba's internal event tracing of compiler stages (numba.core.event)",
    "nocuda/test_function_resolution.py": "numba's typing-registry resolution internals (templates, registries)",
    "core/test_itanium_mangler.py": "numba's Itanium name mangler used for its own symbol names",
    "cudadrv/test_nvvm_driver.py": "NVVM, numba-cuda's code generator; cuhost generates PTX with LLVM's NVPTX",
    "nocuda/test_nvvm.py": "NVVM bindings of numba-cuda (cuhost does not use NVVM)",
    # the simulator, packaging and benchmarks
    "cudasim/test_cudasim_issues.py": "the CUDA simulator (ENABLE_CUDASIM), which cuhost replaces by its CPU backend",
    "nocuda/test_library_lookup.py": "numba-cuda's search for CUDA libraries in conda/pip environments",
    "nocuda/test_cache_version.py": "the key and file format of numba-cuda's on-disk cache index classes (core.caching)",
    "nocuda/test_import.py": "which of numba-cuda's own modules an import loads (its package internals)",
    "benchmarks/test_kernel_launch.py": "a pytest-benchmark timing; speed is measured in scripts/bench, not here",
}


# Single tests of in-scope modules that check numba's compiler internals
# rather than what a script observes: they stay in the module's run (and in
# its log) but count in no denominator. One line per test, with the reason.
OUT_OF_SCOPE_TESTS = {
    "cudapy/test_inline.py::TestCudaInline::test_call_inline_costmodel_false":
        "inline=<cost model>: numba calls it with Numba IR nodes (ir.Expr, func_ir, typemap)",
    "cudapy/test_inline.py::TestCudaInline::test_call_inline_costmodel_true":
        "inline=<cost model>: numba calls it with Numba IR nodes (ir.Expr, func_ir, typemap)",
    "cudapy/test_caching.py::LaunchConfigSensitiveCachingTest::"
    "test_launch_config_sensitive_compile_requires_active_launch_config":
        "a Numba IR rewrite pass registered with numba.cuda.core.rewrites.register_rewrite",
    "cudapy/test_caching.py::TestCUDACodeLibrary::test_cannot_serialize_unfinalized":
        "numba's CUDACodeLibrary (its llvmlite module container) and its finalization state",
    "cudapy/test_extending.py::TestNumbaInternalOverloads::test_signatures_match_overloaded_api":
        "walks the registries of numba's CUDATypingContext (numba.cuda.target) for its own overload templates",
    "cudapy/test_const_string.py::TestConstStringCodegen::test_const_string":
        "numba's lowering context (cuda_target.target_context.make_constant_utf8 on an llvmlite IRBuilder)",
}


def in_scope(module_path):
    """module_path: 'cudapy/test_x.py', relative to numba/cuda/tests."""
    return module_path not in OUT_OF_SCOPE


def test_in_scope(test_id):
    """test_id: 'cudapy/test_x.py::Class::test_y'."""
    return in_scope(test_id.split("::", 1)[0]) and test_id not in OUT_OF_SCOPE_TESTS
