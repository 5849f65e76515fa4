// How kernel arguments cross from the host to compiled code. Each parameter
// is exploded into fixed-size slots, one LLVM parameter per slot, and the
// launcher passes an array of pointers to slot values (cuLaunchKernel's
// kernelParams, used unchanged by the CPU backend):
//   Boolean -> 1 byte (i8 0/1); Integer/Float -> its size;
//   Complex -> two slots (real, imag);
//   Array(ndim) -> data pointer (8), ndim shape slots (i64), ndim stride slots (i64, bytes);
//   CPointer -> 8; Tuple -> the slots of each element in order.
#pragma once

#include <vector>

#include "ir/types.h"

namespace cuhost::codegen {

// Byte size of each slot a value of type t occupies, in order.
std::vector<int> param_slot_sizes(const ir::Type* t);

}  // namespace cuhost::codegen
