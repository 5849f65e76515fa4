# cuda.compile*() take the one cache path (runtime/compile_lookup.h): the
# same request again is served from memory, a second process reads it from
# the engine's content-keyed disk cache instead of compiling, with the very
# same text; every option that changes the code (lineinfo, debug, fastmath,
# opt, cc, abi, abi_info, device, launch_bounds, the signature) is another
# entry with another text; CUHOST_NO_CACHE=1 compiles.
# stdout: compile api cache ok
import json
import os
import subprocess
import sys
import tempfile
import textwrap

MODULE = textwrap.dedent('''
    import hashlib
    import json
    import _cuhost
    from numba import cuda
    from numba.cuda import float32, float64, void

    def axpy(out, x, a):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + out[i]

    def axpy_dev(x, a, b):
        return a * x + b

    SIG = void(float32[::1], float32[::1], float32)
    DEV = float32(float32, float32, float32)
    REQUESTS = {
        "kernel": lambda: cuda.compile_ptx(axpy, SIG),
        "kernel again": lambda: cuda.compile_ptx(axpy, SIG),
        "lineinfo": lambda: cuda.compile_ptx(axpy, SIG, lineinfo=True),
        "fastmath": lambda: cuda.compile_ptx(axpy, SIG, fastmath=True),
        "opt=False": lambda: cuda.compile_ptx(axpy, SIG, opt=False),
        "debug": lambda: cuda.compile_ptx(axpy, SIG, debug=True, opt=False),
        "cc=(8, 0)": lambda: cuda.compile_ptx(axpy, SIG, cc=(8, 0)),
        "launch_bounds": lambda: cuda.compile_ptx(axpy, SIG, launch_bounds=(128,)),
        "float64": lambda: cuda.compile_ptx(axpy, void(float64[::1], float64[::1], float64)),
        "device c": lambda: cuda.compile(axpy_dev, DEV, device=True),
        "device numba": lambda: cuda.compile(axpy_dev, DEV, device=True, abi="numba"),
        "abi_info": lambda: cuda.compile(axpy_dev, DEV, device=True, abi_info={"abi_name": "renamed"}),
    }

    def run():
        out = {}
        for name, request in REQUESTS.items():
            code, resty = request()
            assert _cuhost._link_ptx_for_test(code, "sm_80" if name == "cc=(8, 0)" else "sm_90") > 0, name
            out[name] = [hashlib.sha256(code.encode()).hexdigest(), str(resty)]
        codes, resty = cuda.compile_all(axpy_dev, DEV, device=True, output="ptx")
        out["compile_all"] = [hashlib.sha256(codes[0].encode()).hexdigest(), str(resty)]
        code, resty = cuda.compile_for_current_device(axpy_dev, DEV, device=True)
        out["current device"] = [hashlib.sha256(code.encode()).hexdigest(), str(resty)]
        code, resty = cuda.compile(axpy_dev, DEV, device=True, cc=_cuhost._current_cc())
        out["current cc"] = [hashlib.sha256(code.encode()).hexdigest(), str(resty)]
        out["sm_90"] = list(_cuhost._current_cc()) == [9, 0]
        print(json.dumps(out))
''')

folder = tempfile.mkdtemp()
with open(os.path.join(folder, "compiled_requests.py"), "w") as f:
    f.write(MODULE)
engine_cache = os.path.join(folder, "engine-cache")


def child(**env):
    code = "import sys\nsys.path.insert(0, %r)\nimport compiled_requests as m\nm.run()\n" % folder
    p = subprocess.run([sys.executable, "--verbose", "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, CUHOST_CACHE_DIR=engine_cache, **env))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def served(stderr, function):
    return [line.split(" served by ")[1] for line in stderr.splitlines()
            if "[%s] compile served by" % function in line]


first, err1 = child()
# Eleven distinct requests, each compiled once; the repeated one and
# compile_all's twin of "device c" from memory; compile_for_current_device
# is compile() with the device's cc (the default cc, sm_90, on an H100/H200
# and on the CPU backend: then "device c" again).
sm_90 = first.pop("sm_90")
assert served(err1, "axpy") == ["compiled", "memory"] + ["compiled"] * 7, served(err1, "axpy")
current = "memory" if sm_90 else "compiled"
assert served(err1, "axpy_dev") == ["compiled"] * 3 + ["memory", current, "memory"], served(err1, "axpy_dev")
distinct = {name: h for name, (h, _) in first.items()
            if name not in ("kernel again", "compile_all", "current device", "current cc")}
assert len(set(distinct.values())) == len(distinct), "two different requests gave the same code: %s" % first
assert first["kernel again"] == first["kernel"]
assert first["compile_all"] == first["device c"] and first["current device"] == first["current cc"]
assert (first["current device"] == first["device c"]) == sm_90
assert first["device c"][1] == "float32" and first["kernel"][1] == "none", first

second, err2 = child()
second.pop("sm_90")
assert second == first, (first, second)
assert served(err2, "axpy") == ["disk", "memory"] + ["disk"] * 7, served(err2, "axpy")
current = "memory" if sm_90 else "disk"
assert served(err2, "axpy_dev") == ["disk"] * 3 + ["memory", current, "memory"], served(err2, "axpy_dev")
assert "[axpy] typing" not in err2 and "[axpy_dev] typing" not in err2

third, err3 = child(CUHOST_NO_CACHE="1")
third.pop("sm_90")
assert third == first
assert "disk" not in served(err3, "axpy") + served(err3, "axpy_dev"), err3
print("compile api cache ok")
