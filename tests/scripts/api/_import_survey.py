"""Measures which of numba-cuda's own test modules import under cuhost.

Not a test (its name starts with '_'): a developer tool for issue 14. Run it
under cuhost with the folder that holds numba-cuda's `tests` package:

    cuhost --backend cpu run tests/scripts/api/_import_survey.py \
        /tmp/wheel/numba_cuda/numba/cuda/tests [--verbose]

It copies that `tests` folder into a temporary directory, appends the
directory to numba.cuda's package path (so `numba.cuda.tests.cudapy.test_x`
imports exactly as under numba-cuda) and imports every test module of
cudapy/, cudadrv/, doc_examples/, nocuda/ and core/, printing one line per
module that fails with the exception that stopped it.

numba.cuda.testing and numba.cuda.tests.support are test infrastructure that
the conformance harness replaces; here they are permissive placeholders, so
the survey measures only the *other* imports of each module.
"""
import importlib
import os
import shutil
import sys
import tempfile
import traceback
import types
import unittest

FOLDERS = ("cudapy", "cudadrv", "doc_examples", "nocuda", "core")


def _placeholder_module(name):
    """A module whose every name is a do-nothing decorator, a TestCase class
    (capitalized names) or the real unittest module."""
    m = types.ModuleType(name, "placeholder for the conformance harness's " + name)

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr == "unittest":
            return unittest
        if attr == "temp_directory":
            return lambda prefix: tempfile.mkdtemp(prefix=prefix)
        if attr[:1].isupper() and not attr.isupper():
            cls = type(attr, (object,) if attr.endswith("Mixin") else (unittest.TestCase,), {})
            setattr(m, attr, cls)
            return cls

        def decorator_or_factory(*args, **kwargs):
            if len(args) == 1 and not kwargs and callable(args[0]):
                return args[0]
            return lambda fn: fn

        return decorator_or_factory

    m.__getattr__ = __getattr__
    return m


def main(argv):
    verbose = "--verbose" in argv
    argv = [a for a in argv if a != "--verbose"]
    src = argv[0] if argv else "/tmp/wheel/numba_cuda/numba/cuda/tests"
    root = tempfile.mkdtemp(prefix="cuhost-survey-")
    shutil.copytree(src, os.path.join(root, "tests"), ignore=shutil.ignore_patterns("__pycache__"))
    # The harness's stand-ins take the place of the test infrastructure.
    support = os.path.join(root, "tests", "support.py")
    if os.path.exists(support):
        os.remove(support)

    import numba.cuda

    numba.cuda.__path__.append(root)
    sys.modules["numba.cuda.testing"] = _placeholder_module("numba.cuda.testing")
    sys.modules["numba.cuda.tests.support"] = _placeholder_module("numba.cuda.tests.support")

    ok, failed = [], []
    for folder in FOLDERS:
        path = os.path.join(root, "tests", folder)
        for fname in sorted(os.listdir(path)):
            if not (fname.startswith("test_") and fname.endswith(".py")):
                continue
            modname = "numba.cuda.tests.%s.%s" % (folder, fname[:-3])
            try:
                importlib.import_module(modname)
                ok.append(modname)
            except BaseException as e:  # noqa: B902  (SystemExit from a module is a failure too)
                failed.append(modname)
                print("FAIL %s: %s: %s" % (modname[len("numba.cuda.tests."):], type(e).__name__,
                                           str(e).splitlines()[0] if str(e) else ""))
                if verbose:
                    traceback.print_exc()
    print("imported %d of %d test modules" % (len(ok), len(ok) + len(failed)))
    shutil.rmtree(root, ignore_errors=True)


main(sys.argv[1:])
