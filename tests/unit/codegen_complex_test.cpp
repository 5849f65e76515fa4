// Complex values through the NVPTX path: a complex64 kernel's parameters are
// two f32 slots each, elements are {float, float} structs, complex64 with
// float32 is never widened, the math it needs comes from libdevice (no
// unresolved externs), and the PTX assembles for sm_90.
#include <catch2/catch.hpp>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

TEST_CASE("codegen nvptx: complex64 kernel lowers to f32 math and assembles", "[codegen][complex]") {
  const char* src = R"(
import cmath
import numpy as np
from numba import cuda

def k(alpha, x, out, mag):
    i = cuda.grid(1)
    if i < x.size:
        z = x[i]
        out[i] = cmath.exp(alpha * z) / (z + np.float32(1)) + z * z * z
        mag[i] = abs(z)
)";
  auto k = compile_source(src, "k", {"complex64", "complex64[::1]", "complex64[::1]", "float32[::1]"},
                          runtime::Target::NVPTX);
  INFO(k->llvm_ir);
  CHECK(k->llvm_ir.find("{ float, float }") != std::string::npos);
  // complex64 with float32 stays single precision: nothing is widened to double.
  CHECK(k->llvm_ir.find("fpext") == std::string::npos);
  INFO(k->ptx);
  // alpha is two f32 parameters; arrays are pointer + shape + stride.
  CHECK(k->ptx.find(".param .f32 ") != std::string::npos);
  CHECK(k->ptx.find(".extern .func") == std::string::npos);
  cuda::LinkResult r = assemble(k->ptx, k->name);
  CHECK(r.cubin.compare(0, 4,
                        "\x7f"
                        "ELF") == 0);
}

TEST_CASE("codegen nvptx: complex128 device function returns a complex value", "[codegen][complex]") {
  const char* src = R"(
from numba import cuda

@cuda.jit(device=True)
def rot(z, w):
    return z * w.conjugate() - 1j

def k(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = rot(x[i], x[i] + 2) == x[i]
)";
  auto k = compile_source(src, "k", {"complex128[::1]", "bool[::1]"}, runtime::Target::NVPTX);
  INFO(k->ptx);
  CHECK(k->ptx.find("f64") != std::string::npos);
  CHECK(k->ptx.find(".extern .func") == std::string::npos);
  cuda::LinkResult r = assemble(k->ptx, k->name);
  CHECK(r.cubin.compare(0, 4,
                        "\x7f"
                        "ELF") == 0);
}
