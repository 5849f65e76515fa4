// Fast float32 special functions for the fastmath plugin. The same source is
// compiled to LTO-IR by NVRTC at build time (GPU) and by the host compiler
// for cuhost's CPU backend.
#ifdef __CUHOST_HOST_COMPILE__
#include <math.h>
#endif

extern "C" __device__ float cuhost_fast_sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

extern "C" __device__ float cuhost_fast_softplus(float x) {
  return x > 20.0f ? x : (x < -20.0f ? expf(x) : log1pf(expf(x)));
}

// M. Giles, "Approximating the erfinv function", GPU Computing Gems (2010).
extern "C" __device__ float cuhost_fast_erfinv(float x) {
  float w = -logf((1.0f - x) * (1.0f + x));
  float p;
  if (w < 5.0f) {
    w = w - 2.5f;
    p = 2.81022636e-08f;
    p = 3.43273939e-07f + p * w;
    p = -3.5233877e-06f + p * w;
    p = -4.39150654e-06f + p * w;
    p = 0.00021858087f + p * w;
    p = -0.00125372503f + p * w;
    p = -0.00417768164f + p * w;
    p = 0.246640727f + p * w;
    p = 1.50140941f + p * w;
  } else {
    w = sqrtf(w) - 3.0f;
    p = -0.000200214257f;
    p = 0.000100950558f + p * w;
    p = 0.00134934322f + p * w;
    p = -0.00367342844f + p * w;
    p = 0.00573950773f + p * w;
    p = -0.0076224613f + p * w;
    p = 0.00943887047f + p * w;
    p = 1.00167406f + p * w;
    p = 2.83297682f + p * w;
  }
  return p * x;
}

// Numba ABI: the result goes through the first pointer, the status is returned.
extern "C" __device__ int cuhost_fast_rsqrt(float* result, float x) {
  *result = 1.0f / sqrtf(x);
  return 0;
}
