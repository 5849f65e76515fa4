// Element-wise reductions on host memory, for the carriers that reduce on
// the host (MPI on the CPU backend): the 16-bit float formats MPI has no
// type for (float16, bfloat16), combined through float and rounded to
// nearest even once; 8-bit integers, which wrap around as NCCL's do (Open
// MPI 4.1's vectorized operations saturate them); and the division that
// turns a sum into NCCL's average.
#pragma once

#include <cstddef>

#include "dist/communicator.h"

namespace cuhost::dist {

// inout[i] = op(in[i], inout[i]) for `count` elements of a type MPI cannot
// reduce as NCCL does (Float16, BFloat16, Int8, UInt8). op is Sum, Prod,
// Max or Min.
void reduce_on_host(const void* in, void* inout, std::size_t count, DataType type, ReduceOp op);

// data[i] /= divisor for `count` elements (integers truncate, as NCCL's
// average of integers does).
void divide_elements(void* data, std::size_t count, DataType type, int divisor);

}  // namespace cuhost::dist
