// Foreign device functions used by the FFI examples. They are plain C++ in
// CUDA clothing, so cuhost can also run them on its CPU backend.

// numba ABI: the status is returned, the result goes through the first pointer.
extern "C" __device__ int mul_f32_f32(float* result, float x, float y) {
  *result = x * y;
  return 0;
}

// numba ABI, taking a pointer to array data (passed with ffi.from_buffer).
extern "C" __device__ int sum_reduce(float* result, float* values, int count) {
  float total = 0.0f;
  for (int i = 0; i < count; ++i) total += values[i];
  *result = total;
  return 0;
}

// C ABI: a plain function.
extern "C" __device__ float lerp_f32(float a, float b, float t) { return a + t * (b - a); }
