"""numba.cuda.misc: numba-cuda's miscellany; only misc.special has user-facing names."""
