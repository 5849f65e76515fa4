"""cuhost's own Python package: plugins, benchmarks and host helpers."""
import os as _os

import cuda as _cuda

from cuhost.deadline import current_kernel_deadline, kernel_deadline

__all__ = ["current_kernel_deadline", "kernel_deadline", "share_dir"]

__version__ = _cuda.__version__


def share_dir():
    """cuhost's data folder (<prefix>/share/cuhost): installed plugins, libdevice, example artifacts.

    The Python packages live in its python/ folder, in an install tree, a build tree and a bundle
    alike; CUHOST_DATA_DIR overrides the location, as it does for the engine.
    """
    env = _os.environ.get("CUHOST_DATA_DIR")
    if env:
        return env
    here = _os.path.dirname(_os.path.abspath(__file__))   # <data>/python/cuhost
    return _os.path.dirname(_os.path.dirname(here))
