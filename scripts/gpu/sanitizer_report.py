"""The verdict of one compute-sanitizer tool over the script tests
(scripts/gpu/run_sanitizers.sh): each report record of every process is
put in one of three kinds, and only the first fails the run.

- expected: the test provokes that driver error or fault on purpose and
  checks it (a 1 GiB shared-memory request, a poke at address 0x10); the
  test says so in a header line `# sanitizer-expects: WORD WORD...`, and a
  record whose first line holds every word of one such line is expected;
- foreign: the record's innermost host frame above the driver is in a
  library cuhost does not own (NCCL probing its kernels for other architectures);
- errors: everything else, cuhost's own.

    python3 sanitizer_report.py WORK TOOL SECONDS JOBS > report
WORK holds results.txt, pids.txt ("pid args" per process), logs/<pid>.log
and out/<test>.txt, as run_sanitizers.sh leaves them.
"""
import os
import re
import sys

FOREIGN_LIBRARIES = ("libnccl.so",)


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def records(log_text):
    """The records of a compute-sanitizer log: lists of lines, each list
    starting with the line that names the error."""
    out, current = [], None
    for line in log_text.splitlines():
        body = line[len("========= "):] if line.startswith("========= ") else line.lstrip("=").strip()
        if not body.strip():
            if current:
                out.append(current)
            current = None
            continue
        # Each tool's closing count (memcheck's and synccheck's "ERROR
        # SUMMARY", racecheck's "RACECHECK SUMMARY") repeats the records above it.
        if body.startswith(("COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "Target application returned")):
            continue
        if current is None:
            if not body.startswith(" "):
                current = [body]
            continue
        current.append(body)
    if current:
        out.append(current)
    return out


def expectations(script):
    try:
        with open(script) as f:
            head = [next(f, "") for _ in range(40)]
    except OSError:
        return []
    return [m.group(1).split() for m in (re.match(r"#\s*sanitizer-expects:\s*(.+)", ln) for ln in head) if m]


def kind_of(record, expects):
    first = record[0]
    # The tool's own failures ("Internal Sanitizer Error: ...") are not
    # findings about the program; they are listed apart, with their test.
    if first.startswith("Internal Sanitizer Error"):
        return "tool"
    if any(all(word in first for word in words) for words in expects):
        return "expected"
    # The innermost frame above the driver's own (libcuda) decides.
    frames = [ln for ln in record if "Host Frame" in ln and "libcuda.so" not in ln]
    if frames and any(lib in frames[0] for lib in FOREIGN_LIBRARIES):
        return "foreign"
    return "error"


def main():
    work, tool, seconds, jobs = sys.argv[1:5]
    results = read(os.path.join(work, "results.txt")).splitlines()
    scripts = {}
    for line in read(os.path.join(work, "pids.txt")).splitlines():
        pid, _, args = line.partition(" ")
        script = next((a for a in reversed(args.split()) if a.endswith(".py")), "")
        scripts[pid] = (script, args)
    counts = {"expected": 0, "foreign": 0, "error": 0, "tool": 0}
    tool_records = []
    shown = []
    logs = sorted(os.listdir(os.path.join(work, "logs")))
    for name in logs:
        pid = name[: -len(".log")]
        script, args = scripts.get(pid, ("", "?"))
        expects = expectations(script)
        text = read(os.path.join(work, "logs", name))
        for record in records(text):
            kind = kind_of(record, expects)
            counts[kind] += 1
            if kind == "error":
                shown.append((args, record))
            elif kind == "tool":
                tool_records.append((args, record[0]))
    print("== compute-sanitizer --tool %s, %s s, %s at once" % (tool, seconds, jobs))
    for k in ("passed", "failed", "na", "notrun"):
        print("%s: %d" % (k, sum(1 for r in results if r.startswith(k + " "))))
    print("processes checked: %d; records: %d errors, %d expected by their tests, %d in foreign libraries, "
          "%d the tool's own" % (len(logs), counts["error"], counts["expected"], counts["foreign"], counts["tool"]))
    for args, first in tool_records:
        print("---- the tool's own, " + args + ": " + first)
    for r in results:
        if r.startswith("failed "):
            test = r.split(" ", 1)[1]
            print("---- FAILED " + test)
            out = os.path.join(work, "out", test.replace("/", "_") + ".txt")
            if os.path.exists(out):
                print("\n".join(read(out).splitlines()[-25:]))
    for args, record in shown[:30]:
        print("---- " + args)
        print("\n".join(record[:40]))
    if len(shown) > 30:
        print("... %d more error records" % (len(shown) - 30))
    failed = sum(1 for r in results if r.startswith("failed "))
    return 1 if counts["error"] or failed else 0


if __name__ == "__main__":
    sys.exit(main())
