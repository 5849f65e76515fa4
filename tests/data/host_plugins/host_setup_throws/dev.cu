extern "C" __device__ int hst_f(int x) { return x + 1; }
