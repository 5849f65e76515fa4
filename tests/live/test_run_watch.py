"""Live kernels from the command line: `cuhost run --watch main.py`, where
main.py's kernel calls a device function of a module it imports (kern.py),
and launches it from Python in a loop. This test edits both files while it
runs and checks, on the script's output and cuhost's stderr: a device
function's change in the imported module recompiles the kernel that calls
it; a syntax error, a signature change and a module-level change are
reported (file, line, caret) and leave the old code running; the next good
edit is swapped in. A graph captured of the kernel follows each swap."""

import argparse
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_process import Watched, write_file  # noqa: E402

KERN = """\
from numba import cuda


@cuda.jit(device=True)
def formula(x):
    return 3 * x + 7
"""

MAIN = """\
import time

import numpy as np
from numba import cuda

import kern
from cuhost import graph

OFFSET = 0


@cuda.jit
def step(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = kern.formula(x[i]) + 0


rng = np.random.default_rng(7)
x = rng.integers(-1000, 1000, 64).astype(np.int64)
x[0], x[1] = 0, 1
out = np.zeros_like(x)
# A captured graph of the same kernel follows the reloads too.
stream = cuda.stream()
dx, dout = cuda.to_device(x), cuda.device_array_like(x)
step[1, 64, stream](dx, dout)
with graph.capture(stream) as g:
    step[1, 64, stream](dx, dout)
seen, graph_seen = [], []
deadline = time.monotonic() + 120
while time.monotonic() < deadline and len(seen) < 3:
    step[1, 64](x, out)
    a, b = int(out[1] - out[0]), int(out[0])
    assert (out == a * x + b).all(), "a mixed or wrong result"
    if not seen or seen[-1] != (a, b):
        seen.append((a, b))
        print("formula", a, b, flush=True)
    g.launch()
    stream.synchronize()
    replayed = dout.copy_to_host()
    a, b = int(replayed[1] - replayed[0]), int(replayed[0])
    assert (replayed == a * x + b).all(), "a mixed or wrong result from the graph"
    if not graph_seen or graph_seen[-1] != (a, b):
        graph_seen.append((a, b))
    time.sleep(0.002)
g.launch()
stream.synchronize()
replayed = dout.copy_to_host()
print("done", seen, "graph", graph_seen, (int(replayed[1] - replayed[0]), int(replayed[0])), flush=True)
"""


# Under the null driver (no GPU: kernels do not run, results cannot be
# checked), the CUDA host path of a swap: the new module loaded, the launch
# plan reset, the captured graph's node updated in place.
NULL_MAIN = """\
import time

import numpy as np
from numba import cuda
from cuhost import graph


@cuda.jit
def step(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 3 * x[i] + 7


stream = cuda.stream()
dx = cuda.to_device(np.arange(64, dtype=np.int64))
dout = cuda.device_array_like(dx)
step[1, 64, stream](dx, dout)
with graph.capture(stream) as g:
    step[1, 64, stream](dx, dout)
first = step.py_func
print("running", flush=True)
deadline = time.monotonic() + 60
while step.py_func is first and time.monotonic() < deadline:
    step[1, 64, stream](dx, dout)
    g.launch(stream)
    stream.synchronize()
    time.sleep(0.002)
assert step.py_func is not first, "the kernel was not swapped"
for _ in range(5):
    step[1, 64, stream](dx, dout)
    g.launch(stream)
stream.synchronize()
print("done", flush=True)
"""


def null_driver(args):
    main_py = os.path.join(args.work, "main.py")
    write_file(main_py, NULL_MAIN)
    run = Watched([args.cuhost, "--backend", "cuda", "run", "--watch", "main.py"], cwd=args.work, stdin=False)
    try:
        run.wait_for(lambda t: t == "running")
        write_file(main_py, NULL_MAIN.replace("3 * x[i] + 7", "5 * x[i] - 2"))
        run.wait_for(lambda t: t == "done")
    finally:
        rc = run.finish(timeout=20)
    errors = [t for _, t in run.lines["stderr"] if t.startswith("cuhost:")]
    # One report, the swap: no graph kept its old kernels, no error.
    assert rc == 0 and len(errors) == 1, run.dump()
    assert re.fullmatch(re.escape(f"cuhost: {os.path.realpath(main_py)}: reloaded step (") + r"\d+ ms\)", errors[0]), errors
    print("cuhost run --watch under the null driver: ok")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuhost", required=True)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--work", required=True)
    parser.add_argument("--null-driver", action="store_true")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    if args.null_driver:
        return null_driver(args)
    main_py, kern_py = os.path.join(args.work, "main.py"), os.path.join(args.work, "kern.py")
    write_file(kern_py, KERN)
    write_file(main_py, MAIN)
    real_main = os.path.realpath(main_py)

    run = Watched([args.cuhost, "--backend", args.backend, "run", "--watch", "main.py"], cwd=args.work, stdin=False)
    try:
        run.wait_for(lambda t: t == "formula 0 7" or t == "formula 3 7")
        # The imported module's device function: the kernel calling it follows.
        err = run.count("stderr")
        write_file(kern_py, KERN.replace("3 * x + 7", "5 * x - 2"))
        run.wait_for(lambda t: t == "formula 5 -2")
        i = run.wait_for(lambda t: "reloaded" in t, stream="stderr", start=err)
        assert run.text("stderr", i)[1].startswith(f"cuhost: {os.path.realpath(kern_py)}: reloaded formula, step ("), run.dump()

        # A syntax error in the script: reported with its caret, nothing swapped.
        err = run.count("stderr")
        write_file(main_py, MAIN.replace("+ 0\n", "+ (0\n"))
        i = run.wait_for(lambda t: "error" in t, stream="stderr", start=err)
        assert run.text("stderr", i)[1] == f"cuhost: {real_main}:16:39: error: SyntaxError: '(' was never closed", run.dump()
        assert run.text("stderr", i + 1)[1] == "            out[i] = kern.formula(x[i]) + (0", run.dump()
        assert run.text("stderr", i + 2)[1] == "                                          ^", run.dump()

        # A signature change and a module-level change are refused.
        err = run.count("stderr")
        write_file(main_py, MAIN.replace("def step(x, out):", "def step(x, out, n=0):"))
        i = run.wait_for(lambda t: "not reloaded" in t, stream="stderr", start=err)
        assert run.text("stderr", i)[1] == (
            f"cuhost: {real_main}:13:1: not reloaded: the signature or the decorator of 'step' changed; a running "
            "host keeps its kernels' signatures (restart the host to apply the change)"
        ), run.dump()
        err = run.count("stderr")
        write_file(main_py, MAIN.replace("OFFSET = 0", "OFFSET = 1").replace("+ 0\n", "+ 100\n"))
        i = run.wait_for(lambda t: "not reloaded" in t, stream="stderr", start=err)
        assert run.text("stderr", i)[1].startswith(
            f"cuhost: {real_main}:9:1: not reloaded: module-level statements changed"
        ), run.dump()
        assert run.text("stderr", i + 1)[1] == "    OFFSET = 1", run.dump()

        # The next good edit (module state as loaded) is swapped in.
        write_file(main_py, MAIN.replace("+ 0\n", "+ 100\n"))
        run.wait_for(lambda t: t == "formula 5 98")
        done = run.wait_for(lambda t: t.startswith("done "))
    finally:
        rc = run.finish(timeout=20)
    formulas = [t for _, t in run.lines["stdout"] if t.startswith("formula")]
    assert rc == 0 and formulas == ["formula 3 7", "formula 5 -2", "formula 5 98"], run.dump()
    # The graph went through the same formulas, and its last replay ran the last code.
    assert run.text("stdout", done)[1] == (
        "done [(3, 7), (5, -2), (5, 98)] graph [(3, 7), (5, -2), (5, 98)] (5, 98)"
    ), run.dump()
    print("cuhost run --watch: ok")


if __name__ == "__main__":
    main()
