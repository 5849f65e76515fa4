# The cuhost executable starts the CUDA driver (cuInit) on a thread of its
# own before it loads the engine, when the command starts the driver at once
# (a script on the auto or cuda backend); the engine waits for that thread
# before its first driver call, which `--verbose` names. Commands that do not
# start the driver at once never start it early: --backend cpu, and `-c`
# commands (multiprocessing's children), which start it at first use.
# stdout: early driver start ok
import os
import subprocess
import sys
import tempfile

EARLY = "[startup] driver started early"

with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as child:
    child.write("import numpy as np\nfrom numba import cuda\n"
                "a = cuda.to_device(np.arange(5.0))\nprint(cuda.backend(), a.copy_to_host().sum())\n")


def run(*args):
    env = dict(os.environ)
    env.pop("CUHOST_BACKEND", None)  # this script's own --backend cuda would reach the children
    p = subprocess.run([sys.executable, "--verbose", *args], capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, (args, p.returncode, p.stderr)
    return p


for args in (("--backend", "cuda", "run", child.name), ("run", child.name), (child.name,)):
    p = run(*args)
    assert p.stderr.count(EARLY) == 1, (args, p.stderr)
    assert p.stdout.split()[0] == "cuda", (args, p.stdout)

p = run("--backend", "cpu", "run", child.name)
assert EARLY not in p.stderr and p.stdout.split() == ["cpu", "10.0"], p.stderr + p.stdout

code = "from numba import cuda\nprint(cuda.backend())\n"
p = run("-c", code)
assert EARLY not in p.stderr and p.stdout.strip() == "cuda", p.stderr + p.stdout
os.unlink(child.name)
print("early driver start ok")
