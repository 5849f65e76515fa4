// MT19937 for np.random in host njit code (np_random_runtime.h): the
// generator of Matsumoto and Nishimura's reference code, with NumPy's
// init_genrand seeding and its 53-bit doubles.
#include "cpu/np_random_runtime.h"

#include <random>

namespace {

constexpr int kN = 624;
constexpr int kM = 397;

struct Twister {
  std::uint32_t mt[kN];
  int index = kN + 1;  // kN + 1: never seeded

  void seed(std::uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < kN; ++i) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    index = kN;
  }

  void refill() {
    auto twist = [this](int i, int j, int k) {
      std::uint32_t y = (mt[i] & 0x80000000u) | (mt[j] & 0x7fffffffu);
      mt[i] = mt[k] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    };
    int i = 0;
    for (; i < kN - kM; ++i) twist(i, i + 1, i + kM);
    for (; i < kN - 1; ++i) twist(i, i + 1, i + kM - kN);
    twist(kN - 1, 0, kM - 1);
    index = 0;
  }

  std::uint32_t next() {
    if (index > kN) seed(std::random_device{}());  // unseeded: from the OS, as numba's first use
    if (index >= kN) refill();
    std::uint32_t y = mt[index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }
};

thread_local Twister t_twister;

}  // namespace

extern "C" {

void cuhost_cpu_np_random_seed(std::uint32_t seed) { t_twister.seed(seed); }

double cuhost_cpu_np_random_double() {
  std::uint32_t a = t_twister.next() >> 5;
  std::uint32_t b = t_twister.next() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}
}
