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

namespace cuhost::codegen {

// How a GPU kernel compiled with checks (debug=True) reports a failed check
// without trapping (a trap would poison the context): the first failing
// thread fills a __device__ record, and the host reads it after the launch.
// The record is `kErrorRecordSlots` i64 values named kErrorRecordSymbol; a
// check site (support/kernel_error.h: the exception class, message and
// source location, or the array's name for an index error) is a __device__
// byte array of encode_site() named kErrorSitePrefix + site number.
constexpr const char* kErrorRecordSymbol = "cuhost_error_record";
constexpr const char* kErrorSitePrefix = "cuhost_error_site_";
enum ErrorRecordSlot : int {
  kErrorKind = 0,             // an ErrorRecordKind; 0 while no thread has failed
  kErrorSite,                 // which site failed
  kErrorValue,                // the status code, or the index
  kErrorDim,                  // index errors: the axis
  kErrorExtent,               // index errors: the axis' size
  kErrorTid,                  // three slots: threadIdx x, y, z
  kErrorBid = kErrorTid + 3,  // three slots: blockIdx x, y, z
  kErrorRecordSlots = kErrorBid + 3,
};
enum class ErrorRecordKind : long long { None = 0, Kernel = 1, Index = 2 };

}  // namespace cuhost::codegen
