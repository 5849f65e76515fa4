// NumPy's legacy random generator (numba's np.random in nopython code) for
// numba.njit functions on the host: a Mersenne Twister (MT19937) per
// thread, seeded as NumPy's RandomState.seed(int) seeds it, so the same seed
// gives NumPy's sequence. The state is numba's, apart from the
// interpreter's np.random (numba keeps its own too).
#pragma once

#include <cstdint>

extern "C" {

// np.random.seed(seed) for a seed in [0, 2**32).
void cuhost_cpu_np_random_seed(std::uint32_t seed);
// np.random.random(): a double in [0, 1) with 53 random bits.
double cuhost_cpu_np_random_double();
}
