"""`cuhost export` keeps a kernel's thread-block cluster shape (cluster_dim):
the manifest's kernel entry has "cluster": [x, y, z] ([1, 1, 1] without
clusters), which cuhost::aot launches with cuLaunchKernelEx and
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION (and sets on an exported graph's
kernel nodes).
Usage: test_export_cluster.py CUHOST WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

cuhost, work = (os.path.abspath(a) for a in sys.argv[1:3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "cluster_kernels.py")
env = {k: v for k, v in os.environ.items() if k not in ("CUHOST_BACKEND", "LD_LIBRARY_PATH")}
env["CUHOST_NO_CACHE"] = "1"
out = os.path.join(work, "out")
subprocess.run([cuhost, "--backend", "cpu", "export", script, "-o", out, "--all-compiled", "--arch", "sm_90",
                "--cpu", "none"], env=env, cwd=work, check=True, stdout=subprocess.DEVNULL)
with open(os.path.join(out, "manifest.json")) as f:
    kernels = {k["name"]: k for k in json.load(f)["kernels"]}
assert sorted(kernels) == ["plain", "ranks"], sorted(kernels)
assert kernels["ranks"]["cluster"] == [2, 1, 1], kernels["ranks"]
assert kernels["plain"]["cluster"] == [1, 1, 1], kernels["plain"]
shutil.rmtree(work, ignore_errors=True)
print("export cluster ok")
