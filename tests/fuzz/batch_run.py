"""One side of a differential run: a batch of programs through one runner
process (runner.py), its JSON lines parsed per seed; a batch that crashes
or hangs is rerun one program at a time to name the culprit. Shared by
fuzz.py and backends.py."""
import json
import subprocess
import time

TIMEOUT_PER_PROGRAM = 20


def parse(text):
    res = {}
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                j = json.loads(line)
                res[j["seed"]] = j
            except (ValueError, KeyError):
                pass
    return res


def run_batch(cmd, seeds, env, timeout):
    try:
        p = subprocess.run(cmd + [str(s) for s in seeds], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return parse(out), "hang"
    res = parse(p.stdout)
    if p.returncode != 0:
        return res, "crash rc=%d: %s" % (p.returncode, p.stderr[-3000:])
    return res, None


# A program whose error leaves its process unusable for the ones after it
# (a GPU fault ends the CUDA context: every later launch in the batch fails
# with the same error). The later programs are run again in a new process.
POISONED = "cannot be used after this error"


def rerun_after_poison(cmd, seeds, env, res, limit):
    while True:
        first = next((i for i, s in enumerate(seeds) if POISONED in (res.get(s, {}).get("message") or "")), None)
        if first is None or first + 1 >= len(seeds):
            return res
        seeds = seeds[first + 1:]
        again, _ = run_batch(cmd, seeds, env, limit(TIMEOUT_PER_PROGRAM * len(seeds) + 60))
        for s in seeds:
            if s in again:
                res[s] = again[s]
            else:
                res.pop(s, None)  # no answer: the caller runs it alone


def run_side(cmd, seeds, env, deadline=None):
    """Results for every seed; a crash or hang rerun one by one. With a
    `deadline` (epoch seconds) no run goes past it: seeds left without a
    result then get {"cut": True} (not run, not a failure)."""
    def limit(default):
        return default if deadline is None else max(1.0, min(default, deadline - time.time()))

    res, fault = run_batch(cmd, seeds, env, limit(TIMEOUT_PER_PROGRAM * len(seeds) + 60))
    res = rerun_after_poison(cmd, list(seeds), env, res, limit)
    if fault is None and len(res) == len(seeds):
        return res
    for s in seeds:
        if s in res:
            continue
        if deadline is not None and time.time() >= deadline - 1:
            res[s] = {"seed": s, "cut": True}
            continue
        one, f = run_batch(cmd, [s], env, limit(TIMEOUT_PER_PROGRAM + 30))
        if s not in one and f == "hang" and deadline is not None and time.time() >= deadline - 1:
            res[s] = {"seed": s, "cut": True}
            continue
        res[s] = one.get(s) or {"seed": s, "fault": f or "no result"}
    return res
