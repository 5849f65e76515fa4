extern "C" __device__ int htt_f(int x) { return x + 1; }
