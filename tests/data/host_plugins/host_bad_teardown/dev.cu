extern "C" __device__ int hbt_f(int x) { return x + 1; }
