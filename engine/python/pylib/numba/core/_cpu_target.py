"""The CPU target's descriptor, in a module of its own below both its users:
numba/core/dispatcher.py gives it to every host Dispatcher and
numba/core/target_extension.py (numba's public path for it) maps target
names to those dispatchers."""


class CPUTargetDescriptor:
    """The target descriptor of numba's CPU dispatchers (its name only: cuhost
    compiles host calls with its own CPU compiler)."""

    def __init__(self, name="cpu"):
        self._target_name = name
