extern "C" __device__ int broken_f(int a) { return a + undefined_thing; }
