"""numba.cuda.cudadrv: the driver-level layer of numba-cuda's layout.

In numba-cuda this package wraps the CUDA driver, NVRTC, NVVM and the
linker in Python. cuhost does that work in C++ (engine/cuda); the modules
here give numba-cuda's names to cuhost's objects, and placeholders (raising
NotImplementedError) where cuhost has no counterpart yet.
"""
