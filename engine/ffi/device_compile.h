// Foreign .cu sources compiled by clang-19 for NVPTX, so that their
// functions inline into the kernels that call them (PERFORMANCE.md P8).
// nvJitLink cannot inline across LLVM's PTX and NVRTC's code; a source that
// is plain C++ in CUDA clothing (the usual small device library: extern "C"
// __device__ arithmetic) compiles with clang to NVPTX bitcode instead and is
// linked into the kernel's LLVM module (ffi/device_link.h). Anything
// else keeps the NVRTC path: items with callbacks or a plugin host library,
// sources that include CUDA headers or fail to compile as plain C++.
// CUHOST_INLINE_CU=0 turns the path off.
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::ffi {

// Whether inlining foreign sources is on (CUHOST_INLINE_CU is not "0").
bool device_inlining_enabled();

// Whether `item` may take this path, before its source is read: inlining is
// on, the item has no callbacks or plugin host library, and it is a .cu
// source (CUSource, or a path ending in .cu).
bool device_inlinable_item(const ir::LinkItem& item);

// NVPTX bitcode of `item` for compute capability cc_major.cc_minor, or ""
// when the item cannot take this path.
std::string device_bitcode(const ir::LinkItem& item, int cc_major, int cc_minor);

// Compiles what device_bitcode would for `item`, without its NVRTC warning
// check (which reports through Python): run on a worker thread when a
// declaration names the source, so the kernel's first call finds the result
// (or waits for the compile already running). Throws as device_bitcode's
// compile would.
void device_bitcode_ahead(const ir::LinkItem& item, int cc_major, int cc_minor);

// The prelude placed before every source compiled for the device.
const char* device_prelude();

}  // namespace cuhost::ffi
