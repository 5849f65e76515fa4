"""pytest plugin of the conformance harness, loaded with `-p conformance_plugin`
in the process that runs one numba-cuda test module (under cuhost or under
numba-cuda itself, the same way for both).

It does three things:
- imports the module under test by its dotted name (`numba.cuda.tests.cudapy.
  test_x`), the way numba-cuda's tests expect to be imported, instead of
  pytest's path-derived name (which differs between an installed numba-cuda
  and cuhost's overlay);
- provides the `initialize_from_pytest_config` fixture that numba-cuda's
  CUDATestCase asks for, which lives in numba-cuda's source tree, not in its
  wheel;
- records one JSON line per test (id, outcome, first line of the reason) to
  the file named by --conformance-out, flushed as it goes, so that a crash or a
  timeout of the module keeps what ran before it.
"""
import importlib
import json
import os

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("conformance")
    group.addoption("--conformance-out", help="JSON-lines file for per-test outcomes")
    group.addoption("--conformance-tests-root", help="folder of numba.cuda.tests")
    group.addoption("--conformance-impl", default="cuhost", help="cuhost or numba-cuda")


_state = {"out": None, "root": None, "done": set()}


def pytest_configure(config):
    out = config.getoption("conformance_out")
    _state["root"] = os.path.realpath(config.getoption("conformance_tests_root") or ".")
    if out:
        _state["out"] = open(out, "a", encoding="utf-8")
    if config.getoption("conformance_impl") == "numba-cuda":
        # numba-cuda 0.30.4 uses np.row_stack, which NumPy 2.4 removed: the
        # reference implementation gets the alias it needs (cuhost does not).
        import numpy as np

        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack


def _test_id(nodeid):
    """`cudapy/test_x.py::Class::test`: pytest's node id, which the harness
    makes relative to numba.cuda.tests by giving that folder as --rootdir."""
    return nodeid


def _record(test_id, outcome, reason=""):
    out = _state["out"]
    if out is None:
        return
    first_line = next((line.strip() for line in str(reason).splitlines() if line.strip()), "")
    out.write(json.dumps({"id": test_id, "outcome": outcome, "reason": first_line[:300]}) + "\n")
    out.flush()


def _module_name(path):
    rel = os.path.relpath(os.path.realpath(str(path)), _state["root"])
    return "numba.cuda.tests." + rel[:-3].replace(os.sep, ".")


class _NamedModule(pytest.Module):
    """A test module imported by its dotted name under numba.cuda.tests."""

    def _getobj(self):
        return importlib.import_module(_module_name(self.path))


def _under_root(path):
    return os.path.realpath(str(path)).startswith(_state["root"] + os.sep)


def pytest_pycollect_makemodule(module_path, parent):
    if _under_root(module_path) and module_path.name != "__init__.py":
        return _NamedModule.from_parent(parent, path=module_path)
    return None


if hasattr(pytest, "Dir"):  # pytest >= 8 collects folders itself

    def pytest_collect_directory(path, parent):
        """Folders of numba.cuda.tests as plain folders: pytest's Package
        would import each __init__.py under a name made from its path, which
        for an installed numba-cuda is not numba.cuda.tests; the modules
        import their packages by their dotted names instead."""
        if _under_root(path) or os.path.realpath(str(path)) == _state["root"]:
            return pytest.Dir.from_parent(parent, path=path)
        return None


@pytest.fixture
def initialize_from_pytest_config(request):
    if request.instance is not None:
        request.instance._dump_failed_filechecks = False


def pytest_collectreport(report):
    if report.failed:
        _record(_test_id(report.nodeid) + "::<module>", "error", _reason(report))


def pytest_collection_finish(session):
    for item in session.items:
        _record(_test_id(item.nodeid), "collected")


def _reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (file, line, reason)
        return longrepr[2]
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    return str(longrepr)


def pytest_runtest_logreport(report):
    test_id = _test_id(report.nodeid)
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            outcome = "xpassed" if xfail else "passed"
        elif report.skipped:
            outcome = "xfailed" if xfail else "skipped"
        else:
            outcome = "failed"
        _record(test_id, outcome, _reason(report) if outcome != "passed" else "")
        _state["done"].add(test_id)
    elif report.when == "setup" and not report.passed:
        _record(test_id, "skipped" if report.skipped else "error", _reason(report))
        _state["done"].add(test_id)
    elif report.when == "teardown" and report.failed:
        _record(test_id, "error", "teardown: " + _reason(report))
