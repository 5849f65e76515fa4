// The ufunc benchmarks of bench_ufunc.py written in CUDA C++ (nvcc -O3):
// saxpy at 2^26 float32 (one thread per element) and an exact two-pass sum
// (grid-stride partial sums per block in shared memory, then one block over
// the partials, the result left on the device like cuda.reduce(res=...)),
// timed with CUDA events; plus the host cost of launching a small saxpy.
// Prints CUHOST-BENCH lines of system "nvcc" with bench_ufunc.py's names.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x)                                                                     \
  do {                                                                            \
    cudaError_t e = (x);                                                          \
    if (e != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

constexpr int kBlock = 256;

__global__ void saxpy(float a, const float* x, const float* y, float* out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

__global__ void block_sums(const float* x, float* partial, long n) {
  __shared__ float buf[kBlock];
  int t = threadIdx.x;
  float acc = 0;
  for (long i = blockIdx.x * (long)blockDim.x + t; i < n; i += (long)gridDim.x * blockDim.x) acc += x[i];
  buf[t] = acc;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s /= 2) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = buf[0];
}

static void report(const char* name, const char* unit, std::vector<float> v, double bytes) {
  std::sort(v.begin(), v.end());
  double med = v[v.size() / 2];
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"nvcc\", \"backend\": \"cuda\", \"unit\": \"%s\", "
              "\"median\": %.6f, \"p10\": %.6f, \"p90\": %.6f, \"samples\": []",
              name, unit, med, v[v.size() / 10], v[v.size() * 9 / 10]);
  if (bytes > 0) std::printf(", \"GBps\": %.3f", bytes / (med * 1e-3) / 1e9);
  std::printf("}\n");
}

// Each sample is `calls` back-to-back calls, divided by `calls` (the device
// time per call, as bench.measure(calls=...) takes it).
static void timed(const char* name, double bytes, const std::function<void()>& fn, int calls = 10) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  fn();
  fn();
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < 20; ++r) {
    CK(cudaEventRecord(a));
    for (int c = 0; c < calls; ++c) fn();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t / calls);
  }
  CK(cudaGetLastError());
  report(name, "ms", ms, bytes);
}

int main() {
  const long n = 1L << 26;
  float *x, *y, *o, *partial, *res;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * (2048 / kBlock);
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&y, n * 4));
  CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&partial, blocks * 4));
  CK(cudaMalloc(&res, 4));
  std::vector<float> h(n);
  for (long i = 0; i < n; ++i) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  CK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, h.data(), n * 4, cudaMemcpyHostToDevice));
  timed("ufunc_saxpy", 12.0 * n, [&] { saxpy<<<(n + kBlock - 1) / kBlock, kBlock>>>(2.0f, x, y, o, n); });
  auto reduce_sum = [&] {
    block_sums<<<blocks, kBlock>>>(x, partial, n);
    block_sums<<<1, kBlock>>>(partial, res, blocks);
  };
  timed("ufunc_reduce_sum", 4.0 * n, reduce_sum);
  timed("ufunc_reduce_sum_single", 4.0 * n, reduce_sum, 1);
  // Host cost of one small launch (the reference for the ufunc call overhead).
  const long small = 1024;
  auto launch = [&] { saxpy<<<(small + kBlock - 1) / kBlock, kBlock>>>(2.0f, x, y, o, small); };
  for (int i = 0; i < 1000; ++i) launch();
  CK(cudaDeviceSynchronize());
  std::vector<float> us;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20000; ++i) launch();
    CK(cudaDeviceSynchronize());
    us.push_back(std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - t0).count() / 20000);
  }
  report("ufunc_plain_launch_small", "us", us, 0);
  return 0;
}
