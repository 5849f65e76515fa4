"""Timing for scripted benchmarks, and the `cuhost bench` runner.

Benchmark scripts use this module through ``scripts/bench/_harness.py`` so
the same script runs under ``cuhost run`` and under plain ``python3`` with
numba-cuda: nothing here depends on cuhost itself (only on ``numba.cuda``'s
public API), and the runner part is only used inside cuhost.

    from _harness import bench
    r = bench.measure(lambda: saxpy[blocks, threads](a, x, y, out), name="saxpy",
                      bytes=12 * n, repeats=20)
    bench.report(r)

GPU work is timed with CUDA events on the default stream (warm-up runs
first); CPU work with ``time.perf_counter``. A result holds every sample, the
median and the 10th/90th percentiles, and throughput when bytes or flops are
given. ``report`` prints a line for people and a machine-readable
``CUHOST-BENCH {json}`` line that ``cuhost bench`` collects.
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

MARKER = "CUHOST-BENCH "


def _cuda():
    # Lazy: `cuhost bench` (the driver that runs scripts) never needs numba.cuda.
    from numba import cuda

    return cuda


def system_name():
    """'cuhost' inside the cuhost host, else 'numba-cuda' (or 'numba-cuda-sim' under the simulator)."""
    try:
        # Optional: the bench driver also runs under a plain Python without cuhost.
        import _cuhost  # noqa: F401
        return "cuhost"
    except ImportError:
        return "numba-cuda-sim" if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" else "numba-cuda"


def backend_name():
    cuda = _cuda()
    if system_name() == "cuhost":
        return cuda.backend()
    return "sim" if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" else "cuda"


def kernels_run():
    """False under cuhost's null driver (tests/null_driver), where launches
    cost only their host side and kernels do not run."""
    if not _on_gpu():
        return True
    name = _cuda().get_current_device().name
    return (name.decode() if isinstance(name, bytes) else name) != "cuhost null driver"


def _on_gpu():
    return backend_name() == "cuda"


def _percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    k = (len(sorted_values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def _summarize(name, samples_ms, bytes=None, flops=None, elements=None, unit="ms", extra=None):
    s = sorted(samples_ms)
    med = statistics.median(s)
    r = {"name": name, "system": system_name(), "backend": backend_name(), "unit": unit,
         "samples": samples_ms, "median": med, "p10": _percentile(s, 0.1), "p90": _percentile(s, 0.9),
         "min": s[0]}
    seconds = med * (1e-3 if unit == "ms" else 1e-6)
    if bytes:
        r["GBps"] = bytes / seconds / 1e9
    if flops:
        r["GFLOPs"] = flops / seconds / 1e9
    if elements:
        r["ns_per_element"] = seconds * 1e9 / elements
    if extra:
        r.update(extra)
    return r


def measure(fn, name, warmup=2, repeats=10, bytes=None, flops=None, elements=None, sync=True, calls=1):
    """Time `fn()` (which launches work) `repeats` times after `warmup` runs.

    On a GPU each sample is the CUDA-event time of `calls` back-to-back calls
    on the default stream, divided by `calls`; elsewhere it is wall time
    including synchronization. With calls > 1 a call's host work overlaps
    the previous call's kernels, so the figure is the device time per call
    wherever the host keeps up (the throughput of repeated calls).
    """
    cuda = _cuda()
    for _ in range(warmup):
        fn()
    if sync:
        cuda.synchronize()
    samples = []
    if _on_gpu():
        start, stop = cuda.event(timing=True), cuda.event(timing=True)
        for _ in range(repeats):
            start.record()
            for _ in range(calls):
                fn()
            stop.record()
            stop.synchronize()
            samples.append(cuda.event_elapsed_time(start, stop) / calls)
    else:
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            if sync:
                cuda.synchronize()
            samples.append((time.perf_counter() - t0) * 1e3 / calls)
    return _summarize(name, samples, bytes=bytes, flops=flops, elements=elements,
                      extra={"calls_per_sample": calls} if calls > 1 else None)


def per_call(fn, name, calls=20000, rounds=5, warmup=1000):
    """Average host-side cost of one call of `fn` in microseconds (launch
    overhead): `calls` back-to-back calls then one synchronize, `rounds` times."""
    cuda = _cuda()
    for _ in range(warmup):
        fn()
    cuda.synchronize()
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        cuda.synchronize()
        samples.append((time.perf_counter() - t0) / calls * 1e6)
    return _summarize(name, samples, unit="us")


def once(fn, name):
    """Wall time of a single call (e.g. the first call, which compiles), in ms."""
    cuda = _cuda()
    t0 = time.perf_counter()
    fn()
    cuda.synchronize()
    return _summarize(name, [(time.perf_counter() - t0) * 1e3])


def report(result, file=None):
    """Print a human line and the machine-readable line for `cuhost bench`."""
    out = file or sys.stdout
    extra = ""
    for key, fmt in (("GBps", " %.1f GB/s"), ("GFLOPs", " %.1f GFLOP/s"), ("ns_per_element", " %.3f ns/elem")):
        if key in result:
            extra += fmt % result[key]
    print("%-40s %-14s %10.4f %s (p10 %.4f, p90 %.4f)%s" % (
        result["name"], result["system"] + "/" + result["backend"], result["median"], result["unit"],
        result["p10"], result["p90"], extra), file=out)
    print(MARKER + json.dumps(result), file=out)
    out.flush()


# --------------------------------------------------------------------------
# `cuhost bench [SCRIPTS...]`: run benchmark scripts, collect, tabulate.

def _machine():
    info = {"platform": platform.platform(), "cpu_count": os.cpu_count(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    try:
        # Optional: the bench driver also runs under a plain Python without cuhost.
        import _cuhost
        info["versions"] = _cuhost.versions()
        info["gpus"] = [d["name"] for d in _cuhost.devices()]
        info["backend"] = _cuhost.backend()
    except Exception as e:  # pragma: no cover - outside cuhost
        info["error"] = str(e)
    return info


def _discover(args):
    scripts = []
    for a in args or [os.path.join("scripts", "bench")]:
        if os.path.isdir(a):
            scripts += sorted(os.path.join(a, f) for f in os.listdir(a)
                              if f.startswith("bench_") and f.endswith(".py"))
        else:
            scripts.append(a)
    return scripts


def _run_script(exe, script, extra_args):
    script = os.path.abspath(script)
    cmd = [exe, *extra_args, "run", script]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(os.path.abspath(script)) or None)
    results = []
    for line in p.stdout.splitlines():
        if line.startswith(MARKER):
            r = json.loads(line[len(MARKER):])
            r["script"] = os.path.basename(script)
            results.append(r)
    return p, results, time.perf_counter() - t0


def _table(results):
    lines = ["%-28s %-40s %-16s %12s %12s %12s" % ("script", "benchmark", "system", "median", "p10", "p90")]
    for r in results:
        lines.append("%-28s %-40s %-16s %10.4f%s %10.4f%s %10.4f%s%s" % (
            r["script"], r["name"], r["system"] + "/" + r["backend"], r["median"], r["unit"][:2], r["p10"],
            r["unit"][:2], r["p90"], r["unit"][:2],
            (" %.1f GB/s" % r["GBps"]) if "GBps" in r else ""))
    return "\n".join(lines)


def _chart(results, path):
    try:
        # Optional: the chart is drawn only where matplotlib is installed.
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = [r["script"] + ":" + r["name"] for r in results]
    values = [r["median"] for r in results]
    fig, ax = plt.subplots(figsize=(10, 0.35 * len(names) + 1))
    ax.barh(names, values)
    ax.set_xlabel("median (ms or us, see table)")
    fig.tight_layout()
    fig.savefig(path)
    return True


def main(argv):
    ap = argparse.ArgumentParser(prog="cuhost bench", description="Run benchmark scripts and tabulate them.")
    ap.add_argument("--output", help="write JSON results here (default bench-results.json)")
    ap.add_argument("--backend", default=None, help="backend for the scripts (default: the host's)")
    ap.add_argument("scripts", nargs="*")
    opts = ap.parse_args(argv)
    exe = os.path.realpath("/proc/self/exe")
    if exe.endswith(".bin"):
        exe = exe[:-4]
    extra = ["--backend", opts.backend or _cuda().backend()]
    scripts = _discover(opts.scripts)
    if not scripts:
        print("cuhost bench: no benchmark scripts found (bench_*.py)", file=sys.stderr)
        return 2
    all_results, failures = [], []
    for k, script in enumerate(scripts, 1):
        print("[%d/%d] %s ..." % (k, len(scripts), script), file=sys.stderr, flush=True)
        p, results, secs = _run_script(exe, script, extra)
        print("[%d/%d] %s: %d results in %.1f s%s" % (k, len(scripts), script, len(results), secs,
                                                       "" if p.returncode == 0 else " (exit %d)" % p.returncode),
              file=sys.stderr, flush=True)
        if p.returncode != 0:
            failures.append((script, p.stderr.strip().splitlines()[-5:]))
        all_results += results
    print(_table(all_results))
    out = opts.output or "bench-results.json"
    with open(out, "w") as f:
        json.dump({"machine": _machine(), "results": all_results}, f, indent=1)
    print("results written to %s" % out)
    if _chart(all_results, os.path.splitext(out)[0] + ".png"):
        print("chart written to %s" % (os.path.splitext(out)[0] + ".png"))
    for script, tail in failures:
        print("FAILED: %s\n  %s" % (script, "\n  ".join(tail)), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
