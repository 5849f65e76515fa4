"""numba.cuda.kernels: numba-cuda's ready-made kernels (reduction, transpose)."""
