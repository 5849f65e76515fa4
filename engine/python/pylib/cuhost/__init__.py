"""cuhost's own Python package: plugins, benchmarks and host helpers."""
import cuda as _cuda

__version__ = _cuda.__version__
