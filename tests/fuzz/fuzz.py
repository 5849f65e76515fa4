"""Differential fuzzer: cuhost (CPU backend) against numba's own CPU JIT.

    fuzz.py --cuhost build/bin/cuhost --seeds 0:2000 [--invalid] [--minutes 4]

Valid programs (gen.generate): both compilers must produce the same outputs,
integers and exact float operations bit for bit (NaNs of either sign or
payload are equal), transcendental results (`inexact` slots) within
FLOAT_TOL ulps. Invalid programs (gen.generate_invalid, --invalid): cuhost
must raise one of CLEAN_ERRORS whose message names the program file and a
line, never an internal error, a crash or a hang.

Programs run in batches (one process each side); a batch that crashes or
hangs is rerun one program at a time to name the culprit. Failing programs
are copied to --keep with both results. Exit 1 on any failure; 77 when numba
cannot be installed (CTest's skip code).
"""
import argparse
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
import gen  # noqa: E402
import reference_env  # noqa: E402

FLOAT_TOL_ULPS = 8          # libdevice vs libm transcendental, float64
FLOAT32_TOL = 2.0 ** -18    # relative, when the math ran in float32
CLEAN_ERRORS = {"TypingError", "NameError", "NotImplementedError", "UnsupportedError",
                "UnsupportedFeatureError"}
TIMEOUT_PER_PROGRAM = 20


def run_batch(cmd, seeds, env, timeout):
    try:
        p = subprocess.run(cmd + [str(s) for s in seeds], capture_output=True, text=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return parse(out), "hang"
    res = parse(p.stdout)
    if p.returncode != 0:
        return res, "crash rc=%d: %s" % (p.returncode, p.stderr[-3000:])
    return res, None


def parse(text):
    res = {}
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                j = json.loads(line)
                res[j["seed"]] = j
            except ValueError:
                pass
    return res


def run_side(cmd, seeds, env):
    """Results for every seed; a crash or hang rerun one by one."""
    res, fault = run_batch(cmd, seeds, env, TIMEOUT_PER_PROGRAM * len(seeds) + 60)
    if fault is None and len(res) == len(seeds):
        return res
    for s in seeds:
        if s in res:
            continue
        one, f = run_batch(cmd, [s], env, TIMEOUT_PER_PROGRAM + 30)
        res[s] = one.get(s) or {"seed": s, "fault": f or "no result"}
    return res


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuhost", required=True)
    ap.add_argument("--seeds", default="0:500", help="A:B, half-open")
    ap.add_argument("--invalid", action="store_true", help="fuzz invalid programs instead")
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=0, help="stop starting batches after this")
    ap.add_argument("--work", default=os.path.join(os.getcwd(), "fuzz-work"))
    ap.add_argument("--venv", default=None, help="numba venv (default WORK/../fuzz-venv)")
    ap.add_argument("--keep", default=None, help="folder for failing programs (default WORK/failures)")
    args = ap.parse_args()
    a, b = (int(x) for x in args.seeds.split(":"))
    work = os.path.abspath(args.work)
    keep = args.keep or os.path.join(work, "failures")
    os.makedirs(work, exist_ok=True)
    os.makedirs(keep, exist_ok=True)
    ref_py = None
    if not args.invalid:
        ref_py = reference_env.ensure(args.venv or os.path.join(os.path.dirname(work), "fuzz-venv"))
        if ref_py is None:
            print("SKIP: numba could not be installed from PyPI; the differential fuzzer needs it")
            return 77
    env = dict(os.environ, FUZZ_INVALID="1" if args.invalid else "0", PYTHONDONTWRITEBYTECODE="1")
    runner = os.path.join(HERE, "runner.py")
    start = time.time()
    stats = {"programs": 0, "compared": 0, "both_rejected": 0, "ref_rejected": 0,
             "failures": 0, "clean_errors": 0, "accepted_invalid": 0}
    failures = []
    known = load_known()
    classes = {}
    for lo in range(a, b, args.batch):
        if args.minutes and time.time() - start > args.minutes * 60:
            break
        seeds = list(range(lo, min(b, lo + args.batch)))
        d = os.path.join(work, "batch")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        progs = {}
        for s in seeds:
            progs[s] = gen.generate_invalid(s) if args.invalid else (gen.generate(s), None, None)
            with open(os.path.join(d, "p%d.py" % s), "w") as f:
                f.write(progs[s][0].source)
        got = run_side([args.cuhost, "--backend", "cpu", "run", runner, "cuhost", d], seeds, env)
        ref = run_side([ref_py, runner, "numba", d], seeds, env) if ref_py else {}
        for s in seeds:
            stats["programs"] += 1
            prog, defect, line = progs[s]
            g, r = got[s], ref.get(s)
            why = ""
            if "fault" in g:
                why = "cuhost %s" % g["fault"]
            elif args.invalid:
                if "error" not in g:
                    stats["accepted_invalid"] += 1
                    print("note: seed %d (%s) accepted by cuhost" % (s, defect))
                elif g["error"] not in CLEAN_ERRORS:
                    why = "defect %s gave %s: %s" % (defect, g["error"], g["message"])
                elif not has_location(os.path.join(d, "p%d.py" % s), g["message"], line):
                    why = "defect %s: %s without a location: %s" % (defect, g["error"], g["message"])
                else:
                    stats["clean_errors"] += 1
                    key = "%s->%s" % (defect, g["error"])
                    classes[key] = classes.get(key, 0) + 1
            elif "fault" in r:
                why = "numba %s" % r["fault"]
            elif "error" in r:
                if "error" in g:
                    stats["both_rejected"] += 1
                    print("note: seed %d rejected by both: %s" % (s, g["message"].splitlines()[-1][:300]))
                else:
                    stats["ref_rejected"] += 1
                    lines = [l for l in (r["message"] or "").splitlines() if l.strip()]
                    print("note: seed %d rejected by numba only: %s: %s" % (
                        s, r["error"], " | ".join(lines[1:4])[:400]))
            elif "error" in g:
                why = "cuhost raised %s: %s" % (g["error"], g["message"])
            else:
                stats["compared"] += 1
                why = compare(prog, r, g)
            if why and s in known and not args.invalid:
                stats["known"] = stats.get("known", 0) + 1
                print("known divergence, seed %d (%s): %s" % (s, known[s], why[:300]))
                continue
            if why:
                stats["failures"] += 1
                failures.append((s, why))
                shutil.copy(os.path.join(d, "p%d.py" % s), os.path.join(keep, "p%d.py" % s))
                with open(os.path.join(keep, "p%d.txt" % s), "w") as f:
                    f.write(why + "\n" + json.dumps({"numba": r, "cuhost": g}) + "\n")
                print("FAIL seed %d: %s" % (s, why[:1500]), flush=True)
        print("seeds %d..%d done: %s (%.0fs)" % (seeds[0], seeds[-1], json.dumps(stats),
                                                  time.time() - start), flush=True)
    if classes:
        print("ERROR CLASSES %s" % json.dumps(classes, sort_keys=True))
    print("SUMMARY %s" % json.dumps(stats))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
