// Stream capture and CUDA graphs for the null driver (null_cuda.cpp): work
// queued on a capturing stream is recorded into a graph instead of done;
// an instantiated graph replays its copies when launched and logs its kernel
// nodes (function, configuration and parameter values) so scripts can check,
// through ctypes, what a graph launch would have run. Calls a capture
// refuses return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, as the driver does.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>
#include <vector>

namespace null_driver {

struct Entry {
  const char* name;
  void* fn;
};

// The graph entry points (cuStreamBeginCapture ... cuGraphExecUpdate).
const Entry* graph_entries(std::size_t* count);

// The sizes of a kernel's parameters, in order (null when unknown); defined
// by null_cuda.cpp, which reads them from the loaded cubin (kparam_sizes).
const std::vector<std::size_t>* param_sizes(CUfunction f);

// The sizes of kernel `name`'s parameters from an ELF cubin's
// EIATTR_KPARAM_INFO attributes; false when the image has none for it.
bool kparam_sizes(const std::string& image, const std::string& name, std::vector<std::size_t>* sizes);

// The calling thread's current context and the context a stream belongs to
// (null when none); defined by null_cuda.cpp. An executable graph belongs to
// the context it was instantiated in and launches on its streams only.
const void* current_context();
const void* context_of_stream(CUstream stream);

// Stream work: true when `stream` is being captured and the work was
// recorded (the caller then does nothing).
// `cluster`: the launch's CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, or null.
bool capture_launch(CUstream stream, CUfunction f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                    void** params, const unsigned* cluster = nullptr);
bool capture_copy(CUstream stream, void* dst, const void* src, std::size_t bytes);
bool capture_memset(CUstream stream, void* dst, unsigned char value, std::size_t bytes);

// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (and the capture invalidated) for
// waiting on a capturing stream, or for an unsafe call (synchronous copy,
// allocation, context synchronization) on a thread that captures in a
// non-relaxed mode; CUDA_SUCCESS otherwise.
CUresult check_stream_wait(CUstream stream);
CUresult check_unsafe_call();

}  // namespace null_driver
