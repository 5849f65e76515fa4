// The NRT allocation counters of GPU kernels (codegen/lowering/nrt.h): one
// block of device memory per context, {enabled, alloc, free, mi_alloc,
// mi_free} as i64, whose address the loader writes into each NRT module's
// `cuhost_nrt_stats_ptr` (bind_nrt_stats). Kernels update it atomically;
// numba's rtsys reads the sums over contexts and switches counting
// (python/nrt_api.cpp).
#pragma once

#include <cstdint>

#include "cuda/driver.h"

namespace cuhost::cuda {

// After loading `library` (its context current): points its counters'
// pointer at the context's block, created on first use.
void bind_nrt_stats(CUlibrary library);

// Switches counting in every context's block (and in blocks made later).
void nrt_set_device_counting(bool enabled);

// {alloc, free, mi_alloc, mi_free} summed over the contexts' blocks, after
// their work finished.
void nrt_device_counts(std::int64_t out[4]);

}  // namespace cuhost::cuda
