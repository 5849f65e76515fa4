// The MMA kinds cuda.mma.mma_sync offers (a marker such as
// cuda.mma.m16n8k16_f16 names one): the PTX shape and input type, and the
// compute capability each needs. Typing (typing/mma.cpp) and lowering
// (lowering/mma.cpp) share this table so they cannot disagree.
#pragma once

#include <string>

namespace cuhost::sema {

// The input element type of an MMA; the codes are the CPU runtime's
// (cpu/mma_runtime.h).
enum class MmaInput { F16 = 0, BF16 = 1, TF32 = 2, E4M3 = 3, E5M2 = 4 };

struct MmaKind {
  const char* name;  // the marker's name: "m16n8k16_f16"
  MmaInput input;
  int m, n, k;
  const char* ptx_type;  // PTX's input type: "f16", "bf16", "tf32", "e4m3", "e5m2"
  int required_cc;       // major * 10 + minor
};

// The kind a marker name denotes, or nullptr.
const MmaKind* mma_kind_named(const std::string& name);
// "cuda.mma.m16n8k16_f16, ..." for messages.
std::string mma_kinds_text();

}  // namespace cuhost::sema
