// Foreign code calling back into a Python device function compiled with the
// C ABI under the name given by abi_info (nesting C -> Python C ABI).
extern "C" __device__ int py_cube_c(int x);

extern "C" __device__ int ffi_cube_plus(int* ret, int x, int y) {
  *ret = py_cube_c(x) + y;
  return 0;
}
