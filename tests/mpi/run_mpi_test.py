#!/usr/bin/env python3
"""Runs a script as N MPI ranks: `mpirun -n N cuhost [options] run SCRIPT`,
and checks the job's exit code and that its output holds the expected lines.

    run_mpi_test.py --cuhost PATH [--ranks 2] [--exit 0] [--expect TEXT]...
                    [--cuhost-arg ARG]... SCRIPT [ARGS...]

Exits 77 (a skipped CTest test) when Open MPI's mpirun is not installed.
Ranks may run as root (CI containers): Open MPI is told so through its
environment variables. Shared-memory copies use no single-copy mechanism
(CMA needs ptrace rights containers often lack), and ranks are not bound to
cores (the machine may have fewer cores than ranks).
"""
import argparse
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuhost", required=True)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--exit", type=int, default=0, help="expected exit code of the job (-1: any non-zero)")
    ap.add_argument("--expect", action="append", default=[], help="text the output must contain")
    ap.add_argument("--cuhost-arg", action="append", default=[])
    ap.add_argument("--timeout", type=int, default=240)
    ap.add_argument("script")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("mpirun not found (install openmpi-bin): not applicable")
        return 77
    env = dict(os.environ)
    env.update({
        "OMPI_ALLOW_RUN_AS_ROOT": "1",
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
        "OMPI_MCA_rmaps_base_oversubscribe": "1",
    })
    cmd = [mpirun, "--oversubscribe", "--bind-to", "none", "-n", str(opts.ranks), opts.cuhost] + opts.cuhost_arg + [
        "run", opts.script] + opts.args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=opts.timeout)
    except subprocess.TimeoutExpired as e:
        print("TIMEOUT after %ds: %s" % (opts.timeout, " ".join(cmd)))
        print(e.stdout or "", e.stderr or "")
        return 1
    problems = []
    if opts.exit == -1:
        if p.returncode == 0:
            problems.append("exit code 0, expected a failure")
    elif p.returncode != opts.exit:
        problems.append("exit code %d, expected %d" % (p.returncode, opts.exit))
    output = p.stdout + p.stderr
    for text in opts.expect:
        if text not in output:
            problems.append("output lacks %r" % text)
    if problems:
        print("FAILED: " + " ".join(cmd))
        for problem in problems:
            print("  " + problem)
        print("--- stdout ---\n" + p.stdout + "--- stderr ---\n" + p.stderr)
        return 1
    print("ok: " + " ".join(cmd))
    return 0


if __name__ == "__main__":
    sys.exit(main())
