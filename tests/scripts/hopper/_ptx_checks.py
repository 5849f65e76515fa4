# What the hopper PTX tests share: counted checks, and ptxas (when the CUDA
# toolkit is installed) assembling a kernel's PTX for sm_90.
import os
import subprocess
import tempfile


class PtxChecks:
    def __init__(self):
        self.checks = 0

    def check(self, cond, what):
        assert cond, what
        self.checks += 1


def assemble(ptx):
    ptxas = "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        return
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        subprocess.run([ptxas, "-arch=sm_90", src, "-o", os.path.join(d, "k.cubin")], check=True)
