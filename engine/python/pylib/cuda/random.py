"""numba.cuda.random: the xoroshiro128+ random number generator.

The generator's state layout is data and is given here; the generator
functions are not implemented in cuhost yet (NotImplementedError when
used). cuhost's philox plugin (`from cuda.plugins import philox`) is a
working device-side generator.
"""
import numpy as _np

from ._missing import missing as _missing

# One generator's state: two 64-bit words, as numba-cuda lays it out.
xoroshiro128p_dtype = _np.dtype([("s0", _np.uint64), ("s1", _np.uint64)], align=True)

_missing(globals(), """
    xoroshiro128p_type init_xoroshiro128p_state rotl xoroshiro128p_next xoroshiro128p_jump uint64_to_unit_float64
    uint64_to_unit_float32 xoroshiro128p_uniform_float32 xoroshiro128p_uniform_float64 xoroshiro128p_normal_float32
    xoroshiro128p_normal_float64 init_xoroshiro128p_states_cpu init_xoroshiro128p_states create_xoroshiro128p_states
""")
