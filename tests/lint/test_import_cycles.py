#!/usr/bin/env python3
"""The import-circle checker (import_cycles.py) on small packages made here:
it must report a circle of module-level imports (through relative and
`from pkg import sub` forms and numba's alias paths), name its modules, and
pass a package whose only circle runs through an import inside a function.
"""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "import_cycles.py")


def make_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def check(files, *flags):
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, files)
        r = subprocess.run([sys.executable, CHECKER, *flags, root], capture_output=True, text=True)
    return r.returncode, r.stdout


def expect(cond, what, out):
    if not cond:
        print("FAIL: %s\n%s" % (what, out))
        sys.exit(1)


def main():
    circle = {
        "cuda/__init__.py": "",
        "cuda/a.py": "from . import b\n",
        "cuda/b.py": "from .sub import c\n",
        "cuda/sub/__init__.py": "",
        "cuda/sub/c.py": "import numba.cuda.a\n",  # numba.cuda.a is cuda.a (the alias rule)
    }
    rc, out = check(circle)
    expect(rc == 1, "a three-module circle fails the check", out)
    expect("import circle among 3 modules: cuda.a, cuda.b, cuda.sub.c" in out, "the circle's modules named", out)

    lazy = dict(circle)
    lazy["cuda/sub/c.py"] = "def f():\n    import numba.cuda.a\n"
    rc, out = check(lazy)
    expect(rc == 0 and "no import circle" in out, "an import inside a function is not an edge", out)
    rc, out = check(lazy, "--all")
    expect(rc == 1 and "cuda.a, cuda.b, cuda.sub.c" in out, "--all counts imports inside functions", out)

    under_if = dict(circle)
    under_if["cuda/sub/c.py"] = "try:\n    from .. import a\nexcept ImportError:\n    pass\n"
    rc, out = check(under_if)
    expect(rc == 1, "a module-level import under try is an edge", out)
    print("import_cycles.py: circles found, function-level imports ignored, --all reports them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
