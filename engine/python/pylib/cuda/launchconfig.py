"""numba.cuda.launchconfig: the launch configuration seen while compiling
(for launch-configuration-sensitive kernels). Not implemented in cuhost yet."""
from ._missing import missing as _missing

__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
_missing(globals(), " ".join(__all__))
