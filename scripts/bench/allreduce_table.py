"""One table of all-reduce runs side by side: the JSON files that
allreduce_bandwidth.py --json wrote (cuhost one process, with threads, MPI
ranks, PyTorch), time per call in microseconds and bus bandwidth in GB/s per
size, and each run's time over the first run's (the reference, PyTorch's
when given first).

    python3 allreduce_table.py torch.json cuhost.json ...
"""
import json
import os
import sys

runs = []
for path in sys.argv[1:]:
    if os.path.exists(path):
        with open(path) as f:
            runs.append(json.load(f))
if not runs:
    sys.exit("no all-reduce results")
ref = {r["bytes"]: r["seconds"] for r in runs[0]["rows"]}
for i, run in enumerate(runs):
    print("[%d] %s, %d rank(s)" % (i, run["label"], run["ranks"]))
sizes = sorted({r["bytes"] for run in runs for r in run["rows"]})
head = "%10s" % "bytes"
for i in range(len(runs)):
    head += " | %9s %8s %6s" % ("[%d] us" % i, "busbw", "x[0]")
print(head)
for n in sizes:
    line = "%10d" % n
    for run in runs:
        rows = {r["bytes"]: r["seconds"] for r in run["rows"]}
        s = rows.get(n)
        if s is None:
            line += " | %9s %8s %6s" % ("-", "-", "-")
            continue
        world = run["ranks"]
        busbw = n / s / 1e9 * (2 * (world - 1) / world if world > 1 else 1)
        line += " | %9.1f %8.1f %6s" % (s * 1e6, busbw, "%.2f" % (s / ref[n]) if n in ref else "-")
    print(line)
