"""What --kernel-timeout costs GPU kernels: loop-heavy kernels (a grid-stride
reduction and a loop of transcendentals) timed in two child processes, one
without the option and one with it (cancellation points in every loop, and
each launch waiting for its stream under the watchdog). Goal: the run with
the option takes at most 1/0.98 of the time without.

    python3 scripts/bench/deadline_overhead.py [--cuhost build/bin/cuhost] [--backend cuda] [--small]

(--small: sizes for a quick check that the script runs, e.g. on --backend cpu,
where the numbers are those of the CPU backend's own cancellation points.)

The children run `cuhost --backend cuda [--kernel-timeout 60] run` on this
file with --child, print one line per kernel (median seconds per launch over
repetitions) and the parent prints the ratios.

A third child, with no option, times the per-launch form in one process:
each kernel without a deadline, then inside `cuhost.kernel_deadline(60)`
(the variant with cancellation points, compiled at its first launch there),
then without again (the first variant: the other's existence must cost it
nothing)."""
import argparse
import math  # the child's kernels call math.sin and math.exp
import os
import subprocess
import sys

KERNELS = ("reduction", "transcendental")


def child(small, per_launch=False):
    import contextlib
    import time

    import numpy as np

    from numba import cuda

    @cuda.jit
    def reduction(out, x, reps):
        start = cuda.grid(1)
        stride = cuda.gridsize(1)
        acc = 0.0
        for r in range(reps):
            for i in range(start, x.size, stride):
                acc += x[i] * x[i] + r
        cuda.atomic.add(out, 0, acc)

    @cuda.jit
    def transcendental(out, x, steps):
        i = cuda.grid(1)
        if i < x.size:
            v = x[i]
            acc = 0.0
            for k in range(steps):
                acc += math.sin(v + k * 1e-3) * math.exp(-v * 1e-2)
            out[i] = acc

    rng = np.random.default_rng(7)
    # Kernels of a few milliseconds each, so the wait each launch makes under
    # the option (tens of microseconds) stays below 1% of the time.
    n_sum, reps, n_map, steps = (1 << 16, 2, 1 << 10, 64) if small else (1 << 26, 40, 1 << 20, 2048)
    x = cuda.to_device(rng.standard_normal(n_sum).astype(np.float32))
    acc = cuda.to_device(np.zeros(1, np.float64))
    y = cuda.to_device(rng.standard_normal(n_map).astype(np.float32))
    z = cuda.device_array(n_map, np.float32)
    runs = {
        "reduction": lambda: reduction[264 * 4, 256](acc, x, reps),
        "transcendental": lambda: transcendental[n_map // 256, 256](z, y, steps),
    }
    def median_time(run):
        run()  # compile and load
        cuda.synchronize()
        times = []
        for _ in range(15):
            t0 = time.perf_counter()
            for _ in range(5):
                run()
            cuda.synchronize()
            times.append((time.perf_counter() - t0) / 5)
        times.sort()
        return times[len(times) // 2]

    if not per_launch:
        for name in KERNELS:
            print("%s %.6e" % (name, median_time(runs[name])), flush=True)
        return
    import cuhost

    for name in KERNELS:
        for label, scope in (("without", contextlib.nullcontext), ("per-launch", lambda: cuhost.kernel_deadline(60)),
                             ("without-again", contextlib.nullcontext)):
            with scope():
                print("%s %s %.6e" % (label, name, median_time(runs[name])), flush=True)


def parent(cuhost, backend, small):
    here = os.path.abspath(__file__)
    results = {}
    for label, extra in (("without", []), ("with", ["--kernel-timeout", "60"])):
        cmd = [cuhost, "--backend", backend, *extra, "run", here, "--child"] + (["--small"] if small else [])
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        results[label] = {n: float(t) for n, t in (line.split() for line in out.splitlines() if line.strip())}
    print("%-16s %14s %14s %8s" % ("kernel", "without (ms)", "with (ms)", "speed"))
    worst = 1.0
    for name in KERNELS:
        a, b = results["without"][name], results["with"][name]
        worst = min(worst, a / b)
        print("%-16s %14.3f %14.3f %7.3fx" % (name, a * 1e3, b * 1e3, a / b))
    print("worst %.3fx (goal >= 0.98x)" % worst)
    cmd = [cuhost, "--backend", backend, "run", here, "--child", "--per-launch"] + (["--small"] if small else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    one = {}
    for line in out.splitlines():
        if line.strip():
            label, name, t = line.split()
            one[(label, name)] = float(t)
    print("one process, per-launch deadline (cuhost.kernel_deadline(60)):")
    print("%-16s %14s %14s %14s %8s %8s" % ("kernel", "without (ms)", "deadline (ms)", "again (ms)", "speed",
                                            "again"))
    for name in KERNELS:
        a, b, c = one[("without", name)], one[("per-launch", name)], one[("without-again", name)]
        print("%-16s %14.3f %14.3f %14.3f %7.3fx %7.3fx" % (name, a * 1e3, b * 1e3, c * 1e3, a / b, a / c))


if __name__ == "__main__":
    if "--child" in sys.argv:
        child("--small" in sys.argv, "--per-launch" in sys.argv)
    else:
        p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        p.add_argument("--cuhost", default=os.path.join(root, "build", "bin", "cuhost"))
        p.add_argument("--backend", default="cuda")
        p.add_argument("--small", action="store_true")
        a = p.parse_args()
        parent(a.cuhost, a.backend, a.small)
