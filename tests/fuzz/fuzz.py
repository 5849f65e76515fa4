"""Differential fuzzer: cuhost (CPU backend) against numba's own CPU JIT.

    fuzz.py --cuhost build/bin/cuhost --seeds 0:2000 [--invalid] [--minutes 4]

Valid programs (gen.generate): both compilers must produce the same outputs,
integers and exact float operations bit for bit (NaNs of either sign or
payload are equal), transcendental results (`inexact` slots) within
FLOAT_TOL ulps. Invalid programs (gen.generate_invalid, --invalid): cuhost
must raise one of CLEAN_ERRORS whose message names the program file and a
line, never an internal error, a crash or a hang.

Programs run in batches of --batch in --workers worker processes
(parallel.py; no batch starts after --minutes): cuhost runs each batch in
one process, numba in the worker's long-lived `runner.py numba-serve`
process (imported once, so numba's compile time is the cost, not its
import), with --python or the --venv it installs (numba 0.68.1). A batch
that crashes or hangs is rerun one program at a time to name the culprit.
Failing programs are copied to --keep with both results. The last line is
`SUMMARY {...}` with the counts, the seed range finished and numba's
version. Exit 1 on any failure; 77 when numba cannot be had (CTest's skip
code).
"""
import argparse
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import batch_run  # noqa: E402
import gen  # noqa: E402
import parallel  # noqa: E402
import reference_env  # noqa: E402
import warm_numba  # noqa: E402

FLOAT_TOL_ULPS = 8          # libdevice vs libm transcendental, float64
FLOAT32_TOL = 2.0 ** -18    # relative, when the math ran in float32
CLEAN_ERRORS = {"TypingError", "NameError", "NotImplementedError", "UnsupportedError",
                "UnsupportedFeatureError"}
TIMEOUT_PER_PROGRAM = batch_run.TIMEOUT_PER_PROGRAM


def as_float(b, size):
    return struct.unpack("<d" if size == 8 else "<f", struct.pack("<Q" if size == 8 else "<I", b))[0]


def ulps(a, b):
    def key(x):
        i = struct.unpack("<q", struct.pack("<d", x))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)
    return abs(key(a) - key(b))


def compare(prog, ref, got):
    """'' when equal, else a description of the first difference."""
    arrays = ["oi", "of"] + sorted(gen.ATOMIC_WORK)
    for name, ra, ga in zip(arrays, ref["out"], got["out"]):
        dt = "int64" if name == "oi" else "float64" if name == "of" else gen.ATOMIC_WORK[name]
        for j, (x, y) in enumerate(zip(ra, ga)):
            if x == y:
                continue
            if dt.startswith("float"):
                size = 8 if dt == "float64" else 4
                fx, fy = as_float(x, size), as_float(y, size)
                if fx != fx and fy != fy:
                    continue
                if name == "of" and j in prog.inexact:
                    if fx == fy:
                        continue
                    if fx == fx and fy == fy and abs(fx) != float("inf") and abs(fy) != float("inf"):
                        if ulps(fx, fy) <= FLOAT_TOL_ULPS:
                            continue
                        if abs(fx - fy) <= FLOAT32_TOL * max(abs(fx), abs(fy)) and \
                                float(struct.unpack("<f", struct.pack("<f", fx))[0]) == fx:
                            continue
                return "%s[%d]: numba %r, cuhost %r" % (name, j, fx, fy)
            return "%s[%d]: numba %d, cuhost %d" % (name, j, x, y)
    return ""


def load_known():
    """Seeds of valid programs with an open, documented difference
    (docs/RELIABILITY.md): reported, not failed, until fixed."""
    known = {}
    with open(os.path.join(HERE, "known_divergences.txt")) as f:
        for line in f:
            body, _, why = line.partition("#")
            for tok in body.split():
                known[int(tok)] = why.strip()
    return known


def has_location(prog_path, msg, lines):
    """The message names the program file and a line of the defect."""
    m = re.search(re.escape(os.path.basename(prog_path)) + r":(\d+)", msg)
    return bool(m) and lines[0] <= int(m.group(1)) <= lines[1]


def check(cfg, s, prog, defect, line, g, r, path, where=None):
    """(outcome, why, note): outcome a stats key; why a failure ('' if none)."""
    if "fault" in g:
        return "failures", "cuhost %s" % g["fault"], None
    if cfg["invalid"]:
        if "base_rejected" in g:
            return "base_rejected", "", "note: seed %d: its base program is rejected already (%s)" % (
                s, g["base_rejected"])
        if "error" not in g:
            return "accepted_invalid", "", "note: seed %d (%s) accepted by cuhost" % (s, defect)
        if g["error"] not in CLEAN_ERRORS:
            return "failures", "defect %s gave %s: %s" % (defect, g["error"], g["message"]), None
        if not has_location(path, g["message"], line):
            return "failures", "defect %s: %s without a location: %s" % (defect, g["error"], g["message"]), None
        want, text = gen.expected_class(defect, where)
        if g["error"] != want or text not in g["message"]:
            return "failures", "defect %s at %s gave %s, not %s %s: %s" % (
                defect, where, g["error"], want, text, g["message"][:600]), None
        return "clean_errors", "", None
    if "fault" in r:
        return "failures", "numba %s" % r["fault"], None
    if "error" in r:
        if "error" in g:
            return "both_rejected", "", "note: seed %d rejected by both: %s" % (
                s, g["message"].splitlines()[-1][:300] if g["message"] else g["error"])
        lines = [x for x in (r["message"] or "").splitlines() if x.strip()]
        return "ref_rejected", "", "note: seed %d rejected by numba only: %s: %s" % (
            s, r["error"], " | ".join(lines[1:4])[:400])
    if "error" in g:
        return "failures", "cuhost raised %s: %s" % (g["error"], g["message"]), None
    why = compare(prog, r, g)
    return "compared", why, None


def base_rejects(cfg, d, progs, got, env, deadline):
    """An invalid program whose error is not at its defect may be one whose
    valid base program cuhost rejects already (math.cbrt, or the generator's
    kind tracking reaching a float where an integer is needed), above the
    defect. Such seeds are run again without the defect; those rejected
    then are marked "base_rejected" (not a failure: the program has two
    defects and the first is reported)."""
    suspects = [s for s, (prog, _defect, line, _w) in progs.items()
                if "error" in got[s] and not has_location(os.path.join(d, "p%d.py" % s), got[s]["message"], line)]
    if not suspects:
        return
    for s in suspects:
        with open(os.path.join(d, "p%d.py" % s), "w") as f:
            f.write(gen.generate(s).source)
    base = batch_run.run_side([cfg["cuhost"], "--backend", "cpu", "run", os.path.join(HERE, "runner.py"), "cuhost", d],
                              suspects, dict(env, FUZZ_INVALID="0"), deadline)
    for s in suspects:
        with open(os.path.join(d, "p%d.py" % s), "w") as f:
            f.write(progs[s][0].source)
        if "error" in base[s] and base[s]["error"] in CLEAN_ERRORS:
            got[s] = dict(got[s], base_rejected=base[s]["message"].splitlines()[-1][:200])


def batch(cfg, lo, hi):
    """Worker: seeds [lo, hi) through cuhost and (valid programs) the warm numba."""
    stats, classes, lines = collections.Counter(), collections.Counter(), []
    d = os.path.join(parallel.worker_dir(cfg["work"]), "batch")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    seeds = list(range(lo, hi))
    progs = {}
    for s in seeds:
        progs[s] = gen.generate_invalid(s) if cfg["invalid"] else (gen.generate(s), None, None, None)
        with open(os.path.join(d, "p%d.py" % s), "w") as f:
            f.write(progs[s][0].source)
    env = dict(os.environ, FUZZ_INVALID="1" if cfg["invalid"] else "0", PYTHONDONTWRITEBYTECODE="1",
               CUHOST_NO_CACHE="1")
    deadline = cfg.get("hard_deadline")
    got = batch_run.run_side([cfg["cuhost"], "--backend", "cpu", "run", os.path.join(HERE, "runner.py"), "cuhost", d],
                             seeds, env, deadline)
    ref = {}
    if not cfg["invalid"]:
        ref = warm_numba.WARM.run(d, seeds, deadline)
        rest = [s for s in seeds if s not in ref]
        if rest:   # a crash or hang of the warm process: one-shot runs name the culprit
            ref.update(batch_run.run_side([cfg["ref_py"], os.path.join(HERE, "runner.py"), "numba", d], rest, env,
                                          deadline))
    if cfg["invalid"]:
        base_rejects(cfg, d, progs, got, env, deadline)
    cut = False
    for s in seeds:
        prog, defect, line, where = progs[s]
        g, r = got[s], ref.get(s, {})
        if g.get("cut") or r.get("cut"):
            cut = True
            continue
        stats["programs"] += 1
        outcome, why, note = check(cfg, s, prog, defect, line, g, r, os.path.join(d, "p%d.py" % s), where)
        if note:
            lines.append(note + (" at %s" % where if where else ""))
        if outcome == "clean_errors":
            classes["%s->%s" % (defect, g["error"])] += 1
        if where:
            stats["at " + where.replace(":maybe-pruned", "")] += 1
            stats["points_maybe_pruned" if where.endswith("maybe-pruned") else "points_typed"] += 1
            if outcome == "accepted_invalid" and where.endswith("maybe-pruned"):
                outcome = "accepted_maybe_pruned"
            elif outcome == "accepted_invalid":   # a defect where numba types the code: never accepted
                outcome, why = "accepted_typed", "defect %s accepted at %s" % (defect, where)
        if why and s in cfg["known"] and not cfg["invalid"]:
            stats["known"] += 1
            lines.append("known divergence, seed %d (%s): %s" % (s, cfg["known"][s], why[:300]))
            continue
        if why:
            if outcome == "compared":
                stats["compared"] += 1
            outcome = "failures"
            shutil.copy(os.path.join(d, "p%d.py" % s), os.path.join(cfg["keep"], "p%d.py" % s))
            with open(os.path.join(cfg["keep"], "p%d.txt" % s), "w") as f:
                f.write(why + "\n" + json.dumps({"numba": r, "cuhost": g}) + "\n")
            lines.append("FAIL seed %d: %s" % (s, why[:1500]))
        stats[outcome] += 1
    return {"stats": stats, "reasons": classes, "lines": lines, "cut": cut}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuhost", required=True)
    ap.add_argument("--seeds", default="0:500", help="A:B, half-open")
    ap.add_argument("--invalid", action="store_true", help="fuzz invalid programs instead")
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--workers", type=int, default=1, help="worker processes, each with its own warm numba")
    ap.add_argument("--minutes", type=float, default=0, help="stop starting batches after this")
    ap.add_argument("--work", default=os.path.join(os.getcwd(), "fuzz-work"))
    ap.add_argument("--venv", default=None, help="numba venv, made if missing (default WORK/../fuzz-venv)")
    ap.add_argument("--python", default=None, help="an interpreter that has numba (instead of --venv)")
    ap.add_argument("--keep", default=None, help="folder for failing programs (default WORK/failures)")
    args = ap.parse_args()
    a, b = (int(x) for x in args.seeds.split(":"))
    work = os.path.abspath(args.work)
    keep = os.path.abspath(args.keep or os.path.join(work, "failures"))
    os.makedirs(work, exist_ok=True)
    os.makedirs(keep, exist_ok=True)
    ref_py, version = None, None
    if not args.invalid:
        ref_py = args.python or reference_env.ensure(args.venv or os.path.join(os.path.dirname(work), "fuzz-venv"))
        if ref_py is None:
            print("SKIP: numba could not be installed from PyPI; the differential fuzzer needs it")
            return 77
        v = subprocess.run([ref_py, "-c", "import numba; print(numba.__version__)"], capture_output=True, text=True)
        if v.returncode != 0:
            print("SKIP: %s cannot import numba: %s" % (ref_py, v.stderr[-500:]))
            return 77
        version = v.stdout.strip()
        print("reference: numba %s (%s), %d workers" % (version, ref_py, args.workers), flush=True)
    cfg = {"cuhost": os.path.abspath(args.cuhost), "invalid": args.invalid, "work": work, "keep": keep,
           "ref_py": ref_py, "known": load_known()}
    env = dict(os.environ, FUZZ_INVALID="1" if args.invalid else "0", PYTHONDONTWRITEBYTECODE="1")
    start = time.time()
    totals, classes, done = parallel.run(batch, cfg, a, b, args.batch, args.workers, args.minutes,
                                         initializer=warm_numba.init_worker, initargs=(ref_py, env))
    span, extra = parallel.covered(done, a)
    if classes:
        print("ERROR CLASSES %s" % json.dumps(dict(sorted(classes.items()))))
    keys = ["programs", "compared", "both_rejected", "ref_rejected", "failures", "clean_errors", "accepted_typed",
            "accepted_maybe_pruned", "base_rejected", "points_typed", "points_maybe_pruned", "known", "batch_errors", "cut_batches"]
    stats = {k: totals.get(k, 0) for k in keys}
    stats.update(sorted((k, v) for k, v in totals.items() if k.startswith("at ")))
    stats.update(seeds_finished=span, also_finished=extra, workers=args.workers, numba=version,
                 seconds=round(time.time() - start))
    print("SUMMARY %s" % json.dumps(stats))
    return 1 if stats["failures"] or stats["batch_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
