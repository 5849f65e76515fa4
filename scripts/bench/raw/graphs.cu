// The graph benchmark (bench_graphs.py) in CUDA C++: a chain of 100 small
// dependent kernels on one stream, launched one by one with <<<>>> and
// replayed as a graph made by stream capture (cudaStreamBeginCapture,
// cudaGraphInstantiate, cudaGraphLaunch), microseconds per kernel, printed
// as CUHOST-BENCH lines of system "nvcc".
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
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

constexpr int kChain = 100, kN = 256, kChains = 200, kRounds = 5;

__global__ void step(float* x, float a, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a + 1.0f;
}

static void per_kernel(const char* name, cudaStream_t s, const std::function<void()>& chain) {
  for (int i = 0; i < 3; ++i) chain();
  CK(cudaStreamSynchronize(s));
  std::vector<double> us;
  for (int r = 0; r < kRounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < kChains; ++c) chain();
    CK(cudaStreamSynchronize(s));
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                 (kChains * kChain));
  }
  std::vector<double> sorted = us;
  std::sort(sorted.begin(), sorted.end());
  std::printf("CUHOST-BENCH {\"name\": \"%s\", \"system\": \"nvcc\", \"backend\": \"cuda\", \"unit\": \"us\", "
              "\"median\": %.4f, \"p10\": %.4f, \"p90\": %.4f, \"samples\": [%.4f, %.4f, %.4f, %.4f, %.4f]}\n",
              name, sorted[kRounds / 2], sorted[0], sorted[kRounds - 1], us[0], us[1], us[2], us[3], us[4]);
}

int main() {
  float* x;
  CK(cudaMalloc(&x, kN * sizeof(float)));
  CK(cudaMemset(x, 0, kN * sizeof(float)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto eager = [&] {
    for (int k = 0; k < kChain; ++k) step<<<1, kN, 0, s>>>(x, 0.5f, kN);
  };
  per_kernel("graph_chain100_eager", s, eager);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  eager();
  CK(cudaStreamEndCapture(s, &graph));
  CK(cudaGraphInstantiate(&exec, graph, 0));
  per_kernel("graph_chain100_replay", s, [&] { CK(cudaGraphLaunch(exec, s)); });
  std::vector<float> h(kN);
  CK(cudaMemcpy(h.data(), x, kN * sizeof(float), cudaMemcpyDeviceToHost));
  for (float v : h)
    if (std::fabs(v - 2.0f) > 1e-5f) {
      std::printf("wrong result %f\n", v);
      return 1;
    }
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  return 0;
}
