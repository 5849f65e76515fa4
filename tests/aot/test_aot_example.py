"""examples/aot end to end, as an application that ships kernels without Python meets it.

Installs the build into a prefix (`cmake --install`) and exports
examples/aot/kernels.py with the installed `cuhost export` (GPU images for
sm_80 and sm_90, the CPU library for this machine's CPU); installs the aot
component alone into a second prefix and builds the example against that
prefix only (find_package(cuhost COMPONENTS aot)); checks with ldd that the
program loads no libpython, libLLVM, libnvrtc, libnvJitLink or libcuhost;
runs it on the CPU library (results checked against host references inside
the program); then the runtime's errors, each naming the kernel and the
cause: a truncated file, an altered file, a missing folder, a folder
exported again with another signature than the header's, a call with
other argument types (a compile error), and, on the null driver, a device
for which the export holds no cubin and no PTX. Last, the example's own
build exporting kernels.py with the installed cuhost (no AOT_EXPORT_DIR).
Usage: test_aot_example.py BUILD_DIR SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

build, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
full, aot_only = os.path.join(work, "prefix"), os.path.join(work, "aot-prefix")
env = {k: v for k, v in os.environ.items() if not k.startswith("CUHOST_") and k not in ("PYTHONPATH", "PYTHONHOME")}
env["CUHOST_NO_CACHE"] = "1"


def run(cmd, expect_rc=0, **kw):
    print("+", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, env=kw.pop("env", env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    print(r.stdout, end="", flush=True)
    if expect_rc is not None and r.returncode != expect_rc:
        sys.exit(f"FAILED (exit {r.returncode}, expected {expect_rc}): {' '.join(cmd)}")
    return r


run(["cmake", "--install", build, "--prefix", full])
run(["cmake", "--install", build, "--prefix", aot_only, "--component", "aot"])
installed = sorted(os.path.relpath(os.path.join(d, f), aot_only) for d, _, fs in os.walk(aot_only) for f in fs)
assert not any("libcuhost.so" in f or f.startswith("bin/") or "share/cuhost" in f for f in installed), installed
assert "include/cuhost/aot.h" in installed, installed

exported = os.path.join(work, "aot-kernels")
script = os.path.join(source, "examples/aot/kernels.py")
run([os.path.join(full, "bin/cuhost"), "--backend", "cpu", "export", script, "-o", exported, "--all-compiled",
     "--arch", "sm_80,sm_90", "--cpu", "native", "--namespace", "aot_kernels"], cwd=work)
manifest = json.load(open(os.path.join(exported, "manifest.json")))
kernels = {k["name"]: k for k in manifest["kernels"]}
assert sorted(kernels) == ["axpy", "center", "noise", "scale"], sorted(kernels)
assert kernels["center"]["cooperative"] and not kernels["noise"]["cooperative"]
assert [os.path.basename(p) for p in kernels["noise"]["links"]] == ["philox.cu"], kernels["noise"]["links"]
assert "ptx" not in kernels["noise"]["gpu"] and kernels["axpy"]["gpu"]["ptx"]["arch"] == "sm_90"
assert sorted(kernels["noise"]["gpu"]["cubins"]) == ["sm_80", "sm_90"]
assert [g["name"] for g in manifest["graphs"]] == ["step"]
assert [p["name"] for p in manifest["graphs"][0]["params"]] == ["x", "alpha", "y", "out"]
for rel, f in manifest["files"].items():
    assert os.path.getsize(os.path.join(exported, rel)) == f["bytes"], rel

consumer = os.path.join(work, "consumer")
cfg = ["cmake", "-S", os.path.join(source, "examples/aot"), "-B", consumer, "-DCMAKE_PREFIX_PATH=" + aot_only,
       "-DCMAKE_BUILD_TYPE=Release", "-DAOT_EXPORT_DIR=" + exported]
if shutil.which("ninja"):
    cfg += ["-G", "Ninja"]
run(cfg)
run(["cmake", "--build", consumer])
program = os.path.join(consumer, "cuhost_aot_example")

ldd = run(["ldd", program]).stdout
for banned in ("libpython", "libLLVM", "libnvrtc", "libnvJitLink", "libcuhost.so"):
    assert banned not in ldd, f"{program} loads {banned}:\n{ldd}"
assert "libcuhost_aot.so" in ldd and os.path.realpath(aot_only) in ldd, ldd

out = run([program, exported], cwd=work).stdout
assert "loaded " + exported + ": cpu native" in out and "aot example ok" in out, out


def broken_copy(name):
    dst = os.path.join(work, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(exported, dst)
    return dst


def expect_error(folder, text, extra_env=None):
    r = run([program, folder], expect_rc=1, cwd=work, env=dict(env, **(extra_env or {})))
    assert text in r.stdout, f"expected {text!r} in:\n{r.stdout}"


truncated = broken_copy("truncated")
lib = os.path.join(truncated, "cpu/kernels.so")
size = os.path.getsize(lib)
with open(lib, "r+b") as f:
    f.truncate(size - 100)
expect_error(truncated, f"{truncated}/cpu/kernels.so has {size - 100} bytes, the manifest {size} (truncated or replaced)")

altered = broken_copy("altered")
cubin = os.path.join(altered, "gpu/noise.sm_90.cubin")
data = bytearray(open(cubin, "rb").read())
data[len(data) // 2] ^= 0xFF
open(cubin, "wb").write(bytes(data))
null_driver = {"LD_LIBRARY_PATH": os.path.join(build, "null_driver")}
# The null driver (a libcuda.so.1 that computes nothing) is a device of sm_90: the cubin is read, and refused.
expect_error(altered, f"cuhost::aot::Error (noise): noise: {altered}/gpu/noise.sm_90.cubin does not match its "
             "SHA-256 digest in the manifest (altered)", null_driver)

expect_error(os.path.join(work, "no-such-folder"), f"export folder '{os.path.join(work, 'no-such-folder')}' not found")

resigned = broken_copy("resigned")
m = json.load(open(os.path.join(resigned, "manifest.json")))
for k in m["kernels"]:
    if k["name"] == "axpy":
        k["signature"] = "(float64, array(float64, 1d, C), array(float64, 1d, C), array(float64, 1d, C))"
json.dump(m, open(os.path.join(resigned, "manifest.json"), "w"))
expect_error(resigned, "cuhost::aot::Error (axpy): kernel 'axpy': the header expects the signature (float32, "
             "array(float32, 1d, C), array(float32, 1d, C), array(float32, 1d, C)) but the export folder holds "
             "(float64, array(float64, 1d, C)")

# Only sm_80 images: an sm_90 device has no cubin; the kernels without foreign code still have PTX.
old_arch = os.path.join(work, "sm80-only")
run([os.path.join(full, "bin/cuhost"), "--backend", "cpu", "export", script, "-o", old_arch, "--all-compiled",
     "--arch", "sm_80", "--cpu", "none", "--namespace", "aot_kernels"], cwd=work)
expect_error(old_arch, "cuhost::aot::Error (noise): kernel 'noise': no cubin for this device (sm_90) and no PTX it "
             "can compile; the export holds sm_80 (export again with --arch sm_90)", null_driver)
# No GPU and no CPU library.
expect_error(old_arch, "has no CPU library (exported with --cpu none) and there is no GPU: libcuda.so.1 could not be "
             "loaded", {"LD_LIBRARY_PATH": ""})

# A call with other argument types does not compile, and the message names the signature.
bad = os.path.join(work, "bad_call.cpp")
with open(bad, "w") as f:
    f.write('#include "kernels.h"\n'
            "void f(const cuhost::aot::Module& m, float* p) {\n"
            "  aot_kernels::Kernels k(m);\n"
            "  auto a = cuhost::aot::Array<float, 1>::contiguous(p, {4});\n"
            "  k.axpy({1, 32}, 0.5, a, a, a);  // 0.5 is a double; axpy's a is float32\n"
            "}\n")
r = run(["c++", "-std=c++17", "-fsyntax-only", "-I", os.path.join(aot_only, "include"), "-I", exported, bad],
        expect_rc=None)
assert r.returncode != 0 and "axpy takes exactly (float a, cuhost::aot::Array<float, 1> x" in r.stdout, r.stdout

# Against the full prefix and without AOT_EXPORT_DIR, the example's build exports kernels.py itself
# with the installed cuhost (the CPU library for x86-64-v3, the CMake default).
self_export = os.path.join(work, "self-export")
cfg = ["cmake", "-S", os.path.join(source, "examples/aot"), "-B", self_export, "-DCMAKE_PREFIX_PATH=" + full,
       "-DCMAKE_BUILD_TYPE=Release", "-DAOT_ARCHS=sm_90"]
if shutil.which("ninja"):
    cfg += ["-G", "Ninja"]
run(cfg)
run(["cmake", "--build", self_export])
out = run([os.path.join(self_export, "cuhost_aot_example"), os.path.join(self_export, "aot-kernels")], cwd=work).stdout
assert ": cpu x86-64-v3" in out and "aot example ok" in out, out

shutil.rmtree(work, ignore_errors=True)
print("aot example: ok")
