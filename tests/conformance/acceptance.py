"""Module groups of the conformance suite that the project tracks as goals,
and their ratios against numba-cuda's passes.

Each group is a list of module patterns (fnmatch, relative to
numba/cuda/tests); `run.py acceptance` prints, per group, the tests
numba-cuda passes, the tests cuhost passes of those (per run given), the
ratio, and whether it meets the group's goal on that backend.
"""
import fnmatch

# (name, goal on the CUDA backend, goal on the CPU backend, module patterns)
GROUPS = [
    ("API surface: dispatcher, compile and host API", 0.95, 0.90, [
        "core/test_serialize.py", "cudapy/test_serialize.py", "cudapy/test_cuda_array_interface.py",
        "cudapy/test_array_args.py", "cudapy/test_device_array_capture.py",
        "cudapy/test_retrieve_autoconverted_arrays.py", "cudapy/test_stream_api.py", "cudapy/test_multithreads.py",
        "cudapy/test_multiprocessing.py", "cudapy/test_warning.py", "doc_examples/test_ffi.py",
        "doc_examples/test_cpointer.py", "cudapy/test_cffi.py", "cudapy/test_device_func.py",
        "cudapy/test_compiler.py", "cudadrv/test_linkable_code.py", "cudadrv/test_linker.py",
        "cudadrv/test_module_callbacks.py", "cudadrv/test_nvjitlink.py"]),
    ("Universal functions", 0.95, 0.90, [
        "cudapy/test_vectorize*.py", "cudapy/test_gufunc*.py", "cudapy/test_ufuncs.py", "cudapy/test_reduction.py",
        "cudapy/test_forall.py", "doc_examples/test_ufunc.py", "doc_examples/test_reduction.py"]),
    ("Data types and numba.cuda.random", 0.95, 0.90, [
        "cudapy/test_bfloat16*.py", "cudapy/test_fp8_bindings.py", "cudapy/test_cupy_bfloat16_interop.py",
        "cudadrv/test_is_fp16.py", "cudapy/test_alignment.py", "cudapy/test_record_dtype.py",
        "cudapy/test_vector_type.py", "cudapy/test_enums.py", "cudapy/test_datetime.py",
        "cudapy/test_const_string.py", "cudapy/test_casting.py", "cudapy/test_complex.py", "cudapy/test_random.py",
        "doc_examples/test_random.py", "cudapy/test_montecarlo.py", "doc_examples/test_montecarlo.py"]),
    ("Kernel language and device API", 0.95, 0.90, [
        "cudapy/test_flow_control.py", "cudapy/test_exception.py", "cudapy/test_userexc.py",
        "cudapy/test_recursion.py", "cudapy/test_iterators.py", "cudapy/test_lang.py", "cudapy/test_operator.py",
        "cudapy/test_math.py", "cudapy/test_libdevice.py", "cudapy/test_intrinsics.py", "cudapy/test_atomics.py",
        "cudapy/test_warp_ops.py", "cudapy/test_sync.py", "cudapy/test_cooperative_groups.py",
        "doc_examples/test_cg.py", "cudapy/test_extending.py", "cudapy/test_overload.py",
        "cudapy/test_frexp_ldexp.py", "cudapy/test_minmax.py", "cudapy/test_powi.py", "cudapy/test_localmem.py",
        "cudapy/test_constmem.py", "cudapy/test_sm.py", "cudapy/test_sm_creation.py", "cudapy/test_slicing.py",
        "cudapy/test_array.py", "cudapy/test_array_methods.py", "cudapy/test_array_reductions.py",
        "cudapy/test_inline.py"]),
]


def modules_of(patterns, modules):
    return sorted(m for m in modules if any(fnmatch.fnmatch(m, p) for p in patterns))


def report(reference, runs, passed):
    """reference: {module: {test: outcome}} of numba-cuda; runs: [(backend,
    {module: {test: outcome}})]; passed: the outcome that counts. Returns the
    report's lines and whether every group meets its goals."""
    lines = []
    all_met = True
    for name, gpu_goal, cpu_goal, patterns in GROUPS:
        modules = modules_of(patterns, reference)
        lines.append("## %s" % name)
        lines.append("")
        lines.append("| module | numba-cuda passes | " + " | ".join("cuhost %s" % b for b, _ in runs) + " |")
        lines.append("|---|---:|" + "---:|" * len(runs))
        ref_total = 0
        totals = [0] * len(runs)
        for m in modules:
            ref_pass = {t for t, o in reference[m].items() if o == passed}
            ref_total += len(ref_pass)
            cells = []
            for i, (_, res) in enumerate(runs):
                n = len({t for t, o in res.get(m, {}).items() if o == passed} & ref_pass)
                totals[i] += n
                cells.append(str(n))
            lines.append("| %s | %d | %s |" % (m, len(ref_pass), " | ".join(cells)))
        cells = []
        for (backend, _), n in zip(runs, totals):
            goal = gpu_goal if backend == "cuda" else cpu_goal
            ratio = n / ref_total if ref_total else 1.0
            met = ratio >= goal
            all_met = all_met and met
            cells.append("**%d (%.1f%%, goal %d%%: %s)**" % (n, 100 * ratio, round(100 * goal),
                                                              "met" if met else "not met"))
        lines.append("| **total** | **%d** | %s |" % (ref_total, " | ".join(cells)))
        lines.append("")
    return lines, all_met
