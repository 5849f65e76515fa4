extern "C" __device__ int tiny_add(int a, int b) { return a - b; }
