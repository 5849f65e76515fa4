// Foreign device functions for the FFI script tests. Plain C++ in CUDA
// clothing, so they run on the CPU backend as well as on a GPU.

// numba ABI: status returned, result through the first pointer.
extern "C" __device__ int ffi_fma3(float* ret, float a, float b, float c) {
  *ret = a * b + c;
  return 0;
}

extern "C" __device__ int ffi_iadd(int* ret, int a, int b) {
  *ret = a + b;
  return 0;
}

// Reports the width it received: int64 -> int32 narrowing is observable.
extern "C" __device__ int ffi_twice_i32(int* ret, int x) {
  *ret = 2 * x;
  return 0;
}

// numba ABI with a void result: the slot is ignored, only the status matters.
extern "C" __device__ int ffi_store_numba(void* ret, int* base, int index, int value) {
  base[index] = value;
  return 0;
}

// Status channel: 0 OK, -2 None (still success), anything else ends the thread.
extern "C" __device__ int ffi_status(int* ret, int code, int value) {
  *ret = value;
  return code;
}

// Sums a float array given by pointer.
extern "C" __device__ int ffi_sum(float* ret, const float* values, int n) {
  float total = 0.0f;
  for (int i = 0; i < n; ++i) total += values[i];
  *ret = total;
  return 0;
}

// C ABI: plain functions.
extern "C" __device__ double ffi_hypot2(double x, double y) { return x * x + y * y; }
extern "C" __device__ void ffi_store_c(int* base, int index, int value) { base[index] = value; }
extern "C" __device__ bool ffi_is_odd(int x) { return (x & 1) != 0; }
extern "C" __device__ void ffi_scale_inplace(float* values, int n, float k) {
  for (int i = 0; i < n; ++i) values[i] *= k;
}
