// The entry point of a jitted function called from the host (numba.njit on
// cuhost's CPU compiler): one exported function per specialization,
//
//   i32 S.host(const u64* args, u64* result)
//
// that reads the arguments from 8-byte slots, calls the function's internal
// body (with a zeroed one-thread CPU context) and writes the result into
// 8-byte slots. It returns 0, or the status of a raise (which the CPU
// runtime reported to the calling thread's error sink, cpu/host_call_errors.h).
//
// A value of type T takes host_slot_count(T) slots, in this order:
//   Boolean -> one slot (0 or 1 in the low byte); Integer/Float -> one slot,
//   the value in its low bytes; Complex -> real, imag; Array(ndim) -> data
//   pointer, ndim shapes, ndim byte strides; Record/CPointer -> the address;
//   Tuple -> its elements' slots in order; NoneType -> none;
//   Optional(T) (results only) -> valid flag (0/1), then T's slots.
// The Python side (python/host_values.cpp) packs and unpacks the same way.
#pragma once

#include <string>

#include "ir/types.h"

namespace cuhost::codegen {

struct LoweredModule;
struct ModuleState;
struct ModuleRequest;

// Slots a value of `t` occupies; -1 when it cannot cross the host boundary
// (then host_boundary_refusal names why).
int host_slot_count(const ir::Type* t);
std::string host_boundary_refusal(const ir::Type* t);

// The suffix of the entry symbol: "<function symbol>.host".
constexpr const char* kHostEntrySuffix = ".host";

// Emits the entry of request.typed into out.module (used by lower_module for
// ModuleRequest::host_entry).
void emit_host_entry(LoweredModule& out, ModuleState& state, const ModuleRequest& request);

}  // namespace cuhost::codegen
