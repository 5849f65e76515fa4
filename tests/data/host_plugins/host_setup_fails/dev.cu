extern "C" __device__ int hsf_f(int x) { return x + 1; }
