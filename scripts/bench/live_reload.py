"""Live kernels benchmark (run by live_reload.sh): examples/live's host
launches its kernel every 2 ms while this script rewrites the kernel's
formula. It measures, from the close of the file's write to the first launch
that gives the new results (the host's CLOCK_MONOTONIC, the same clock as
time.monotonic here):
  - cold: a formula never compiled before;
  - cached: a formula compiled by an earlier reload (an undo);
and the p99 latency of the host's launches (launch and wait) during reloads
against the p99 of the launches outside them. One line per figure. The
acceptance goals (GPU machine): cold <= 30 ms, cached <= 10 ms, p99 during
compiles within 1.2x of the p99 without them."""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "live"))
from live_process import Watched, write_file  # noqa: E402

STEP = os.path.join(HERE, "..", "..", "examples", "live", "step.py")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True, help="the cuhost_live_example executable")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--edits", type=int, default=10, help="cold edits (as many cached ones follow)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="cuhost-live-bench-")
    script = os.path.join(work, "step.py")
    original = open(STEP).read()
    write_file(script, original)
    formulas = [(a, b) for a, b in zip(range(4, 4 + args.edits), range(-50, -50 + 11 * args.edits, 11))]

    def text_of(a, b):
        return original.replace("return 3 * x + 7", f"return {a} * x + {b}" if b >= 0 else f"return {a} * x - {-b}")

    host = Watched([os.path.abspath(args.host), script, "--backend", args.backend], cwd=work)
    cold, cached = [], []
    try:
        host.wait_for(lambda t: t.startswith("formula a=3 b=7 "))
        time.sleep(1.5)  # launches with no compile around them

        def edit(a, b, into):
            start = host.count()
            written = write_file(script, text_of(a, b))
            j = host.wait_for(lambda t: t.startswith(f"formula a={a} b={b} "), start=start)
            seen = float(re.search(r"t=([\d.]+)", host.text("stdout", j)[1]).group(1))
            into.append((seen - written) * 1000)
            time.sleep(0.3)

        for a, b in formulas:
            edit(a, b, cold)
        for a, b in formulas[:-1] + [formulas[0]]:  # every text compiled before (no two in a row alike)
            edit(a, b, cached)
        time.sleep(1.5)
    finally:
        rc = host.finish()
    shutil.rmtree(work, ignore_errors=True)
    summary = host.text("stdout", host.wait_for(lambda t: t.startswith("summary ")))[1]
    fields = dict(kv.split("=") for kv in summary.split()[1:])
    if rc != 0 or fields["wrong"] != "0":
        sys.exit("live_reload: the host saw a wrong result\n" + host.dump())

    def line(name, values):
        values = sorted(values)
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(
            f"live_reload {name}: median {statistics.median(values):.1f} ms, p90 {p90:.1f} ms, "
            f"max {values[-1]:.1f} ms (n={len(values)})"
        )

    line("write to first new launch, cold", cold)
    line("write to first new launch, cached", cached)
    quiet, compiling = float(fields["p99_quiet_us"]), float(fields["p99_compiling_us"])
    print(
        f"live_reload launch p99: {quiet:.1f} us without compiles ({fields['quiet_launches']} launches), "
        f"{compiling:.1f} us during compiles ({fields['compiling_launches']} launches), "
        f"ratio {compiling / quiet if quiet else float('nan'):.2f}"
    )


if __name__ == "__main__":
    main()
