// The table of cuda.mma.mma_sync's kinds (see mma_kinds.h).
#include "sema/typing/mma_kinds.h"

namespace cuhost::sema {

namespace {

// fp16/bf16 and tf32 mma.sync need sm_80 for these shapes; fp8 (e4m3, e5m2)
// inputs need sm_89 (PTX ISA 8.4).
const MmaKind kKinds[] = {
    {"m16n8k16_f16", MmaInput::F16, 16, 8, 16, "f16", 80},    {"m16n8k16_bf16", MmaInput::BF16, 16, 8, 16, "bf16", 80},
    {"m16n8k8_tf32", MmaInput::TF32, 16, 8, 8, "tf32", 80},   {"m16n8k32_e4m3", MmaInput::E4M3, 16, 8, 32, "e4m3", 89},
    {"m16n8k32_e5m2", MmaInput::E5M2, 16, 8, 32, "e5m2", 89},
};

}  // namespace

const MmaKind* mma_kind_named(const std::string& name) {
  for (const MmaKind& k : kKinds)
    if (name == k.name) return &k;
  return nullptr;
}

std::string mma_kinds_text() {
  std::string s;
  for (const MmaKind& k : kKinds) s += (s.empty() ? "cuda.mma." : ", cuda.mma.") + std::string(k.name);
  return s;
}

}  // namespace cuhost::sema
