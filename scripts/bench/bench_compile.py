# P4/P5/P10: compile latency. The first call of saxpy in this fresh process
# (typing, LLVM, link, load), the time from process start to the first
# result, and the first-call time of a kernel calling N chained device
# functions (N = 1, 10, 100). Run twice: the second process shows the cache.
import os
import sys
import tempfile
import time

t_import = time.perf_counter()
from _harness import bench, np  # noqa: E402
from numba import cuda  # noqa: E402


def process_age_s():
    """Seconds since this process was launched: from CUHOST_BENCH_LAUNCH_NS
    (the launching shell's clock, `date +%s%N`, read just before it started
    the process: 1 ms resolution, the start of the launch itself included),
    else from /proc (the kernel's clock ticks: 10 ms steps)."""
    launched = os.environ.get("CUHOST_BENCH_LAUNCH_NS")
    if launched:
        return (time.time_ns() - int(launched)) / 1e9
    with open("/proc/self/stat") as f:
        start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


label = os.environ.get("BENCH_LABEL", "")


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


x = cuda.to_device(np.ones(4096, np.float32))
out = cuda.device_array(4096, np.float32)
r = bench.once(lambda: saxpy[16, 256](np.float32(2.0), x, x, out), "first_call_saxpy" + label)
bench.report(r)
r = bench._summarize("process_start_to_first_result" + label, [process_age_s() * 1e3])
bench.report(r)

# N chained device functions, generated into a module so the source can be captured.
for N in (1, 10, 100):
    src = ["from numba import cuda", "", "@cuda.jit(device=True)", "def f0(v):", "    return v * 1.0001 + 1.0", ""]
    for k in range(1, N):
        src += ["@cuda.jit(device=True)", "def f%d(v):" % k, "    return f%d(v) * 0.9999 + %d.0" % (k - 1, k), ""]
    src += ["@cuda.jit", "def chain(out):", "    out[0] = f%d(out[0])" % (N - 1), ""]
    d = tempfile.mkdtemp()
    path = os.path.join(d, "chain_%d_%s.py" % (N, os.getpid()))
    with open(path, "w") as f:
        f.write("\n".join(src))
    sys.path.insert(0, d)
    mod = __import__(os.path.basename(path)[:-3])
    o = cuda.device_array(1, np.float64)
    bench.report(bench.once(lambda: mod.chain[1, 1](o), "first_call_chain_%d%s" % (N, label)))
