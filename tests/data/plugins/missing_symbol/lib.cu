extern "C" __device__ int some_other_symbol(int a) { return a; }
