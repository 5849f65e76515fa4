"""How ufunc kernels are made and launched.

The kernels of @vectorize, @guvectorize and cuda.reduce are Python source
generated here and compiled by cuhost's own compiler through cuda.jit, like
any user kernel: the user's function is a device function the generated
kernel calls, so nothing loops in Python on the launch path. Every
generated kernel is a grid-stride loop over `n` work items; `launch` picks
the block size from the device's occupancy (the forall launcher) and caps
the grid at what the device keeps resident at once, so large inputs stride
instead of launching more blocks than can run.
"""
import ast
import inspect
import linecache as _linecache
import os
import textwrap
import warnings as _warnings

import _cuhost

from .. import config
from ..compiler import jit
from ..core.errors import NumbaPerformanceWarning


def _digest(text, length):
    """The first `length` hex digits of the SHA-1 of `text` (hashlib is
    imported at the first ufunc: `from numba import cuda` stays short)."""
    import hashlib

    return hashlib.sha1(text.encode()).hexdigest()[:length]


def compile_kernel(source, name, glbls, device=False):
    """A cuda.jit dispatcher for the function `name` defined by `source`.

    The source is registered with linecache under a unique file name so
    that cuhost's capture (and tracebacks) can read it."""

    # Named by its text: the same kernel gets the same name in every process (compile cache).
    filename = "<cuhost-ufunc %s %s>" % (name, _digest(source, 16))
    _linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec")
    exec(code, glbls)
    return jit(device=device)(glbls[name])


_resident_cache = {}


def resident_threads():
    """Threads the current device keeps resident at once (grid-stride cap);
    on the CPU backend a fixed number of work items per launch."""
    if _cuhost.backend() != "cuda":
        return 1 << 16
    dev = _cuhost._current_device_id()
    n = _resident_cache.get(dev)
    if n is None:
        sms = _cuhost._device_attribute(dev, "MULTIPROCESSOR_COUNT")
        per_sm = _cuhost._device_attribute(dev, "MAX_THREADS_PER_MULTIPROCESSOR")
        n = _resident_cache[dev] = int(sms) * int(per_sm)
    return n


def _sm_count():
    if _cuhost.backend() != "cuda":
        return None
    return int(_cuhost._device_attribute(_cuhost._current_device_id(), "MULTIPROCESSOR_COUNT"))


def warn_low_occupancy(blocks):
    """numba's NumbaPerformanceWarning for a grid too small to fill the
    device (CUDA_LOW_OCCUPANCY_WARNINGS). On the CPU backend the device is
    taken to have one streaming multiprocessor per hardware thread."""

    if not config.CUDA_LOW_OCCUPANCY_WARNINGS:
        return
    sms = _sm_count()
    if sms is None:
        sms = os.cpu_count() or 1
    if blocks < 2 * sms:
        _warnings.warn(NumbaPerformanceWarning("Grid size %d will likely result in GPU under-utilization due to "
                                               "low occupancy." % blocks))


def launch(kernel, n, stream, args, occupancy_check=False):
    """Run a grid-stride kernel over n work items (no launch when n == 0)."""
    if n <= 0:
        return
    tasks = min(n, resident_threads())
    if occupancy_check:
        warn_low_occupancy((tasks + 255) // 256)
    if stream:
        kernel.forall(tasks, stream=stream)(*args)
    else:
        kernel.forall(tasks)(*args)


def device_function(pyfunc):
    """The user's function as a lazily compiled cuda.jit device function.

    cuhost captures functions from their `def` source; a lambda (common in
    cuda.reduce(lambda a, b: a + b)) is rewritten into an equivalent def
    from its own source text, with its closure's values as globals."""

    if isinstance(pyfunc, _cuhost.Dispatcher):
        return pyfunc
    if getattr(pyfunc, "__name__", None) == "<lambda>":
        pyfunc = _lambda_as_def(pyfunc)
    return jit(device=True)(pyfunc)


def _lambda_as_def(fn):
    code = fn.__code__
    try:
        lines, _ = inspect.findsource(code)
    except (OSError, TypeError) as e:
        raise ValueError("the source of the lambda given to a CUDA ufunc or reduction cannot be read (%s); "
                         "define it with def instead" % e) from None
    first = code.co_firstlineno - 1
    params = list(code.co_varnames[:code.co_argcount])
    found = None
    # The lambda's statement may span lines: try growing chunks until one parses.
    for end in range(first + 1, len(lines) + 1):
        chunk = textwrap.dedent("".join(lines[first:end]))
        try:
            tree = ast.parse(chunk)
        except SyntaxError:
            try:
                tree = ast.parse("(" + chunk.strip().rstrip(",") + ")")
            except SyntaxError:
                continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == params:
                found = node
                break
        if found is not None:
            break
    if found is None:
        raise ValueError("the lambda given to a CUDA ufunc or reduction was not found in its source; define it "
                         "with def instead")
    name = "_lambda_%s" % _digest("%s:%d:%s" % (code.co_filename, code.co_firstlineno, ast.dump(found)), 12)
    source = "def %s(%s):\n    return %s\n" % (name, ", ".join(params), ast.unparse(found.body))
    glbls = dict(fn.__globals__)
    for var, cell in zip(code.co_freevars, fn.__closure__ or ()):
        glbls[var] = cell.cell_contents
    filename = "<cuhost-lambda-%s %s:%d>" % (name, code.co_filename, code.co_firstlineno)
    _linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), glbls)
    return glbls[name]
