extern "C" __device__ int hml_f(int x) { return x + 1; }
