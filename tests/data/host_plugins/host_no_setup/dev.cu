extern "C" __device__ int hns_f(int x) { return x + 1; }
