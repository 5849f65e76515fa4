"""Checks that no file of the engine includes a header of a later stage.

The stages and their order are listed in engine/stages.txt (lowest first).
A file in stage S may include headers of S and of stages listed before S, and
the public headers under engine/include. The build enforces the same rule for
what it compiles; this check also covers headers no translation unit of
their own stage includes. Exits 1 and names each include that runs back up.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
engine = os.path.join(root, "engine")
with open(os.path.join(engine, "stages.txt")) as f:
    stages = [line.strip() for line in f if line.strip() and not line.startswith("#")]
rank = {name: i for i, name in enumerate(stages)}
include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)
problems = []
unlisted = set()
for stage in os.listdir(engine):
    folder = os.path.join(engine, stage)
    if not os.path.isdir(folder) or stage == "include" or stage.startswith("."):
        continue
    if stage not in rank:
        if any(n.endswith((".cpp", ".h", ".inc")) for _, _, files in os.walk(folder) for n in files):
            unlisted.add(stage)
        continue
    for dirpath, _, files in os.walk(folder):
        for name in files:
            if not name.endswith((".cpp", ".h", ".inc")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in include.finditer(text):
                target = m.group(1)
                if target in rank and rank[target] > rank[stage]:
                    line = text.count("\n", 0, m.start()) + 1
                    where = f"{os.path.relpath(path, root)}:{line}"
                    problems.append(
                        f"{where}: includes {target}/ (stage {rank[target]}) from {stage}/ (stage {rank[stage]})")
for stage in sorted(unlisted):
    problems.append(f"engine/{stage}/ holds sources but is not a stage in engine/stages.txt")
for p in problems:
    print(p)
if problems:
    print(f"{len(problems)} problem(s) with the stage order (engine/stages.txt)")
else:
    print(f"stages in order: {' < '.join(stages)}")
sys.exit(1 if problems else 0)
