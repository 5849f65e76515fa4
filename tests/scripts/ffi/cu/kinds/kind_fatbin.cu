// Built at build time into a link input of its kind (tests/ffi_data.cmake);
// the script and unit tests link it by path and in memory.
extern "C" __device__ int ffi_kind_fatbin(int* ret, int x) {
  *ret = x * 5 + 3;
  return 0;
}

extern "C" __device__ int ffi_kind_fatbin_c(int x) { return x - 3; }
