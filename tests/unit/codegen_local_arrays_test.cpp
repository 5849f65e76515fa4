// cuda.local.array in the NVPTX module (codegen/nvptx_local_arrays.h and
// codegen/inspection_text.h): the module as lowered, which inspect_llvm()
// shows, names each array `_cudapy_lmem` with the alignment asked for and
// prints one asked for none without it; before optimization the GPU frame is
// made to honour them: every local array on 16 bytes at least, and 64 made
// by hand from room declared 16-aligned, the address rounded up.
#include <catch2/catch.hpp>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kSource = R"(
import numpy as np
from numba import cuda

def k(out, v):
    plain = cuda.local.array(5, dtype=np.uint8)
    wide = cuda.local.array(4, dtype=np.float64, alignment=64)
    plain[0] = v
    wide[0] = v
    out[0] = plain.ctypes.data
    out[1] = wide.ctypes.data
)";

}  // namespace

TEST_CASE("codegen: local arrays are numba's allocas as lowered and placed in the GPU frame after",
          "[codegen][nvptx]") {
  model::JitOptions opts;
  opts.opt = 0;  // the frame's allocas stay as placed
  auto k = compile_source(kSource, "k", {"uint64[::1]", "int64"}, runtime::Target::NVPTX, opts);
  const std::string& lowered = k->llvm_ir_unoptimized;
  INFO(lowered);
  CHECK(matches(lowered, R"(\n  %_cudapy_lmem = alloca \[5 x i8\]\n)"));
  CHECK(matches(lowered, R"(\n  %_cudapy_lmem1 = alloca \[4 x double\], align 64\n)"));
  CHECK_FALSE(matches(lowered, R"(\.room)"));
  const std::string& optimized = k->llvm_ir;
  INFO(optimized);
  CHECK(matches(optimized, R"(\n  %_cudapy_lmem = alloca \[5 x i8\], align 16\n)"));
  // 32 bytes and 48 of padding at most; the offset is -address & 63.
  CHECK(matches(optimized, R"(\n  %_cudapy_lmem1\.room = alloca \[80 x i8\], align 16\n)"));
  CHECK(matches(optimized, R"(and i64 %[0-9]+, 63)"));
  CHECK_FALSE(matches(optimized, R"(align 64)"));
}
