#!/usr/bin/env python3
"""numba-cuda's own test suite, unchanged, as cuhost's conformance suite.

    run.py fetch   [--work DIR]                  get numba-cuda's wheel and test helpers (cached)
    run.py run     --impl cuhost --cuhost BIN [--backend cpu|cuda] --out DIR [--jobs N] [--timeout S] [MODULE...]
    run.py run     --impl numba-cuda [--python PY] --out DIR ...
    run.py table   --cuhost DIR [--cuhost DIR ...] --reference DIR   per-module table (Markdown)
    run.py acceptance --cuhost DIR [--cuhost DIR ...] --reference DIR   the goal groups (acceptance.py)
    run.py ratchet --results DIR [--update]     check (or extend) the list of tests that must pass
    run.py ci      --cuhost BIN [--work DIR] [MODULE...]  fetch, run on the CPU backend, check the ratchet
                                                 (modules holding a lost test run once more, alone)

numba-cuda's tests come from its wheel on the package registry, fetched at
test time into the work folder (default build/conformance) and never
committed. Each test module runs in its own process (`cuhost -m pytest` or
`python3 -m pytest` for numba-cuda itself), with a timeout, so a crash or hang
of one module is counted and the run goes on. The outcomes are one line per
test (results.txt), a JSON file per test and a summary per module. README.md
beside this file lists the stand-ins for numba-cuda's test infrastructure and
the modules and single tests out of scope (scope.py).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import acceptance  # noqa: E402
import scope  # noqa: E402

WHEELS = {"numba-cuda": scope.NUMBA_VERSION, "filecheck": "1.0.6"}
RATCHET = os.path.join(HERE, "ratchet_cpu.txt")
# numba-cuda 0.30.4's own run on an H100 (outcomes only), the yardstick of `table` and `acceptance`.
REFERENCE = os.path.join(HERE, "reference", "numba-cuda-h100")
PASS = "passed"
_SEVERITY = {"not run": -1, "skipped": 0, "xfailed": 1, "passed": 2, "xpassed": 3, "failed": 4, "error": 5}


# --- fetching ---------------------------------------------------------------

def _pip_download(name, version, dest):
    """The wheel of name==version in dest (downloaded once; the pure-Python
    tests inside are the same in every platform's wheel)."""
    os.makedirs(dest, exist_ok=True)
    prefix = name.replace("-", "_") + "-" + version + "-"
    found = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
    if found:
        return os.path.join(dest, found[0])
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--python-version", "3.11", "--implementation", "cp", "--platform", "manylinux_2_28_x86_64",
           "-d", dest, "%s==%s" % (name, version)]
    subprocess.run(cmd, check=True)
    found = [f for f in os.listdir(dest) if f.startswith(prefix) and f.endswith(".whl")]
    if not found:
        raise SystemExit("fetch: pip did not leave %s %s in %s" % (name, version, dest))
    return os.path.join(dest, found[0])


def fetch(work):
    """Builds work/overlay (numba/cuda/tests from the wheel, the stand-ins in
    place of the two infrastructure modules) and work/site (filecheck)."""
    wheels = os.path.join(work, "wheels")
    overlay = os.path.join(work, "overlay")
    stamp = os.path.join(overlay, ".stamp")
    standins = os.path.join(HERE, "standins")
    digest = hashlib.sha256(scope.NUMBA_VERSION.encode())
    for name in sorted(os.listdir(standins)):
        with open(os.path.join(standins, name), "rb") as f:
            digest.update(name.encode() + f.read())
    if os.path.exists(stamp) and open(stamp).read() == digest.hexdigest():
        return overlay  # built from this wheel and these stand-ins (copies carry no reliable times)
    numba_cuda = _pip_download("numba-cuda", WHEELS["numba-cuda"], wheels)
    filecheck = _pip_download("filecheck", WHEELS["filecheck"], wheels)
    shutil.rmtree(overlay, ignore_errors=True)
    shutil.rmtree(os.path.join(work, "site"), ignore_errors=True)
    prefix = "numba_cuda/numba/cuda/tests/"
    with zipfile.ZipFile(numba_cuda) as z:
        for member in z.namelist():
            if member.startswith(prefix) and not member.endswith("/"):
                target = os.path.join(overlay, "numba", "cuda", "tests", member[len(prefix):])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with z.open(member) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
    with zipfile.ZipFile(filecheck) as z:
        z.extractall(os.path.join(work, "site"))
    # numba/ and numba/cuda/ are folders of sys.path entries that cuhost's
    # numba.cuda package extends itself with; the files here only mark them
    # as packages for pytest and are never imported (cuhost's come first).
    for pkg in ("numba", "numba/cuda"):
        with open(os.path.join(overlay, pkg, "__init__.py"), "w") as f:
            f.write("# conformance overlay: never imported, cuhost's package comes first on sys.path\n")
    shutil.copy(os.path.join(standins, "testing.py"), os.path.join(overlay, "numba", "cuda", "testing.py"))
    shutil.copy(os.path.join(standins, "support.py"), os.path.join(overlay, "numba", "cuda", "tests", "support.py"))
    with open(stamp, "w") as f:
        f.write(digest.hexdigest())
    return overlay


def list_modules(tests_root):
    found = []
    for folder, _, files in os.walk(tests_root):
        for f in files:
            if f.startswith("test_") and f.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, f), tests_root))
    return sorted(found)


# --- running ----------------------------------------------------------------

def _numba_cuda_tests_root(python):
    code = ("import numpy as np, os\n"
            "np.row_stack = getattr(np, 'row_stack', np.vstack)\n"
            "import numba.cuda.tests as t, numba_cuda\n"
            "print(numba_cuda.__version__)\nprint(os.path.dirname(t.__file__))\n")
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    if out[0].strip() != scope.NUMBA_VERSION:
        raise SystemExit("numba-cuda %s is installed; the harness measures %s" % (out[0], scope.NUMBA_VERSION))
    return out[1].strip()


def _file_stem(module):
    return module[:-3].replace(os.sep, "__")


def _module_log(out_dir, module):
    return os.path.join(out_dir, "logs", _file_stem(module) + ".log")


def run_module(args, module, tests_root, env, out_dir):
    jsonl = os.path.join(out_dir, "raw", _file_stem(module) + ".jsonl")
    log = _module_log(out_dir, module)
    if os.path.exists(jsonl):
        os.remove(jsonl)
    if args.impl == "cuhost":
        cmd = [args.cuhost, "--backend", args.backend]
    else:
        cmd = [args.python]
    cmd += ["-m", "pytest", "-p", "conformance_plugin", "-p", "no:cacheprovider", "--import-mode=append",
            "-o", "addopts=", "-o", "faulthandler_timeout=%d" % max(1, args.timeout * 2 // 3),
            "-q", "--conformance-out", jsonl, "--conformance-tests-root", tests_root,
            "--conformance-impl", args.impl, "--rootdir", tests_root, os.path.join(tests_root, module)]
    cwd = tempfile.mkdtemp(prefix="conformance-")
    start = time.time()
    status = "ok"
    with open(log, "w") as logf:
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdout=logf, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=args.timeout, start_new_session=True)
            rc = p.returncode
            if rc not in (0, 1, 2, 5):
                status = "crash (exit %d)" % rc
        except subprocess.TimeoutExpired:
            rc = None
            status = "timeout (%d s)" % args.timeout
    shutil.rmtree(cwd, ignore_errors=True)
    seconds = time.time() - start
    tests = {}
    if os.path.exists(jsonl):
        with open(jsonl) as f:
            for line in f:
                rec = json.loads(line)
                if rec["outcome"] == "collected":
                    tests.setdefault(rec["id"], {"outcome": "not run", "reason": ""})
                    continue
                # A test can report more than once (subtests, a teardown
                # error after a pass): the worst outcome is the test's.
                old = tests.get(rec["id"])
                if old is None or _SEVERITY[rec["outcome"]] >= _SEVERITY.get(old["outcome"], -1):
                    tests[rec["id"]] = {"outcome": rec["outcome"], "reason": rec["reason"]}
    if rc == 2 and any(t.endswith("::<module>") for t in tests):
        status = "collection error"  # pytest's exit 2: the module did not import
    if not tests:
        tests[module + "::<module>"] = {"outcome": "error", "reason": status if status != "ok" else "no tests"}
    for rec in tests.values():
        if rec["outcome"] == "not run" and status != "ok":
            rec["outcome"], rec["reason"] = "error", status
    return {"module": module, "status": status, "seconds": round(seconds, 1), "tests": tests}


# Modules whose tests time themselves: they run after the others, one at a
# time, for either implementation. test_ipc's futures give its child
# processes 4 s to start and open the parent's memory; beside 15 other
# modules on the GPU machine a child process of either implementation can
# take longer than that to start.
RUN_ALONE = {"cudapy/test_ipc.py"}


def run(args):
    out_dir = os.path.abspath(args.out)
    os.makedirs(os.path.join(out_dir, "raw"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "logs"), exist_ok=True)
    # Only the harness's plugin: pytest plugins installed beside numba-cuda
    # (xdist, timeout, benchmark...) would make the two runs differ.
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    work = os.path.abspath(args.work)
    if args.impl == "cuhost":
        tests_root = os.path.join(fetch(work), "numba", "cuda", "tests")
        paths = [HERE, os.path.join(work, "overlay"), os.path.join(work, "site")]
        args.cuhost = os.path.abspath(args.cuhost)
    else:
        tests_root = _numba_cuda_tests_root(args.python)
        paths = [HERE] + ([args.site] if args.site else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    modules = args.modules or [m for m in list_modules(tests_root) if scope.in_scope(m)]
    results = []
    # `ci` keeps its standard output for the verdict (a CI log may show only
    # the lines around a failure) and writes the per-module lines to a file.
    progress = open(os.path.join(out_dir, "progress.txt"), "w") if getattr(args, "quiet", False) else sys.stdout
    def report(r):
        results.append(r)
        counts = _counts(r["tests"])
        print("%-48s %-14s %5.1fs  %s" % (r["module"], r["status"], r["seconds"],
                                          " ".join("%s=%d" % kv for kv in sorted(counts.items()))),
              file=progress, flush=True)

    pooled = [m for m in modules if m not in RUN_ALONE]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_module, args, m, tests_root, env, out_dir) for m in pooled]
        for fut in concurrent.futures.as_completed(futures):
            report(fut.result())
    for m in modules:
        if m in RUN_ALONE:
            report(run_module(args, m, tests_root, env, out_dir))
    results.sort(key=lambda r: r["module"])
    write_results(out_dir, args, results, progress)
    if progress is not sys.stdout:
        progress.close()
    return results


def _counts(tests):
    counts = {}
    for rec in tests.values():
        counts[rec["outcome"]] = counts.get(rec["outcome"], 0) + 1
    return counts


def write_results(out_dir, args, results, progress=sys.stdout):
    meta = {"impl": args.impl, "backend": getattr(args, "backend", None) if args.impl == "cuhost" else "cuda",
            "numba_cuda_tests": scope.NUMBA_VERSION, "date": datetime.datetime.now().isoformat(timespec="seconds")}
    summary = {"meta": meta, "modules": {}}
    with open(os.path.join(out_dir, "results.txt"), "w") as txt, \
            open(os.path.join(out_dir, "results.jsonl"), "w") as jl:
        for r in results:
            for test_id, rec in sorted(r["tests"].items()):
                txt.write("%s %s %s\n" % (test_id, rec["outcome"], rec["reason"]))
                jl.write(json.dumps({"module": r["module"], "id": test_id, **rec}) + "\n")
            summary["modules"][r["module"]] = {"status": r["status"], "seconds": r["seconds"],
                                               "counts": _counts(r["tests"])}
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    total = {}
    for r in results:
        for k, v in _counts(r["tests"]).items():
            total[k] = total.get(k, 0) + v
    print("total over %d modules: %s" % (len(results), " ".join("%s=%d" % kv for kv in sorted(total.items()))),
          file=progress)


# --- reading results ----------------------------------------------------------

def load(out_dir):
    by_module = {}
    with open(os.path.join(out_dir, "results.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            by_module.setdefault(rec["module"], {})[rec["id"]] = rec["outcome"]
    with open(os.path.join(out_dir, "summary.json")) as f:
        meta = json.load(f)["meta"]
    return meta, by_module


def table(args):
    ref_meta, ref = load(args.reference)
    runs = [load(d) for d in args.cuhost]
    heads = ["cuhost %s" % m["backend"] for m, _ in runs]
    lines = ["| module | numba-cuda passes | " + " | ".join(heads) + " |",
             "|---|---:|" + "---:|" * len(runs)]
    totals = [0] * len(runs)
    ref_total = 0
    for module in sorted(ref):
        if not scope.in_scope(module):
            continue
        ref_pass = {t for t, o in ref[module].items() if o == PASS and scope.in_scope_test(t)}
        ref_total += len(ref_pass)
        cells = []
        for i, (_, res) in enumerate(runs):
            mine = {t for t, o in res.get(module, {}).items() if o == PASS}
            n = len(mine & ref_pass)
            totals[i] += n
            cells.append("%d" % n)
        lines.append("| %s | %d | %s |" % (module, len(ref_pass), " | ".join(cells)))
    lines.append("| **in-scope total** | **%d** | %s |" % (
        ref_total, " | ".join("**%d (%.1f%%)**" % (t, 100.0 * t / max(ref_total, 1)) for t in totals)))
    # Each backend over the tests it can run by design (scope.py,
    # CPU_BACKEND_OUT_OF_SCOPE_TESTS): the figure its goal is measured by.
    cells = []
    for meta, res in runs:
        own = {t for m in ref if scope.in_scope(m) for t, o in ref[m].items()
               if o == PASS and scope.in_scope_for_backend(t, meta["backend"])}
        mine = {t for tests in res.values() for t, o in tests.items() if o == PASS}
        n = len(own & mine)
        cells.append("**%d of %d (%.1f%%)**" % (n, len(own), 100.0 * n / max(len(own), 1)))
    lines.append("| **in scope for the backend** | | %s |" % " | ".join(cells))
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)


def acceptance_report(args):
    _, ref = load(args.reference)
    ref = {m: {t: o for t, o in tests.items() if scope.in_scope_test(t)} for m, tests in ref.items()
           if scope.in_scope(m)}
    runs = [(meta["backend"], res) for meta, res in (load(d) for d in args.cuhost)]
    lines, met = acceptance.report(ref, runs, PASS)
    text = "\n".join(lines)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)
    return 0 if met else 1


def ratchet(args):
    _, res = load(args.results)
    passing = {t for tests in res.values() for t, o in tests.items() if o == PASS}
    required = _ratchet_list(args.list)
    lost = sorted(required - passing)
    new = sorted(passing - required)
    if args.update:
        required |= passing
        new = []
        with open(args.list, "w") as f:
            f.write("# numba-cuda %s tests that pass on cuhost's CPU backend; CI fails when one no longer passes.\n"
                    "# Add newly passing tests with: python3 tests/conformance/run.py ratchet --results DIR --update\n"
                    % scope.NUMBA_VERSION)
            for t in sorted(required):
                f.write(t + "\n")
        print("ratchet: %d tests listed (%d new)" % (len(required), len(new)))
    for t in lost:
        print("NO LONGER PASSES: %s  (%s)" % (t, _outcome_of(res, t)))
    print("ratchet: %d of %d listed tests pass; %d pass that are not listed%s" % (
        len(required) - len(lost), len(required), len(new), " (add them with --update)" if new and not args.update
        else ""))
    print("%d passed, %d failed" % (len(required) - len(lost), len(lost)))
    return 1 if lost else 0


def _ratchet_list(path):
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def _by_test(results):
    return {t: rec for r in results for t, rec in r["tests"].items()}


def _first_line(text, width=300):
    line = next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")
    return line if len(line) <= width else line[:width] + "..."


def ci(args):
    """The CI check: the whole in-scope suite on the CPU backend, then the
    ratchet. A module holding a lost test runs once more, alone, so a test
    that fails only under load is told apart from one that fails every time;
    the verdict (lost tests with their reasons, flaky ones, modules that hung
    or crashed with the end of their log) comes first in the output."""
    out = os.path.join(os.path.abspath(args.work), "cpu-results")
    # Which NumPy the suite meets (the test command runs this check under
    # Debian's NumPy and again in a NumPy 2 venv, CUHOST_PYTHON_ENV).
    seen = subprocess.run([args.cuhost, "--backend", "cpu", "-c", "import numpy; print(numpy.__version__)"],
                          capture_output=True, text=True)
    print("conformance: cuhost runs numba-cuda's suite under NumPy %s" % (seen.stdout.strip() or "?"), flush=True)
    common = dict(impl="cuhost", cuhost=args.cuhost, backend="cpu", work=args.work, timeout=args.timeout,
                  python=None, site=None, quiet=True)
    results = run(argparse.Namespace(out=out, jobs=args.jobs, modules=args.modules, **common))
    required = _ratchet_list(args.list)
    if args.modules:  # a partial run checks the listed tests of its modules only
        required = {t for t in required if t.split("::")[0] in args.modules}
    first = _by_test(results)
    lost = sorted(t for t in required if first.get(t, {}).get("outcome") != PASS)
    second = {}
    if lost:
        modules = sorted({t.split("::")[0] for t in lost})
        second = _by_test(run(argparse.Namespace(out=os.path.join(out, "rerun"), jobs=1, modules=modules,
                                                 **common)))
    still = [t for t in lost if second.get(t, {}).get("outcome") != PASS]
    flaky = [t for t in lost if t not in still]
    none = {"outcome": "not run", "reason": ""}
    for t in still:
        a, b = first.get(t, none), second.get(t, none)
        print("NO LONGER PASSES: %s\n    %s: %s\n    run alone: %s: %s" % (
            t, a["outcome"], _first_line(a["reason"]), b["outcome"], _first_line(b["reason"])))
    for t in flaky:
        a = first.get(t, none)
        print("FLAKY (passed when its module ran alone): %s\n    %s: %s" % (t, a["outcome"],
                                                                              _first_line(a["reason"])))
    for r in results:
        if r["status"] != "ok" and any(t in required for t in r["tests"]):
            print("module %s: %s after %.0f s; end of its log (%s):" % (
                r["module"], r["status"], r["seconds"], os.path.join(out, "logs")))
            with open(_module_log(out, r["module"]), errors="replace") as f:
                for line in f.read().splitlines()[-30:]:
                    print("    " + line[:300])
    passing = {t for t, rec in first.items() if rec["outcome"] == PASS}
    print("ratchet: %d of %d listed tests pass (%d only when run alone); %d pass that are not listed" % (
        len(required) - len(still), len(required), len(flaky), len(passing - required)))
    print("per-module lines: %s" % os.path.join(out, "progress.txt"))
    print("%d passed, %d failed" % (len(required) - len(still), len(still)))
    return 1 if still else 0


def _outcome_of(res, test_id):
    for tests in res.values():
        if test_id in tests:
            return tests[test_id]
    return "not run"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    default_work = os.path.join(REPO, "build", "conformance")
    f = sub.add_parser("fetch")
    f.add_argument("--work", default=default_work)
    r = sub.add_parser("run")
    r.add_argument("--impl", choices=["cuhost", "numba-cuda"], required=True)
    r.add_argument("--cuhost", help="the cuhost executable")
    r.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    r.add_argument("--python", default="python3", help="numba-cuda's Python")
    r.add_argument("--site", help="extra folder for numba-cuda's Python (test helpers such as filecheck)")
    r.add_argument("--out", required=True)
    r.add_argument("--work", default=default_work)
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("modules", nargs="*", help="e.g. cudapy/test_math.py (default: every in-scope module)")
    t = sub.add_parser("table")
    t.add_argument("--cuhost", action="append", required=True)
    t.add_argument("--reference", default=REFERENCE, help="numba-cuda's run (default: its H100 run, checked in)")
    t.add_argument("--output")
    a = sub.add_parser("acceptance")
    a.add_argument("--cuhost", action="append", required=True)
    a.add_argument("--reference", default=REFERENCE, help="numba-cuda's run (default: its H100 run, checked in)")
    a.add_argument("--output")
    k = sub.add_parser("ratchet")
    k.add_argument("--results", required=True)
    k.add_argument("--list", default=RATCHET)
    k.add_argument("--update", action="store_true")
    c = sub.add_parser("ci")
    c.add_argument("--cuhost", required=True)
    c.add_argument("--work", default=default_work)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--timeout", type=int, default=180)
    c.add_argument("--list", default=RATCHET)
    c.add_argument("modules", nargs="*", help="default: every in-scope module")
    args = ap.parse_args()
    if args.cmd == "fetch":
        print(fetch(os.path.abspath(args.work)))
    elif args.cmd == "run":
        if args.impl == "cuhost" and not args.cuhost:
            ap.error("--impl cuhost needs --cuhost")
        run(args)
    elif args.cmd == "table":
        table(args)
    elif args.cmd == "acceptance":
        return acceptance_report(args)
    elif args.cmd == "ratchet":
        return ratchet(args)
    elif args.cmd == "ci":
        return ci(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
