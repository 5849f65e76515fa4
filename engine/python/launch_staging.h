// Host NumPy arguments of a GPU launch, staged together: every C-contiguous
// host array is packed into one page-locked buffer, sent with one
// asynchronous copy into one device block, and after the launch one copy
// brings the block back and one synchronization ends the launch. Four driver
// calls instead of two synchronous pageable copies per array (P3). The
// buffers are kept per stream and reused, from a stream's second host-array
// launch on (the first one does not pay for them); a launch that cannot use them
// (non-contiguous arrays, very large ones, or the stream's buffers busy on
// another thread) takes the general path.
#pragma once

#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "python/typeof.h"

namespace cuhost::python {

class StagedHostArrays {
 public:
  StagedHostArrays() = default;
  ~StagedHostArrays();
  StagedHostArrays(const StagedHostArrays&) = delete;
  StagedHostArrays& operator=(const StagedHostArrays&) = delete;

  // Stages every host-array argument among infos[0..n) for `stream` and
  // turns their views into device views. Returns false, having changed
  // nothing, when the staged path does not apply. Throws UserError on a
  // driver failure.
  bool stage(ArgInfo* infos, Py_ssize_t n, std::uintptr_t stream);

  // After the launch: copies the block back, waits for the stream, and
  // writes each writable host array. Throws UserError on a driver failure.
  void finish();

  struct Buffers;  // a stream's page-locked and device blocks (launch_staging.cpp)

 private:
  struct Item {
    void* host = nullptr;
    std::size_t offset = 0, bytes = 0;
    bool readonly = false;
    bool alias = false;  // the same host array as an earlier argument
  };
  Buffers* buffers_ = nullptr;  // owned by the per-stream cache; marked busy while held
  std::uintptr_t stream_ = 0;
  std::size_t total_ = 0;
  std::vector<Item> items_;
};

}  // namespace cuhost::python
