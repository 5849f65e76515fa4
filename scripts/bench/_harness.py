"""Gives benchmark scripts the timing module under both systems: inside
cuhost it is cuhost.bench; under plain python3 with numba-cuda the same file
is loaded from the source tree, so both sides time the same way."""
import importlib.util
import os

try:
    from cuhost import bench  # noqa: F401
except ImportError:
    _path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "engine", "python", "pylib",
                         "cuhost", "bench.py")
    _spec = importlib.util.spec_from_file_location("cuhost_bench", _path)
    bench = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(bench)

import numpy as np  # noqa: E402

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 still names it
    np.row_stack = np.vstack
