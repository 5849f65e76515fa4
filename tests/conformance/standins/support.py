"""Stand-in for numba-cuda's `numba.cuda.tests.support` (test infrastructure).

The wheel's own module imports numba's compiler internals (pythonapi, datamodel,
NRT's runtime object, cffi_utils) at import time, so under cuhost every test
module that uses it would fail before a single test of the API ran. This file
gives the same helpers with the same behaviour, written for the conformance
harness: `TestCase.assertPreciseEqual` (type families, dtypes, layouts, ulps),
`override_config`, captured output, subprocess and temporary-folder helpers.
Nothing here stands in for the API under test: helpers that need a feature of
numba.cuda (NRT statistics, cffi typing) call the real one and fail when it is
missing.
"""
import cmath
import contextlib
import enum
import io
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import warnings

import numpy as np

from numba.cuda import config

IS_NUMPY_2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"

linux_only = unittest.skipIf(not sys.platform.startswith("linux"), "Linux-only test")
windows_only = unittest.skipIf(not sys.platform.startswith("win32"), "Windows-only test")


def _have_cffi():
    try:
        import cffi  # noqa: F401
    except ImportError:
        return False
    return True


skip_unless_cffi = unittest.skipUnless(_have_cffi(), "requires cffi")


@contextlib.contextmanager
def override_config(name, value):
    """Sets numba.cuda.config.<name> to value for the block; the name must exist."""
    saved = getattr(config, name)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, saved)


@contextlib.contextmanager
def override_env_config(name, value):
    """Sets environment variable name for the block and reloads the config."""
    saved = os.environ.get(name)
    os.environ[name] = value
    config.reload_config()
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved
        config.reload_config()


def captured_stdout():
    return contextlib.redirect_stdout(io.StringIO())


def captured_stderr():
    return contextlib.redirect_stderr(io.StringIO())


def run_in_subprocess(code, flags=(), env=None, timeout=30):
    """Runs `code` with sys.executable -c; returns (stdout, stderr) or raises
    AssertionError with the child's stderr when it exits non-zero."""
    try:
        done = subprocess.run([sys.executable, *flags, "-c", code], env=env, check=True, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.CalledProcessError as e:
        raise AssertionError("process failed with code %d: stderr:\n%s\n" % (e.returncode, e.stderr)) from e
    return done.stdout, done.stderr


_TRASH = os.path.join(tempfile.gettempdir(), "cuhost-conformance-tmp.%d" % os.getuid())


def temp_directory(prefix):
    """A fresh folder that outlives the test (stale ones, a day old, are removed)."""
    os.makedirs(_TRASH, exist_ok=True)
    cutoff = time.time() - 24 * 3600
    for name in os.listdir(_TRASH):
        path = os.path.join(_TRASH, name)
        try:
            if os.stat(path).st_mtime < cutoff:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass
    return tempfile.mkdtemp(prefix=prefix + "-", dir=_TRASH)


def import_dynamic(modname):
    import importlib

    importlib.invalidate_caches()
    __import__(modname)
    return sys.modules[modname]


def ignore_internal_warnings():
    warnings.filterwarnings("ignore", module="typeguard")


class TestCase(unittest.TestCase):
    longMessage = True

    @property
    def random(self):
        return np.random.RandomState(42)

    def reset_module_warnings(self, module):
        if isinstance(module, str):
            module = sys.modules[module]
        registry = getattr(module, "__warningregistry__", None)
        if registry is not None:
            registry.clear()

    @contextlib.contextmanager
    def assertTypingError(self):
        from numba.cuda.core.errors import TypingError

        with self.assertRaises(TypingError) as cm:
            yield cm

    @contextlib.contextmanager
    def assertRefCount(self, *objects):
        before = [sys.getrefcount(x) for x in objects]
        yield
        after = [sys.getrefcount(x) for x in objects]
        self.assertEqual(before, after)

    # --- precise comparison -------------------------------------------------

    def _family(self, value):
        if isinstance(value, np.ndarray):
            return "ndarray"
        if isinstance(value, enum.Enum):
            return "enum"
        if isinstance(value, (tuple, list)):
            return "sequence"
        if isinstance(value, (bool, int, np.bool_, np.integer, str, bytes, type(None), np.timedelta64,
                              np.datetime64)):
            return "exact"
        if isinstance(value, (complex, np.complexfloating)):
            return "complex"
        if isinstance(value, (float, np.floating)):
            return "approximate"
        return "unknown"

    @staticmethod
    def _unit_strides(arr):
        """Strides in items, ignoring dimensions of extent 0 or 1."""
        if arr.size == 0:
            return [0] * arr.ndim
        return [s / arr.itemsize for s, n in zip(arr.strides, arr.shape) if n > 1]

    def assertStridesEqual(self, first, second):
        self.assertEqual(first.shape, second.shape, "shapes differ")
        self.assertEqual(first.itemsize, second.itemsize, "itemsizes differ")
        self.assertEqual(self._unit_strides(first), self._unit_strides(second), "strides differ")

    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None, ignore_sign_on_zero=False,
                           abs_tol=None):
        """Equality with type checks: the same type family (exact, approximate,
        complex, array, sequence, enum), for arrays the same dtype, shape,
        mutability and strides, for NumPy scalars the same dtype; floats equal
        within `ulps` units of `prec` ('exact', 'single': 24 bits, 'double': 53
        bits), NaN equal to NaN, signed zeros told apart unless
        ignore_sign_on_zero; abs_tol (a float or 'eps') accepts smaller
        absolute differences."""
        try:
            self._precise(first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
        except AssertionError as e:
            why = str(e)
        else:
            return
        self.fail("when comparing %s and %s: %s" % (first, second, why))

    def _precise(self, first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol):
        family = self._family(first)
        other = self._family(second)
        self.assertEqual(family, other, "Type Family mismatch. (%s != %s)%s" % (family, other,
                                                                                  ": %s" % msg if msg else ""))
        recurse = lambda a, b: self._precise(a, b, prec, ulps, msg, ignore_sign_on_zero, abs_tol)  # noqa: E731
        if family == "ndarray":
            self.assertEqual(first.dtype, second.dtype)
            self.assertEqual(first.ndim, second.ndim, "different number of dimensions")
            self.assertEqual(first.shape, second.shape, "different shapes")
            self.assertEqual(first.flags.writeable, second.flags.writeable, "different mutability")
            self.assertEqual(self._unit_strides(first), self._unit_strides(second), "different strides")
            for a, b in zip(first.flat, second.flat):
                recurse(a, b)
            return
        if family == "sequence":
            self.assertEqual(len(first), len(second), msg=msg)
            for a, b in zip(first, second):
                recurse(a, b)
            return
        if family == "enum":
            self.assertIs(first.__class__, second.__class__)
            recurse(first.value, second.value)
            return
        if family == "unknown":
            self.assertIs(first.__class__, second.__class__)
        exact = family in ("exact", "unknown") or prec == "exact"
        if hasattr(first, "dtype") and hasattr(second, "dtype"):
            self.assertEqual(first.dtype, second.dtype)
        if isinstance(first, (bool, np.bool_)) != isinstance(second, (bool, np.bool_)):
            self.fail("Mismatching return types (%s vs. %s)%s" % (first.__class__, second.__class__,
                                                                   ": %s" % msg if msg else ""))
        try:
            if cmath.isnan(first) and cmath.isnan(second):
                return
        except TypeError:
            pass
        if abs_tol is not None:
            if abs_tol == "eps":
                tolerance = np.finfo(type(first)).eps
            elif isinstance(abs_tol, float):
                tolerance = abs_tol
            else:
                raise ValueError('abs_tol is not "eps" or a float, found %s' % abs_tol)
            if abs(first - second) < tolerance:
                return
        delta = None
        if not exact:
            bits = {"single": 24, "double": 53}.get(prec)
            if bits is None:
                raise ValueError("unsupported precision %r" % (prec,))
            delta = 2 ** (ulps - bits - 1) * (abs(first) + abs(second))
        if family == "complex":
            self._number(first.real, second.real, delta, msg, ignore_sign_on_zero)
            self._number(first.imag, second.imag, delta, msg, ignore_sign_on_zero)
        elif isinstance(first, (np.timedelta64, np.datetime64)):
            if np.isnat(first):
                self.assertEqual(np.isnat(first), np.isnat(second))
            else:
                self._number(first, second, delta, msg, ignore_sign_on_zero)
        else:
            self._number(first, second, delta, msg, ignore_sign_on_zero)

    def _number(self, first, second, delta, msg, ignore_sign_on_zero):
        if delta is None or first == second == 0.0 or math.isinf(first) or math.isinf(second):
            self.assertEqual(first, second, msg=msg)
            if not ignore_sign_on_zero:
                try:
                    if math.copysign(1, first) != math.copysign(1, second):
                        self.fail(self._formatMessage(msg, "%s != %s" % (first, second)))
                except TypeError:
                    pass
        else:
            self.assertAlmostEqual(first, second, delta=delta, msg=msg)

    # --- tests that rerun themselves in a child process ----------------------

    def subprocess_test_runner(self, test_module, test_class=None, test_name=None, envvars=None, timeout=60,
                               flags=None, _subproc_test_env="1"):
        """Runs test_module[.test_class[.test_name]] with unittest in a child
        sys.executable, with SUBPROC_TEST set so the test runs its body there."""
        name = ".".join(p for p in (test_module, test_class, test_name) if p is not None)
        args = [a for kv in (flags or {}).items() for a in kv]
        env = dict(os.environ, SUBPROC_TEST=_subproc_test_env, **(envvars or {}))
        done = subprocess.run([sys.executable, *args, "-m", "unittest", name], capture_output=True, text=True,
                              timeout=timeout, env=env)
        streams = "\ncaptured stdout: %s\ncaptured stderr: %s" % (done.stdout, done.stderr)
        self.assertEqual(done.returncode, 0, streams)
        if "NO TESTS RAN" in done.stderr:
            self.skipTest("NO TESTS RAN")
        self.assertIn("OK", done.stderr)
        return done

    def run_test_in_subprocess(maybefunc=None, timeout=60, envvars=None):
        def wrap(func):
            def inner(self, *args, **kwargs):
                if os.environ.get("SUBPROC_TEST") != func.__name__:
                    self.subprocess_test_runner(test_module=self.__module__, test_class=type(self).__name__,
                                                test_name=func.__name__, timeout=timeout, envvars=envvars,
                                                _subproc_test_env=func.__name__)
                else:
                    func(self)

            return inner

        import types as pytypes

        return wrap(maybefunc) if isinstance(maybefunc, pytypes.FunctionType) else wrap

    def make_dummy_type(self):
        """A Python class Dummy and an Opaque numba type DummyType unique to
        this test (typeof(Dummy()) is an instance of DummyType), registered
        through numba.cuda.extending as numba-cuda's helper does. numba-cuda's
        helper also registers an @unbox for passing Dummy objects to kernels;
        cuhost has no boxing API (numba.cuda.extending.unbox raises
        NotImplementedError), so here Dummy objects type kernels and device
        functions but cannot be kernel arguments at launch."""
        from numba.cuda import types
        from numba.cuda.extending import register_model, typeof_impl
        from numba.cuda.models import OpaqueModel

        DummyType = type("DummyTypeFor{}".format(self.id()), (types.Opaque,), {})
        dummy_type = DummyType("my_dummy")
        register_model(DummyType)(OpaqueModel)

        class Dummy:
            pass

        @typeof_impl.register(Dummy)
        def typeof_dummy(val, c):
            return dummy_type

        return Dummy, DummyType


class EnableNRTStatsMixin:
    """Turns NRT statistics on around each test: needs numba.cuda's NRT."""

    def setUp(self):
        from numba.cuda.memory_management.nrt import rtsys

        rtsys.memsys_enable_stats()

    def tearDown(self):
        from numba.cuda.memory_management.nrt import rtsys

        rtsys.memsys_disable_stats()


class MemoryLeak:
    """Checks that NRT allocations and frees balance over a test."""

    def memory_leak_setup(self):
        from numba.cuda.memory_management.nrt import rtsys

        self.__init_stats = rtsys.get_allocation_stats()
        self.__check = True

    def memory_leak_teardown(self):
        if self.__check:
            self.assert_no_memory_leak()

    def assert_no_memory_leak(self):
        from numba.cuda.memory_management.nrt import rtsys

        old, new = self.__init_stats, rtsys.get_allocation_stats()
        self.assertEqual(new.alloc - old.alloc, new.free - old.free)
        self.assertEqual(new.mi_alloc - old.mi_alloc, new.mi_free - old.mi_free)

    def disable_leak_check(self):
        self.__check = False


class MemoryLeakMixin(EnableNRTStatsMixin, MemoryLeak):
    def setUp(self):
        super().setUp()
        import gc

        gc.collect()
        self.memory_leak_setup()

    def tearDown(self):
        import gc

        gc.collect()
        self.memory_leak_teardown()
        super().tearDown()


class CheckWarningsMixin:
    @contextlib.contextmanager
    def check_warnings(self, messages, category=RuntimeWarning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = 0
        for w in caught:
            for m in messages:
                if m in str(w.message):
                    self.assertEqual(w.category, category)
                    found += 1
        self.assertEqual(found, len(messages))
