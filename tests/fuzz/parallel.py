"""Runs a seed range as batches in worker processes until a wall-clock limit,
for both fuzzers (fuzz.py against numba, backends.py between cuhost's
backends): generation, the runs and the comparison all happen in the
workers, so the parent only adds up what each batch reports.

A batch is a call `task(cfg, lo, hi)` in a worker process that returns a
dict with "stats" (counts to add up), "reasons" (counts of rejection
reasons) and "lines" (what to print). No batch starts after `minutes`;
`cfg["hard_deadline"]` (epoch seconds) is when running batches must give
up their subprocesses, so one command ends inside its time limit with what
it has.
"""
import collections
import concurrent.futures as cf
import json
import os
import sys
import time

GRACE_S = float(os.environ.get("FUZZ_GRACE_S", 60))   # how long batches started before the limit may still run


def run(task, cfg, first, last, batch, workers, minutes, initializer=None, initargs=()):
    """Returns (totals, reasons, done): done is the list of finished
    (lo, hi) batches, sorted."""
    start = time.time()
    stop_at = start + minutes * 60 if minutes else None
    cfg = dict(cfg, hard_deadline=(stop_at + GRACE_S) if stop_at else None)
    totals, reasons, done = collections.Counter(), collections.Counter(), []
    todo = [(lo, min(last, lo + batch)) for lo in range(first, last, batch)]
    todo.reverse()
    with cf.ProcessPoolExecutor(max_workers=workers, initializer=initializer, initargs=initargs) as ex:
        pending = {}

        def fill():
            while todo and len(pending) < 2 * workers and (stop_at is None or time.time() < stop_at):
                lo, hi = todo.pop()
                pending[ex.submit(task, cfg, lo, hi)] = (lo, hi)

        fill()
        while pending:
            finished, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for f in finished:
                lo, hi = pending.pop(f)
                try:
                    r = f.result()
                except Exception as e:  # noqa: BLE001 - a broken batch is reported, the run goes on
                    totals["batch_errors"] += 1
                    print("batch %d:%d failed in the harness: %r" % (lo, hi, e), flush=True)
                    continue
                for line in r["lines"]:
                    print(line, flush=True)
                totals.update(r["stats"])
                reasons.update(r["reasons"])
                if r.get("cut"):
                    totals["cut_batches"] += 1   # its finished programs count; the range is not finished
                else:
                    done.append((lo, hi))
                print("seeds %d:%d done (%.0fs): %s" % (lo, hi, time.time() - start, json.dumps(dict(totals))),
                      flush=True)
            fill()
    done.sort()
    return totals, reasons, done


def covered(done, first):
    """'A:B' for the contiguous finished prefix from `first`, and the
    finished batches past a gap (a batch cut at the hard deadline)."""
    end = first
    extra = []
    for lo, hi in done:
        if lo == end:
            end = hi
        else:
            extra.append("%d:%d" % (lo, hi))
    return "%d:%d" % (first, end), extra


def remaining(cfg, default):
    """A subprocess timeout: `default`, or less near the hard deadline
    (at least 1 second, so a batch can still report it was cut)."""
    d = cfg.get("hard_deadline")
    if d is None:
        return default
    return max(1.0, min(default, d - time.time()))


def worker_dir(work):
    d = os.path.join(work, "w%d" % os.getpid())
    os.makedirs(d, exist_ok=True)
    return d


def default_workers():
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


if __name__ == "__main__":
    sys.exit("parallel.py is a module of fuzz.py and backends.py")
