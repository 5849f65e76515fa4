"""Scaling of the halo-exchange stencil (scripts/examples/halo_stencil.py)
over 1..N devices of one process: strong scaling (one grid split over more
devices) and weak scaling (the grid grows with the devices), as time per step
and speed-up / efficiency against one device.

    python3 stencil_scaling.py --cuhost cuhost [--devices 4] [--ny 8192] [--nx 8192] [--steps 500]

Each configuration is one `cuhost run --nccl --nccl-devices 0,..,k-1
halo_stencil.py --no-check` process; the example times the steps after the
first (which compiles the kernels and loads them on each device). Under MPI, the same
example runs as `mpirun -n k cuhost run --nccl halo_stencil.py --no-check`.
"""
import argparse
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
example = os.path.join(here, "..", "examples", "halo_stencil.py")

parser = argparse.ArgumentParser()
parser.add_argument("--cuhost", default="cuhost")
parser.add_argument("--devices", type=int, default=0, help="largest device count (default: all)")
parser.add_argument("--ny", type=int, default=8192)
parser.add_argument("--nx", type=int, default=8192)
parser.add_argument("--steps", type=int, default=500)
parser.add_argument("--no-overlap", action="store_true", help="the example's exchange and update on one stream")
args = parser.parse_args()


def device_count():
    out = subprocess.run([args.cuhost, "-c", "from numba import cuda; print(len(cuda.gpus))"], capture_output=True,
                         text=True, check=True).stdout
    return int(out.strip().splitlines()[-1])


def run(k, ny):
    cmd = [args.cuhost, "--nccl", "--nccl-devices", ",".join(str(i) for i in range(k)), "run", example,
           "--ny", str(ny), "--nx", str(args.nx), "--steps", str(args.steps), "--no-check"]
    if args.no_overlap:
        cmd.append("--no-overlap")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), out.stdout, out.stderr))
    m = re.search(r"steps on \d+ rank\(s\): ([0-9.]+) ms per step", out.stdout)
    return float(m.group(1))


n = args.devices or device_count()
print("halo stencil, %d columns, %d steps, exchange %s; times per step" % (
    args.nx, args.steps, "then update (one stream)" if args.no_overlap else "overlapped with the interior update"))
print("%8s | %12s %9s %9s | %12s %12s %9s" % ("devices", "strong ms", "speed-up", "effic.", "weak rows", "weak ms",
                                               "effic."))
base_strong = base_weak = None
for k in range(1, n + 1):
    strong = run(k, args.ny)
    weak_rows = args.ny // n * k
    weak = run(k, weak_rows)
    base_strong = base_strong or strong
    base_weak = base_weak or weak
    print("%8d | %12.3f %9.2f %9.2f | %12d %12.3f %9.2f" % (k, strong, base_strong / strong,
                                                             base_strong / strong / k, weak_rows, weak,
                                                             base_weak / weak))
