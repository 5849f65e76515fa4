"""cuda-python's cuda.core._utils, as far as numba-cuda code reaches into it."""
