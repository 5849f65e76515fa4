"""Exports examples/aot/kernels.py (CPU backend, cubins for sm_90, no CPU
library), then runs tests/aot/aot_null_driver.cpp on the export with the null
driver on the library path (the caller sets LD_LIBRARY_PATH; the export
itself runs with it removed, on the CPU backend).
Usage: run_aot_null_driver.py CUHOST TEST_PROGRAM KERNELS_PY WORK_DIR
"""
import os
import shutil
import subprocess
import sys

cuhost, program, script, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
folder = os.path.join(work, "kernels")
export_env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "CUHOST_BACKEND")}
subprocess.run([cuhost, "--backend", "cpu", "export", script, "-o", folder, "--all-compiled", "--arch", "sm_90",
                "--cpu", "none"], env=export_env, check=True, cwd=work, stdout=subprocess.DEVNULL)
r = subprocess.run([program, folder], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.stdout, end="")
shutil.rmtree(work, ignore_errors=True)
sys.exit(r.returncode)
