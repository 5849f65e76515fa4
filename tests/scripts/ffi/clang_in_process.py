# Foreign .cu sources compile with clang-19 inside the process
# (libcuhost_clang, loaded on the first compile) and give what the clang
# executable gives (CUHOST_CLANG_IN_PROCESS=0): the same kernel results on
# random data, checked against NumPy, and the same error for a source that
# is not valid C++. Each mode runs in a process
# of its own with an empty cache; -v shows which compiler ran.
# backends: cpu cuda
# stdout: clang in process ok
import os
import subprocess
import sys
import tempfile

CHILD = """
import numpy as np
from numba import cuda

lerp = cuda.declare_device("lerp_ip", "float32(float32, float32, float32)", link={good!r})

@cuda.jit
def blend(r, a, b):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = lerp(a[i], b[i], np.float32(0.25))

rng = np.random.default_rng(11)
a = rng.random(256, dtype=np.float32)
b = rng.random(256, dtype=np.float32)
r = np.zeros_like(a)
blend[4, 64](r, a, b)
null = cuda.backend() == "cuda" and cuda.get_current_device().name in (b"cuhost null driver", "cuhost null driver")
if not null:
    np.testing.assert_allclose(r, a + np.float32(0.25) * (b - a), rtol=1e-6)
print("results ok")

broken = cuda.declare_device("broken_ip", "float32(float32)", link={bad!r})

@cuda.jit
def use_broken(r):
    r[0] = broken(r[0])

try:
    use_broken[1, 1](r)
    print("ERROR none")
except Exception as e:
    print("ERROR", type(e).__name__, str(e).replace({work!r}, "<work>").replace(chr(10), " | "))
"""

GOOD = 'extern "C" __device__ int lerp_ip(float* r, float a, float b, float t) { *r = a + t * (b - a); return 0; }\n'
BAD = 'extern "C" __device__ int broken_ip(float* r, float x) { *r = x +; return 0; }\n'


def run(work, in_process):
    env = dict(os.environ, CUHOST_CACHE_DIR=os.path.join(work, "cache-%d" % in_process))
    env.pop("CUHOST_CLANG_IN_PROCESS", None)
    if not in_process:
        env["CUHOST_CLANG_IN_PROCESS"] = "0"
    code = CHILD.format(good=os.path.join(work, "good.cu"), bad=os.path.join(work, "bad.cu"), work=work)
    p = subprocess.run([sys.executable, "--verbose", "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    assert "results ok" in p.stdout, p.stdout
    (error,) = [line for line in p.stdout.splitlines() if line.startswith("ERROR")]
    return error, p.stderr


with tempfile.TemporaryDirectory() as work:
    for name, text in (("good.cu", GOOD), ("bad.cu", BAD)):
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    inside, inside_log = run(work, True)
    outside, outside_log = run(work, False)

    # Which compiler ran, from the -v stage lines of the two sources.
    def compiles(log):
        return [line for line in log.splitlines() if ".cu] clang" in line]

    for log in (inside_log, outside_log):
        assert any("good.cu]" in line for line in compiles(log)), log
        assert any("bad.cu]" in line for line in compiles(log)), log
    assert all("in process" in line for line in compiles(inside_log)), inside_log
    assert not any("in process" in line for line in compiles(outside_log)), outside_log
    # One error, whichever compiler ran; it names the broken source.
    assert inside == outside, (inside, outside)
    assert inside != "ERROR none" and "bad.cu" in inside, inside

print("clang in process ok")
