"""Differential fuzzer between two cuhost backends: the same generated
programs (gen.py) through `cuhost --backend cpu` and `cuhost --backend
cuda`, no numba in the loop. Outputs must agree under precision.py's rules
(integers and exact float operations bit for bit, libdevice against libm
within the sum of their documented ulps, fma contraction only where the
GPU without contraction agrees).

    backends.py --cuhost BIN --seeds A:B [--a cpu] [--b cuda] [--workers N]
                [--minutes M] [--batch K] [--work DIR] [--plant K] [--math-rules auto|on|off]

A side is `cpu` or `cuda`, with `:opt0` (NUMBA_OPT=0: no optimization, so
no contraction on NVPTX), `:nobounds` (--no-bounds-check) and `:sat`
(float-to-int conversions saturate as on the GPU; the harness's own check
of a difference) added as wanted; `--a cpu --b cpu:opt0` runs the harness without a GPU. Each worker
process runs batches of --batch programs, one cuhost process per side and
batch (the two sides at once). Every difference is kept as a reproducer
folder (reproducer.py) under WORK/differences/s<seed> (those put down to
fma contraction under WORK/contraction/s<seed>). Ends with one line
`SUMMARY {...}`: programs generated, compared, equal, different, put down
to contraction, rejected by both or by one side, with the reasons counted,
and the seed range finished. Exit 1 when any difference was found.
"""
import argparse
import collections
import json
import os
import re
import shutil
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["FUZZ_GPU_SIDE"] = "1"  # read by gen.py here and in the runner processes (rand_int)
import batch_run  # noqa: E402
import gen  # noqa: E402
import parallel  # noqa: E402
import precision  # noqa: E402
import reproducer  # noqa: E402
import runner  # noqa: E402

KEEP_MAX = 300   # reproducer folders kept per kind (differences, contraction) in one work folder
OUTPUTS = [("oi", "int64"), ("of", "float64")] + [(n, gen.ATOMIC_WORK[n]) for n in sorted(gen.ATOMIC_WORK)]


def side_command(cfg, spec, folder):
    backend, *flags = spec.split(":")
    cmd = [cfg["cuhost"], "--backend", backend]
    if "nobounds" in flags:
        cmd.append("--no-bounds-check")
    env = dict(os.environ, FUZZ_INVALID="0", PYTHONDONTWRITEBYTECODE="1", CUHOST_NO_CACHE="1")
    if "opt0" in flags:
        env["NUMBA_OPT"] = "0"
    if "sat" in flags:   # float-to-int conversions saturate, as the GPU's cvt.rzi (lowering/saturating_conversions.h)
        env["CUHOST_SATURATING_FLOAT_TO_INT"] = "1"
    if cfg.get("plant") and spec == cfg["b"]:
        env["FUZZ_PLANT"] = str(cfg["plant"])
    return cmd + ["run", os.path.join(HERE, "runner.py"), "cuhost", folder], env


def run_sides(cfg, specs, folder, seeds):
    """Each side's results, the sides run at once (one thread each)."""
    out = {}

    def one(spec):
        cmd, env = side_command(cfg, spec, folder)
        out[spec] = batch_run.run_side(cmd, seeds, env, cfg.get("hard_deadline"))

    threads = [threading.Thread(target=one, args=(s,)) for s in specs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def signature(why):
    """A difference's kind for the summary's counts: the output array and,
    for a math result, the function (`of[3]: ... math.sin allows 3` ->
    `of math.sin`)."""
    m = re.match(r"(\w+)\[\d+\]", why)
    fn = re.search(r"math\.(\w+) allows", why)
    if m:
        return m.group(1) + (" math." + fn.group(1) if fn else "")
    return re.sub(r"\d+", "N", why.split(":")[0])[:60]


def reason(res):
    """A rejection, counted by class and message with numbers and names blurred."""
    msg = (res.get("message") or "").strip().splitlines()
    last = re.sub(r"\d+", "N", msg[-1] if msg else "")[:120]
    return "%s: %s" % (res["error"], last)


def out_of_bounds_both(a, b):
    """An index out of range: the CPU backend's bounds check raises
    IndexError, the GPU (no bounds checks by default, as numba-cuda) reads
    outside the array and faults, or not: the same rejection."""
    def oob(r):
        m = r.get("message") or ""
        return r["error"] == "IndexError" or "CUDA_ERROR_ILLEGAL_ADDRESS" in m
    return oob(a) and oob(b)


def contraction_possible(cfg, prog):
    specs = (cfg["a"], cfg["b"])
    return prog.float_mul and any(s.startswith("cuda") and "opt0" not in s for s in specs)


def optimization_dependent(cfg, prog, folder, seed, a, b):
    """'undefined' when a CPU side's own outputs change with the
    optimization level (NUMBA_OPT=0 against its run): the program relies on
    undefined behaviour, most often a float-to-int conversion of an
    out-of-range value that the generator took for an integer (the join of
    numba's uint64 with int64 is float64), which LLVM may fold at -O3 and
    the GPU's cvt saturates. Else 'different'."""
    for spec, res in ((cfg["a"], a), (cfg["b"], b)):
        if spec.split(":")[0] != "cpu" or "opt0" in spec.split(":"):
            continue
        unopt = spec + ":opt0"
        again = run_sides(dict(cfg, plant=0), [unopt], folder, [seed])[unopt][seed]
        if "out" in again and precision.compare(prog, res["out"], again["out"], precision.Rules("folded-libm"),
                                                OUTPUTS):
            return "undefined"
    return "different"


def saturating_conversion(cfg, prog, folder, seed, a, b, rules):
    """'undefined' when the CPU side, run again with float-to-int
    conversions that behave as the GPU's cvt.rzi does (saturating, a NaN
    to the top-bit pattern, 8-bit results through 16 bits;
    CUHOST_SATURATING_FLOAT_TO_INT), agrees with the CUDA side: the
    difference is a conversion of a NaN, an infinity or an out-of-range
    float, undefined in numba too (x86's cvttsd2si gives INT_MIN). Else
    'different'."""
    specs = (cfg["a"], cfg["b"])
    cpu = next((x for x in specs if x.split(":")[0] == "cpu"), None)
    gpu = next((x for x in specs if x.split(":")[0] == "cuda"), None)
    if cpu is None or gpu is None:
        return "different"
    spec = cpu + ":sat"
    again = run_sides(dict(cfg, plant=0), [spec], folder, [seed])[spec][seed]
    gpu_out = (b if gpu == cfg["b"] else a)["out"]
    if "out" in again and not precision.compare(prog, again["out"], gpu_out, rules, OUTPUTS):
        return "undefined"
    return "different"


def planted_expectation(prog, out, rules):
    """What the comparison must say of a program whose side-b outputs
    runner.planted() perturbed: "equal" only for a one-step change of a
    math.* result under a math rule."""
    changed = json.loads(json.dumps(out))
    runner.planted(prog, changed)
    for (name, _dt), x, y in zip(OUTPUTS, out, changed):
        for j, (u, v) in enumerate(zip(x, y)):
            if u != v:
                one_step = name == "of" and j in prog.inexact_fn and (prog.seed // 7) % 4 == 2
                return "equal" if one_step and rules.math else "different"
    return "equal"


def batch(cfg, lo, hi):
    """Worker: one batch of seeds [lo, hi)."""
    stats, reasons, lines = collections.Counter(), collections.Counter(), []
    rules = precision.Rules(cfg["math_rules"])
    folder = os.path.join(parallel.worker_dir(cfg["work"]), "batch")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    seeds = list(range(lo, hi))
    progs = {}
    for s in seeds:
        progs[s] = gen.generate(s)
        with open(os.path.join(folder, "p%d.py" % s), "w") as f:
            f.write(progs[s].source)
    res = run_sides(cfg, [cfg["a"], cfg["b"]], folder, seeds)
    ra, rb = res[cfg["a"]], res[cfg["b"]]
    cut = False
    for s in seeds:
        a, b, prog = ra[s], rb[s], progs[s]
        if a.get("cut") or b.get("cut"):
            cut = True
            continue
        stats["programs"] += 1
        why, kind = "", "different"
        if "fault" in a or "fault" in b:
            why, kind = "fault: %s" % (a.get("fault") or b.get("fault"))[:2000], "faults"
        elif "error" in a and "error" in b:
            stats["rejected_both"] += 1
            reasons["both: " + reason(a)] += 1
            if a["error"] != b["error"] and not out_of_bounds_both(a, b):
                why = "both reject, differently: %s | %s" % (reason(a), reason(b))
        elif "error" in a or "error" in b:
            side, r = ("a", a) if "error" in a else ("b", b)
            stats["rejected_%s_only" % side] += 1
            reasons["%s only: %s" % (side, reason(r))] += 1
            why = "only %s (%s) rejects it: %s" % (side, cfg[side], r.get("message", "")[:1500])
        else:
            stats["compared"] += 1
            why = precision.compare(prog, a["out"], b["out"], rules, OUTPUTS)
            if why and contraction_possible(cfg, prog):
                # The GPU without contraction must agree with the other side.
                spec = next(x for x in (cfg["a"], cfg["b"]) if x.startswith("cuda")) + ":opt0"
                other = a if cfg["b"].startswith("cuda") else b
                again = run_sides(dict(cfg, plant=0), [spec], folder, [s])[spec][s]
                if "out" in again and not precision.compare(prog, other["out"], again["out"], rules, OUTPUTS):
                    kind = "contraction"
            two_backends = cfg["a"].split(":")[0] != cfg["b"].split(":")[0]
            if why and kind == "different" and two_backends and not cfg.get("plant"):
                kind = optimization_dependent(cfg, prog, folder, s, a, b)
            if why and kind == "different" and two_backends and not cfg.get("plant"):
                kind = saturating_conversion(cfg, prog, folder, s, a, b, rules)
            if not why:
                stats["equal"] += 1
        if cfg.get("plant") and s % cfg["plant"] == 0 and "out" in a and "out" in b:
            # A planted difference: caught unless it is the one-ulp change of
            # a math.* result that the rules allow. Not a finding of the run.
            expect = planted_expectation(prog, a["out"], rules)
            got = "equal" if not why else "different"
            stats["planted_%s" % got] += 1
            if got != expect:
                stats["planted_missed"] += 1
                lines.append("PLANTED seed %d: expected %s, got %s (%s)" % (s, expect, got, why or "equal"))
            elif why:
                keep = os.path.join(cfg["work"], "planted", "s%d" % s)
                reproducer.write(keep, prog, runner.output_values(prog), "planted: " + why,
                                 {cfg["a"]: a, cfg["b"]: b})
                lines.append("planted seed %d caught: %s (kept in %s)" % (s, why[:300], keep))
            continue
        if why:
            stats[kind] += 1
            reasons["%s: %s" % (kind, signature(why))] += 1
            keep_dir = os.path.join(cfg["work"], {"contraction": "contraction", "undefined": "undefined"}.get(
                kind, "differences"))
            kept = len(os.listdir(keep_dir)) if os.path.isdir(keep_dir) else 0
            if kept < KEEP_MAX:
                keep = os.path.join(keep_dir, "s%d" % s)
                reproducer.write(keep, prog, runner.output_values(prog), why, {cfg["a"]: a, cfg["b"]: b})
                where = "kept in " + keep
            else:
                where = "not kept: %d reproducers kept already" % KEEP_MAX
            lines.append("%s seed %d: %s (%s)" % (kind.upper(), s, why[:600], where))
    return {"stats": stats, "reasons": reasons, "lines": lines, "cut": cut}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuhost", required=True)
    ap.add_argument("--seeds", default="0:1000", help="A:B, half-open")
    ap.add_argument("--a", default="cpu")
    ap.add_argument("--b", default="cuda")
    ap.add_argument("--workers", type=int, default=parallel.default_workers())
    ap.add_argument("--minutes", type=float, default=0, help="start no batch after this many minutes")
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--work", default=os.path.join(os.getcwd(), "fuzz-backends"))
    ap.add_argument("--plant", type=int, default=0, help="perturb every K-th program on side b (a test)")
    ap.add_argument("--math-rules", choices=["auto", "libdevice-libm", "folded-libm", "off"], default="auto",
                    help="tolerances of math.* results (precision.py); auto: from the two sides")
    args = ap.parse_args()
    a, b = (int(x) for x in args.seeds.split(":"))
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    math_rules = {"auto": precision.Rules.between(args.a, args.b).math, "off": None}.get(args.math_rules,
                                                                                      args.math_rules)
    cfg = {"cuhost": os.path.abspath(args.cuhost), "a": args.a, "b": args.b, "work": work,
           "plant": args.plant, "math_rules": math_rules}
    start = time.time()
    totals, reasons, done = parallel.run(batch, cfg, a, b, args.batch, args.workers, args.minutes)
    span, extra = parallel.covered(done, a)
    summary = {"sides": "%s|%s" % (args.a, args.b), "math_rules": math_rules, "seeds_finished": span,
               "also_finished": extra, "workers": args.workers, "seconds": round(time.time() - start)}
    for k in ["programs", "compared", "equal", "different", "contraction", "undefined", "rejected_both", "rejected_a_only",
              "rejected_b_only", "faults", "batch_errors", "cut_batches"]:
        summary[k] = totals.get(k, 0)
    if args.plant:
        for k in ["planted_equal", "planted_different", "planted_missed"]:
            summary[k] = totals.get(k, 0)
    summary["reasons"] = dict(reasons.most_common())
    print("SUMMARY %s" % json.dumps(summary), flush=True)
    bad = totals.get("different", 0) + totals.get("faults", 0) + totals.get("batch_errors", 0)
    if args.plant and (totals.get("planted_missed", 0) or not totals.get("planted_different", 0)):
        bad += 1   # the harness failed its own test
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
