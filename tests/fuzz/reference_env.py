"""The reference compiler for the differential fuzzer: numba's CPU JIT from
PyPI, installed into a private venv under the build folder (never the system,
never by hand). Returns that venv's python, or None when numba cannot be
installed (no network): the fuzz test then skips with a message."""
import os
import subprocess
import sys

NUMBA_SPEC = "numba==0.68.1"


def ensure(venv_dir, log=sys.stderr):
    py = os.path.join(venv_dir, "bin", "python")
    stamp = os.path.join(venv_dir, ".numba-ok")
    if os.path.exists(stamp) and os.path.exists(py):
        return py
    try:
        if not os.path.exists(py):
            subprocess.run([sys.executable, "-m", "venv", venv_dir], check=True,
                           stdout=subprocess.DEVNULL)
        r = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                            NUMBA_SPEC], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=900)
        if r.returncode != 0:
            print("could not install %s: %s" % (NUMBA_SPEC, r.stdout[-2000:]), file=log)
            return None
        subprocess.run([py, "-c", "import numba"], check=True)
    except (OSError, subprocess.SubprocessError) as e:
        print("could not install %s: %s" % (NUMBA_SPEC, e), file=log)
        return None
    open(stamp, "w").close()
    return py


if __name__ == "__main__":
    p = ensure(sys.argv[1])
    print(p or "")
    sys.exit(0 if p else 1)
