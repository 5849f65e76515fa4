// The lut plugin's device half: a sine table and a gain in __device__
// globals that the host library (host/lut_host.cpp) fills when a module
// linking these functions loads. Plain C++ apart from __device__, so the CPU
// backend compiles it too. The globals are extern "C" so the host library
// finds them by their plain names.
extern "C" {

__device__ float cuhost_lut_table[256];  // sin(2 pi i / 256)
__device__ float cuhost_lut_gain;        // scales every result
__device__ int cuhost_lut_is_ready;      // 1 after setup

__device__ float cuhost_lut_sin_at(int i) { return cuhost_lut_gain * cuhost_lut_table[i & 255]; }

__device__ float cuhost_lut_sin_turns(float t) {
  float x = t * 256.0f;
  int i = (int)x;
  if ((float)i > x) i -= 1;  // floor, without libm
  float f = x - (float)i;
  float a = cuhost_lut_table[i & 255];
  float b = cuhost_lut_table[(i + 1) & 255];
  return cuhost_lut_gain * (a + f * (b - a));
}

__device__ int cuhost_lut_ready(void) { return cuhost_lut_is_ready; }

}  // extern "C"
