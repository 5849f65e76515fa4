// A small device library shipped as LTO-IR: cuhost's build compiles this
// file with NVRTC (-dlto) into share/cuhost/examples/vecmath.ltoir, and the
// ffi_ltoir.py example links that file by path.
extern "C" __device__ float dot3(float ax, float ay, float az, float bx, float by, float bz) {
  return ax * bx + ay * by + az * bz;
}

extern "C" __device__ int norm3(float* result, float x, float y, float z) {
  *result = sqrtf(x * x + y * y + z * z);
  return 0;
}
