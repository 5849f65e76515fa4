"""`cuhost export`'s errors, each naming the kernel or graph and the cause
(exit 1 and one `cuhost: error:` line), the script's own failure (its exit
code, nothing exported), and a graph the export leaves out when it was not
asked for by name. Then a successful export of the same script: the files it
lists exist with the digests the manifest gives them.
The generated header, with parameters named like C++ keywords, compiles.
Usage: test_export_errors.py CUHOST WORK_DIR INCLUDE_DIR
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

cuhost, work, include = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "export_errors_kernels.py")
env = {k: v for k, v in os.environ.items() if k != "CUHOST_BACKEND"}
env["CUHOST_NO_CACHE"] = "1"
AXPY = "--kernel=axpy:void(float32, float32[::1], float32[::1])"


def export(*args, script_path=script):
    cmd = [cuhost, "--backend", "cpu", "export", script_path, "-o", os.path.join(work, "out"), *args]
    r = subprocess.run(cmd, env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def expect_error(args, message):
    rc, out, err = export(*args)
    lines = [line for line in err.splitlines() if line.startswith("cuhost")]
    assert rc == 1 and lines == ["cuhost: error: export failed: " + message], (args, rc, err)


expect_error(["--kernel", "nosuch:void()"], "no kernel named 'nosuch' in the script's global namespace (__main__)")
expect_error(["--kernel", "axpy"], "--kernel 'axpy' must be NAME:SIGNATURE, e.g. axpy:void(float32, float32[::1])")
expect_error(["--kernel", "x:void(float32[::1])"], "'x' is not a @cuda.jit kernel (its type is _cuhost.DeviceNDArray)")
expect_error(["--kernel", "cscale:void(complex64, complex64[::1])"],
             "kernel 'cscale' cannot be exported: its parameter of type complex64 has no C++ form (integers, floats, "
             "bools, arrays and pointers only)")
expect_error([AXPY, "--cpu", "bogus"], "unknown CPU 'bogus' for x86_64-pc-linux-gnu in --cpu (e.g. x86-64, x86-64-v3, "
             "native)")
expect_error([AXPY, "--arch", "sm_9x"], "invalid GPU architecture 'sm_9x' in --arch (expected e.g. sm_80,sm_90)")
expect_error([AXPY, "--graph", "nosuch"], "no graph named 'nosuch' in the script's global namespace (__main__)")
expect_error([AXPY, "--graph", "unnamed"], "graph 'unnamed': launch 0: argument 'out' of kernel 'axpy' is an array no "
             "global of the script names; pass it through a global so that it becomes a parameter the host binds")
expect_error([AXPY, "--kernel", "axpy:void(float64, float64[::1], float64[::1])"],
             "kernel 'axpy' is selected with two signatures ((float32, array(float32, 1d, C), array(float32, 1d, C)) "
             "and (float64, array(float64, 1d, C), array(float64, 1d, C))); an export holds one specialization per "
             "kernel name")
assert not os.path.exists(os.path.join(work, "out", "manifest.json"))

# The script fails: its exit code, nothing exported.
failing = os.path.join(work, "failing.py")
with open(failing, "w") as f:
    f.write("import sys\nsys.exit(3)\n")
rc, out, err = export(AXPY, script_path=failing)
assert rc == 3 and "cuhost: error: the script exited with code 3; nothing was exported" in err, (rc, err)

# Not asked for by name, the graph that cannot be exported is left out, saying why.
rc, out, err = export(AXPY, "--kernel", "shift:void(float32, float32[::1])", "--arch", "sm_90")
assert rc == 0, err
assert "cuhost export: left out graph 'unnamed': launch 0: argument 'out' of kernel 'axpy' is an array" in err, err
assert out.splitlines()[-1] == "cuhost export: 2 kernel(s), 0 graph(s)", out
folder = os.path.join(work, "out")
manifest = json.load(open(os.path.join(folder, "manifest.json")))
assert manifest["format"] == "cuhost-aot" and manifest["version"] == 1 and manifest["graphs"] == []
assert sorted(manifest["files"]) == ["cpu/kernels.so", "gpu/axpy.sm_90.cubin", "gpu/axpy.sm_90.ptx",
                                     "gpu/shift.sm_90.cubin", "gpu/shift.sm_90.ptx", "kernels.h"]
for rel, f in manifest["files"].items():
    data = open(os.path.join(folder, rel), "rb").read()
    assert len(data) == f["bytes"] and hashlib.sha256(data).hexdigest() == f["sha256"], rel
k, k_shift = manifest["kernels"]
assert k["name"] == "axpy" and k["slot_count"] == 7 and [p["name"] for p in k["params"]] == ["a", "x", "out"]
assert [p["slots"] for p in k["params"]] == [[4], [8, 8, 8], [8, 8, 8]]
header = open(os.path.join(folder, "kernels.h")).read()
assert "namespace out {" in header and ("void axpy(const cuhost::aot::LaunchConfig& launch_config_, float a, "
                                        "cuhost::aot::Array<float, 1> x, cuhost::aot::Array<float, 1> out) const") in header
assert ("void shift(const cuhost::aot::LaunchConfig& launch_config_, float default_, "
        "cuhost::aot::Array<float, 1> new_) const") in header, header
check = subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-I", include, "-x", "c++",
                        os.path.join(folder, "kernels.h")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
assert check.returncode == 0, check.stdout
nm = subprocess.run(["nm", "-D", "--defined-only", os.path.join(folder, "cpu/kernels.so")], stdout=subprocess.PIPE,
                    text=True).stdout
exported = sorted(line.split()[-1] for line in nm.splitlines())
assert exported == sorted(["cuhost_aot_cpu_abi_version", "cuhost_aot_cpu_launch", "cuhost_aot_cpu_max_cooperative_blocks",
                           k["cpu"]["thread_symbol"], k["cpu"]["block_symbol"], k_shift["cpu"]["thread_symbol"],
                           k_shift["cpu"]["block_symbol"]]), exported
shutil.rmtree(work, ignore_errors=True)
print("export errors: ok")
