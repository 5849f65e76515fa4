// Does compute-sanitizer's memcheck accept a kernel reading managed memory
// allocated with cudaMemAttachHost on a device with concurrent managed
// access (where CUDA allows it)? The same access as
// tests/scripts/hostapi/managed_memory.py, in CUDA C, with no cuhost.
//   nvcc -arch=sm_90 managed_attach_host.cu -o /tmp/mah && compute-sanitizer /tmp/mah
#include <cstdio>

__global__ void scale(float* a, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * k + 1.0f;
}

int main() {
  int concurrent = 0;
  cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0);
  const int n = 185;
  for (unsigned flags : {cudaMemAttachGlobal, cudaMemAttachHost}) {
    float* a = nullptr;
    cudaMallocManaged(&a, n * sizeof(float), flags);
    for (int i = 0; i < n; ++i) a[i] = float(i);
    scale<<<1, 256>>>(a, n, 3.0f);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("flags %s: %s, a[7] = %g (expect 22), concurrent managed access %d\n",
                flags == cudaMemAttachHost ? "host" : "global", cudaGetErrorString(e), a[7], concurrent);
    cudaFree(a);
  }
  return 0;
}
