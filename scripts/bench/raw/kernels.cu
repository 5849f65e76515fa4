// The benchmark suite's kernels written in CUDA C++ (built with nvcc -O3 for
// the kernel-speed rows of P7/P8), timed with CUDA events like the scripts,
// printing the same CUHOST-BENCH lines (system "nvcc") plus launch figures.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__);     \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

__global__ void saxpy(float a, const float* x, const float* y, float* out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

__global__ void reduce_sum(const float* x, float* total, long n) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  float acc = 0;
  for (long i = blockIdx.x * (long)blockDim.x + t; i < n; i += (long)gridDim.x * blockDim.x) acc += x[i];
  buf[t] = acc;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, buf[0]);
}

__global__ void stencil(const float* u, float* out, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // numba's grid(2): x is the first index
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  // the script indexes out[i, j] with (i, j) = cuda.grid(2) = (x, y)
  int r = j, c = i;
  if (r > 0 && r < m - 1 && c > 0 && c < m - 1)
    out[r * m + c] = 0.25f * (u[(r - 1) * m + c] + u[(r + 1) * m + c] + u[r * m + c - 1] + u[r * m + c + 1]) - u[r * m + c];
}

#define TILE 16
__global__ void matmul(const float* A, const float* B, float* C, int k) {
  __shared__ float sA[TILE][TILE], sB[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0;
  for (int k0 = 0; k0 < k; k0 += TILE) {
    sA[ty][tx] = A[y * k + k0 + tx];
    sB[ty][tx] = B[(k0 + ty) * k + x];
    __syncthreads();
    for (int kk = 0; kk < TILE; ++kk) acc += sA[ty][kk] * sB[kk][tx];
    __syncthreads();
  }
  C[y * k + x] = acc;
}

__global__ void transcendental(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // the script's math runs in float64 (numba types 1.0 + v*v as float64)
    double v = x[i];
    for (int r = 0; r < 16; ++r) v = sin(v) * exp(-v * v) + log(1.0 + v * v);
    out[i] = (float)v;
  }
}

__device__ __noinline__ int mul_f32_f32(float* r, float a, float b) { *r = a * b; return 0; }
__global__ void foreign_calls(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i], acc = 0;
    for (int r = 0; r < 64; ++r) {
      float m;
      mul_f32_f32(&m, v, v);
      acc += m;
      v = v * 0.999f;
    }
    out[i] = acc;
  }
}
__global__ void foreign_inlined(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i], acc = 0;
    for (int r = 0; r < 64; ++r) {
      acc += v * v;
      v = v * 0.999f;
    }
    out[i] = acc;
  }
}
__global__ void empty() {}
__global__ void k4(float s, const float* x, const float* y, float* o, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) o[i] = s * x[i] + y[i];
}

static void report(const char* name, std::vector<float> ms, double bytes, double flops, double elements) {
  std::sort(ms.begin(), ms.end());
  double med = ms[ms.size() / 2];
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"nvcc\", \"backend\": \"cuda\", \"unit\": \"ms\", "
              "\"median\": %.6f, \"p10\": %.6f, \"p90\": %.6f, \"samples\": []",
              name, med, ms[ms.size() / 10], ms[ms.size() * 9 / 10]);
  if (bytes > 0) std::printf(", \"GBps\": %.3f", bytes / (med * 1e-3) / 1e9);
  if (flops > 0) std::printf(", \"GFLOPs\": %.3f", flops / (med * 1e-3) / 1e9);
  if (elements > 0) std::printf(", \"ns_per_element\": %.6f", med * 1e6 / elements);
  std::printf("}\n");
}

static void timed(const char* name, int reps, double bytes, double flops, double elements,
                  const std::function<void()>& fn) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  fn();
  fn();
  CK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a));
    fn();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CK(cudaGetLastError());
  report(name, ms, bytes, flops, elements);
}

static void launch_cost(const char* name, const std::function<void()>& fn) {
  for (int i = 0; i < 1000; ++i) fn();
  CK(cudaDeviceSynchronize());
  std::vector<float> us;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20000; ++i) fn();
    CK(cudaDeviceSynchronize());
    us.push_back(std::chrono::duration<float, std::micro>(std::chrono::steady_clock::now() - t0).count() / 20000);
  }
  std::sort(us.begin(), us.end());
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"nvcc\", \"backend\": \"cuda\", \"unit\": \"us\", "
              "\"median\": %.4f, \"p10\": %.4f, \"p90\": %.4f, \"samples\": []}\n", name, us[2], us[0], us[4]);
}

// `raw_kernels launch` times only the launches (for interleaved launch
// rounds), `raw_kernels kernels` only the kernels; no argument, both.
int main(int argc, char** argv) {
  const bool launch_only = argc > 1 && std::strcmp(argv[1], "launch") == 0;
  const bool kernels_only = argc > 1 && std::strcmp(argv[1], "kernels") == 0;
  long n = launch_only ? 1024 : 1L << 28;
  float *x, *y, *o, *total;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&y, n * 4));
  CK(cudaMalloc(&o, n * 4));
  CK(cudaMalloc(&total, 4));
  std::vector<float> h(n);
  for (long i = 0; i < n; ++i) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  CK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, h.data(), n * 4, cudaMemcpyHostToDevice));
  if (!kernels_only) {
    launch_cost("launch_0args", [&] { empty<<<1, 32>>>(); });
    launch_cost("launch_4args_device", [&] { k4<<<4, 256>>>(2.0f, x, y, o, 1024); });
  }
  if (launch_only) return 0;
  timed("saxpy", 20, 12.0 * n, 0, 0, [&] { saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, o, n); });
  timed("reduction", 20, 4.0 * n, 0, 0, [&] { reduce_sum<<<1024, 256>>>(x, total, n); });
  int m = 8192;
  timed("stencil_2d", 20, 8.0 * m * m, 0, 0, [&] { stencil<<<dim3(m / 16, m / 16), dim3(16, 16)>>>(x, o, m); });
  int k = 4096;
  timed("matmul_tiled_shared", 10, 0, 2.0 * k * k * (double)k, 0,
        [&] { matmul<<<dim3(k / TILE, k / TILE), dim3(TILE, TILE)>>>(x, y, o, k); });
  int t = 1 << 24;
  timed("transcendental", 10, 0, 0, t, [&] { transcendental<<<(t + 255) / 256, 256>>>(x, o, t); });
  timed("foreign_call", 10, 0, 0, t, [&] { foreign_calls<<<(t + 255) / 256, 256>>>(x, o, t); });
  timed("foreign_call_all_cuda_c", 10, 0, 0, t, [&] { foreign_inlined<<<(t + 255) / 256, 256>>>(x, o, t); });
  return 0;
}
