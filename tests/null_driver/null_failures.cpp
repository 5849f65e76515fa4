// The record of failing null-driver calls (see null_failures.h).
#include "null_failures.h"

#include <mutex>
#include <string>

namespace {

std::mutex g_mutex;
std::string g_failures;  // one "cuXxx CUDA_ERROR_..." line per failing call
std::string g_snapshot;  // what cuhostNullFailedCalls last returned (kept alive for the caller)

const char* result_name(CUresult r) {
  switch (r) {
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
    case CUDA_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_NOT_READY: return "CUDA_ERROR_NOT_READY";
    default: return "CUDA_ERROR_(other)";
  }
}

}  // namespace

namespace null_driver {

void record_failure(const void* entry, CUresult result) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_failures += std::string(entry_name(entry)) + " " + result_name(result) + "\n";
}

}  // namespace null_driver

extern "C" __attribute__((visibility("default"))) const char* cuhostNullFailedCalls() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_snapshot = g_failures;
  return g_snapshot.c_str();
}

extern "C" __attribute__((visibility("default"))) void cuhostNullClearFailedCalls() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_failures.clear();
}
