# cuhost-args: --plugin-path ../../data/plugins
# Plugins with mistakes are refused (or fail at first use) with messages
# naming the plugin, the file and the field, while the good plugins keep
# working: bad TOML, a missing field, an unknown ABI, a bad signature, a
# missing file, a symbol two plugins define, a .cu that does not compile, a
# symbol the library does not define.
import os

import numpy as np
from numba import cuda
import cuhost.plugins as plugins

here = os.path.abspath(os.path.join(os.getcwd(), "..", "..", "data", "plugins"))
records = {os.path.basename(r["directory"]): r for r in plugins.available()}


def refused(folder, *fragments):
    r = records[folder]
    assert not r["loaded"], folder
    for f in fragments:
        assert f in r["reason"], (folder, f, r["reason"])


refused("bad_syntax", "plugin manifest %s/bad_syntax/plugin.toml:3:" % here, "invalid TOML")
refused("missing_field", "plugin 'missing_field' (%s/missing_field/plugin.toml): field 'plugin.version': missing" % here)
refused("unknown_abi", "field 'functions[0].abi': unknown ABI 'stdcall' (expected 'c' or 'numba')")
refused("bad_signature", "field 'functions[0].signature': invalid signature 'int32(flaot32)'", "flaot32")
refused("missing_file", "field 'build.link[0]': file not found: 'nowhere.cu'")
refused("zz_dup_symbol", "symbol 'tiny_add' is already defined by plugin 'tinylib'")
assert records["tinylib"]["loaded"] and records["broken_cu"]["loaded"] and records["missing_symbol"]["loaded"]

# Importing a refused plugin raises PluginError with the reason.
try:
    plugins.load("unknown_abi")
except cuda.PluginError as e:
    assert "unknown ABI 'stdcall'" in str(e)
else:
    raise AssertionError("refused plugin imported")
try:
    plugins.load("no_such_plugin")
except cuda.PluginError as e:
    assert "no plugin named 'no_such_plugin'" in str(e) and "tinylib" in str(e), str(e)
else:
    raise AssertionError("unknown plugin imported")

from cuhost.plugins import tinylib  # noqa: E402


@cuda.jit
def use_tiny(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = tinylib.add(a[i], b[i])


a = np.random.default_rng(0).integers(-1000, 1000, 100).astype(np.int32)
b = np.random.default_rng(1).integers(-1000, 1000, 100).astype(np.int32)
out = np.zeros(100, np.int32)
use_tiny[1, 128](out, a, b)
np.testing.assert_array_equal(out, a + b)
try:
    tinylib.add(1, 2)
except TypeError as e:
    assert str(e) == "'tinylib.add' is a device function and is not callable from the host", str(e)
else:
    raise AssertionError("host call allowed")

# A .cu that does not compile fails at first use, naming the file and showing the compiler's log.
broken = plugins.load("broken_cu")


@cuda.jit
def use_broken(out):
    out[0] = broken.f(1)


try:
    use_broken[1, 1](out)
except Exception as e:
    msg = str(e)
    assert "broken.cu" in msg and "undefined_thing" in msg, msg
else:
    raise AssertionError("broken .cu linked")

# A symbol the library does not define: the linker names it.
missing = plugins.load("missing_symbol")


@cuda.jit
def use_missing(out):
    out[0] = missing.g(1)


try:
    use_missing[1, 1](out)
except Exception as e:
    assert "symbol_not_in_lib" in str(e), str(e)
else:
    raise AssertionError("missing symbol linked")

# The good plugin still works after all that.
use_tiny[1, 128](out, b, a)
np.testing.assert_array_equal(out, a + b)
print("broken plugins ok")
