// Built at build time into a link input of its kind (tests/ffi_data.cmake);
// the script and unit tests link it by path and in memory.
extern "C" __device__ int ffi_kind_cubin(int* ret, int x) {
  *ret = x * 4 + 2;
  return 0;
}

extern "C" __device__ int ffi_kind_cubin_c(int x) { return x - 2; }
