"""cuhost's own Python package: plugins, benchmarks and host helpers."""
import os as _os

import cuda as _cuda

__version__ = _cuda.__version__


def share_dir():
    """cuhost's data folder (<prefix>/share/cuhost): installed plugins, example artifacts.

    The Python packages live in <prefix>/bin/python, in a build tree and in a bundle alike.
    """
    here = _os.path.dirname(_os.path.abspath(__file__))   # <prefix>/bin/python/cuhost
    prefix = _os.path.dirname(_os.path.dirname(_os.path.dirname(here)))
    return _os.path.join(prefix, "share", "cuhost")
