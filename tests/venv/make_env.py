#!/usr/bin/env python3
"""Makes (once) a virtual environment of given PyPI packages with the Python
cuhost embeds, for the tests that run cuhost inside a user's environment
(tests/venv) and for the NumPy 2 pass of scripts/test.sh. Packages come from
PyPI through the environment's own pip, never from the system.

    make_env.py --python /usr/bin/python3.11 [--system-site-packages] DIR SPEC [SPEC...]

Exits 0 when DIR holds exactly those packages (a stamp file records them, so
a second call is instant); 77 with the reason on stderr when they cannot be
installed (PyPI unreachable): callers then skip, saying so.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77


def ensure(python, env_dir, specs, system_site_packages=False, log=sys.stderr):
    """True when env_dir has `specs` installed; False (reason logged) when PyPI cannot provide them.
    system_site_packages: the venv also sees the base installation's packages, after its own."""
    stamp = os.path.join(env_dir, ".cuhost-env")
    wanted = "\n".join(sorted(specs) + (["--system-site-packages"] if system_site_packages else [])) + "\n"
    py = os.path.join(env_dir, "bin", "python")
    if os.path.exists(py) and os.path.exists(stamp) and open(stamp).read() == wanted:
        return True
    if os.path.exists(env_dir):
        shutil.rmtree(env_dir)
    try:
        subprocess.run([python, "-m", "venv", *(["--system-site-packages"] if system_site_packages else []), env_dir],
                       check=True, stdout=subprocess.DEVNULL)
        r = subprocess.run([py, "-m", "pip", "install", "--disable-pip-version-check", "-q", *specs],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
    except (OSError, subprocess.SubprocessError) as e:
        print("cannot make the environment %s: %s" % (env_dir, e), file=log)
        return False
    if r.returncode != 0:
        print("cannot install %s from PyPI into %s:\n%s" % (" ".join(specs), env_dir, r.stdout[-3000:]), file=log)
        return False
    with open(stamp, "w") as f:
        f.write(wanted)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="the Python cuhost embeds (its major.minor)")
    ap.add_argument("--system-site-packages", action="store_true",
                    help="the venv sees the base installation's packages too (after its own)")
    ap.add_argument("dir")
    ap.add_argument("specs", nargs="+")
    a = ap.parse_args()
    return 0 if ensure(a.python, a.dir, a.specs, a.system_site_packages) else SKIP


if __name__ == "__main__":
    sys.exit(main())
