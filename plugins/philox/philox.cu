// Philox4x32-10 counter-based random number generator as device functions.
// Written so one source serves NVRTC (GPU) and a host C++ compiler (cuhost's
// CPU backend): only integer arithmetic and, for normals, double-precision
// log/sqrt/cos whose results are rounded to float.
#ifdef __CUHOST_HOST_COMPILE__
#include <math.h>
#endif

namespace {

struct Words {
  unsigned int v[4];
};

__device__ __forceinline__ unsigned int mulhilo(unsigned int a, unsigned int b, unsigned int* hi) {
  unsigned long long p = (unsigned long long)a * (unsigned long long)b;
  *hi = (unsigned int)(p >> 32);
  return (unsigned int)p;
}

__device__ __forceinline__ Words philox4x32_10(unsigned long long key, unsigned long long counter) {
  const unsigned int M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
  const unsigned int W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  unsigned int k0 = (unsigned int)key, k1 = (unsigned int)(key >> 32);
  Words c = {{(unsigned int)counter, (unsigned int)(counter >> 32), 0u, 0u}};
  for (int round = 0; round < 10; ++round) {
    unsigned int hi0, hi1;
    unsigned int lo0 = mulhilo(M0, c.v[0], &hi0);
    unsigned int lo1 = mulhilo(M1, c.v[2], &hi1);
    Words n = {{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
    c = n;
    k0 += W0;
    k1 += W1;
  }
  return c;
}

}  // namespace

extern "C" __device__ unsigned int cuhost_philox_bits(unsigned long long key, unsigned long long counter, int lane) {
  Words w = philox4x32_10(key, counter);
  return w.v[lane & 3];
}

extern "C" __device__ float cuhost_philox_uniform(unsigned long long key, unsigned long long counter) {
  Words w = philox4x32_10(key, counter);
  return (float)(w.v[0] >> 8) * (1.0f / 16777216.0f);
}

extern "C" __device__ double cuhost_philox_uniform64(unsigned long long key, unsigned long long counter) {
  Words w = philox4x32_10(key, counter);
  unsigned long long bits = ((unsigned long long)w.v[0] << 21) ^ (unsigned long long)(w.v[1] >> 11);
  return (double)(bits & ((1ull << 53) - 1)) * (1.0 / 9007199254740992.0);
}

extern "C" __device__ float cuhost_philox_normal(unsigned long long key, unsigned long long counter) {
  Words w = philox4x32_10(key, counter);
  // u1 in (0, 1], u2 in [0, 1): 32-bit uniforms.
  double u1 = ((double)w.v[0] + 1.0) * (1.0 / 4294967296.0);
  double u2 = (double)w.v[1] * (1.0 / 4294967296.0);
  return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}
