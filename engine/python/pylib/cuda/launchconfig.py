"""numba.cuda.launchconfig: the launch configuration seen while compiling
(for launch-configuration-sensitive kernels). Not implemented in cuhost yet."""
from ._missing import missing

__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
missing(globals(), " ".join(__all__))
