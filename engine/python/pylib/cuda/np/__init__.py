"""numba.cuda.np: NumPy support (dtype conversion); the array implementation is in cuhost's C++ engine."""
