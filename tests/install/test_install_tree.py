"""The install tree end to end, as a C++ user meets it.

Installs the build into a temporary prefix (`cmake --install`), builds the
example consumer project (examples/embed: find_package(cuhost)) against it,
runs it on the CPU backend, runs a script with the installed `cuhost`, checks
pkg-config's answer, then moves the prefix and runs the installed `cuhost`
again (nothing may point back into the source or build tree).
Usage: test_install_tree.py BUILD_DIR SOURCE_DIR WORK_DIR
"""
import glob
import os
import shutil
import subprocess
import sys

build, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
prefix = os.path.join(work, "prefix")

# No variable may point the runtime at the build tree: only the install layout counts.
env = {k: v for k, v in os.environ.items()
       if not k.startswith("CUHOST_") and k not in ("PYTHONPATH", "PYTHONHOME")}
env["CUHOST_NO_CACHE"] = "1"


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    print(r.stdout, end="", flush=True)
    if r.returncode != 0:
        sys.exit(f"FAILED ({r.returncode}): {' '.join(cmd)}")
    return r.stdout


run(["cmake", "--install", build, "--prefix", prefix])
# The library folder is lib/ or Debian's multiarch lib/<triplet>/ (GNUInstallDirs).
libdir = os.path.relpath(os.path.dirname(glob.glob(os.path.join(prefix, "lib*/**/libcuhost.*"), recursive=True)[0]),
                         prefix)
for f in ["bin/cuhost", "include/cuhost/runtime.h", "include/cuhost/kernel.h", "include/cuhost/plugin_abi.h",
          libdir + "/cmake/cuhost/cuhostConfig.cmake", libdir + "/cmake/cuhost/cuhostConfigVersion.cmake",
          libdir + "/pkgconfig/cuhost.pc", "share/cuhost/python/cuda/__init__.py", "share/cuhost/python/numba/__init__.py",
          "share/cuhost/libdevice/libdevice.10.bc", "share/cuhost/plugins/philox/plugin.toml"]:
    assert os.path.exists(os.path.join(prefix, f)), f"not installed: {f}"

# Public headers name nothing from LLVM, CPython or CUDA.
for h in os.listdir(os.path.join(prefix, "include/cuhost")):
    includes = [line for line in open(os.path.join(prefix, "include/cuhost", h)) if line.lstrip().startswith("#include")]
    for line in includes:
        header = line.split("include", 1)[1].strip().strip('<>"')
        assert header.startswith("cuhost/") or "/" not in header and not header.startswith(
            ("Python", "cuda", "nvrtc", "nvJitLink", "cu")), f"include/cuhost/{h}: {line.strip()}"

# The consumer project, built only against the prefix.
consumer = os.path.join(work, "consumer")
cfg = ["cmake", "-S", os.path.join(source, "examples/embed"), "-B", consumer, "-DCMAKE_PREFIX_PATH=" + prefix,
       "-DCMAKE_BUILD_TYPE=Release"]
if shutil.which("ninja"):
    cfg += ["-G", "Ninja"]
run(cfg)
run(["cmake", "--build", consumer])
# A static engine (CUHOST_BUILD_SHARED=OFF) in an application outside the
# prefix cannot find the data folder by itself: such applications name it.
static = not glob.glob(os.path.join(prefix, libdir, "libcuhost.so*"))
consumer_env = dict(env, CUHOST_DATA_DIR=os.path.join(prefix, "share/cuhost")) if static else env
print("+", os.path.join(consumer, "cuhost_embed_example"), "cpu", flush=True)
r = subprocess.run([os.path.join(consumer, "cuhost_embed_example"), "cpu"], cwd=work, env=consumer_env,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.stdout, end="", flush=True)
assert r.returncode == 0, f"cuhost_embed_example failed ({r.returncode})"
out = r.stdout
assert "backend cpu" in out and "script: saxpy on 3000 elements" in out and "C++ launch: saxpy on 3000" in out, out

# examples/live, built the same way: one launch of its kernel (stdin closed),
# checked, with the script followed.
live = os.path.join(work, "consumer-live")
run(cfg[:2] + [os.path.join(source, "examples/live"), "-B", live] + cfg[5:])
run(["cmake", "--build", live])
r = subprocess.run([os.path.join(live, "cuhost_live_example"), os.path.join(source, "examples/live/step.py"),
                    "--backend", "cpu"], cwd=work, env=consumer_env, stdin=subprocess.DEVNULL,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.stdout, end="", flush=True)
assert r.returncode == 0 and "formula a=3 b=7 " in r.stdout and " wrong=0 " in r.stdout, "cuhost_live_example failed"

# pkg-config names the installed library and headers.
if shutil.which("pkg-config"):
    pc_env = dict(env, PKG_CONFIG_PATH=os.path.join(prefix, libdir, "pkgconfig"))
    r = subprocess.run(["pkg-config", "--cflags", "--libs", "cuhost"], env=pc_env, stdout=subprocess.PIPE, text=True)
    assert r.returncode == 0 and "-lcuhost" in r.stdout and os.path.realpath(prefix) in os.path.realpath(
        r.stdout.split()[0][2:]), r.stdout

# The installed executable runs a script with a plugin, also after the prefix moves.
script = os.path.join(source, "scripts/examples/saxpy.py")
moved = os.path.join(work, "moved")
for where in (prefix, moved):
    if where == moved:
        os.rename(prefix, moved)
    out = run([os.path.join(where, "bin/cuhost"), "--backend", "cpu", "run", script], cwd=work)
    out = run([os.path.join(where, "bin/cuhost"), "--backend", "cpu", "-c",
               "import cuda, cuhost, os; print(os.path.realpath(cuda.__file__)); print(cuhost.share_dir())"], cwd=work)
    cuda_file, share = out.strip().splitlines()[-2:]
    assert cuda_file.startswith(os.path.realpath(where) + "/share/cuhost/python/"), out
    assert os.path.realpath(share) == os.path.realpath(os.path.join(where, "share/cuhost")), out
    out = run([os.path.join(where, "bin/cuhost"), "plugins"], cwd=work)
    assert "philox" in out, out
shutil.rmtree(work, ignore_errors=True)
print("install tree: ok")
