#!/usr/bin/env python3
"""Runs ruff over pylib with the repository's ruff.toml (the `lint` test).

ruff comes from PyPI, pinned, into a venv of its own made by
tests/venv/make_env.py (instant once made). Exit status: ruff's (0 clean,
1 findings, printed); 77 when ruff cannot be installed (PyPI unreachable),
which ctest reports as skipped, saying why.

    ruff_pylib.py --python PYTHON --venv DIR --spec ruff==X.Y.Z
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "venv"))

import make_env  # noqa: E402  (tests/venv, put on the path above)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="the Python that makes the venv")
    ap.add_argument("--venv", required=True, help="where ruff's venv lives")
    ap.add_argument("--spec", required=True, help="the pinned ruff, e.g. ruff==0.17.6")
    a = ap.parse_args()
    if not make_env.ensure(a.python, a.venv, [a.spec]):
        print("lint SKIPPED: %s could not be installed from PyPI (see above); ruff did not run" % a.spec)
        return make_env.SKIP
    ruff = os.path.join(a.venv, "bin", "ruff")
    config = os.path.join(ROOT, "ruff.toml")
    r = subprocess.run([ruff, "check", "--config", config, "--no-cache"], cwd=ROOT)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
