"""The stage-order check: clean on the engine as it is, and failing, with the
file and line named, on a tree where a lower stage includes a higher one."""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
checker = os.path.join(here, "check_stages.py")
repo = os.path.abspath(os.path.join(here, "..", ".."))

ok = subprocess.run([sys.executable, checker, repo], capture_output=True, text=True)
assert ok.returncode == 0, ok.stdout + ok.stderr
assert ok.stdout.startswith("stages in order: aot < support < ir < model"), ok.stdout

with tempfile.TemporaryDirectory() as tree:
    engine = os.path.join(tree, "engine")
    for stage in ("support", "sema", "runtime", "include/cuhost"):
        os.makedirs(os.path.join(engine, stage))
    with open(os.path.join(engine, "stages.txt"), "w") as f:
        f.write("# lowest first\nsupport\nsema\nruntime\n")
    with open(os.path.join(engine, "runtime", "compiler.h"), "w") as f:
        f.write('#pragma once\n#include "sema/typer.h"\n#include "support/log.h"\n')
    with open(os.path.join(engine, "sema", "typer.h"), "w") as f:
        f.write('#pragma once\n#include <vector>\n#include "cuhost/runtime.h"\n#include "support/log.h"\n'
                '#include "runtime/compiler.h"\n')
    os.makedirs(os.path.join(engine, "stray"))
    with open(os.path.join(engine, "stray", "x.cpp"), "w") as f:
        f.write("int x;\n")
    bad = subprocess.run([sys.executable, checker, tree], capture_output=True, text=True)
    assert bad.returncode == 1, bad.stdout
    lines = bad.stdout.splitlines()
    assert "engine/sema/typer.h:5: includes runtime/ (stage 2) from sema/ (stage 1)" in lines, bad.stdout
    assert "engine/stray/ holds sources but is not a stage in engine/stages.txt" in lines, bad.stdout
    assert lines[-1] == "2 problem(s) with the stage order (engine/stages.txt)", bad.stdout
print("stage-order check: ok")
