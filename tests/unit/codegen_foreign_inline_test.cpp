// Foreign .cu sources inlined into NVPTX kernels (ffi/device_compile.h,
// ffi/device_link.h): a plain-C++ source is compiled by clang into the
// kernel's module, leaves the link list and leaves no call in the PTX; a
// source using CUDA built-ins, one defining a variable, two defining the same
// symbol, a fastmath kernel and CUHOST_INLINE_CU=0 keep the NVRTC path.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "codegen_support.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

std::string kernel_calling(const std::string& link_items) {
  return R"py(
from numba import cuda

scale = cuda.declare_device("ffi_scale", "float32(float32, float32)", link=[)py" +
         link_items +
         R"py(])

)py"
         R"py(
def k(out, xs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scale(scale(xs[i], 2.0), 3.0)
)py";
}

const char* kPlain =
    R"py(cuda.CUSource('extern "C" __device__ int ffi_scale(float* r, float x, float s) { *r = x * s; return 0; }\n', name="plain.cu"))py";

bool calls(const std::string& ptx, const std::string& symbol) {
  return std::regex_search(ptx, std::regex("call[^;]*" + symbol));
}

std::shared_ptr<const runtime::CompiledKernel> compile(const std::string& source, bool fastmath = false) {
  model::JitOptions options;
  options.fastmath = fastmath;
  return compile_source(source, "k", {"float32[::1]", "float32[::1]"}, runtime::Target::NVPTX, options);
}

}  // namespace

TEST_CASE("ffi inline: a plain C++ source is inlined into the kernel", "[codegen][ffi]") {
  auto k = compile(kernel_calling(kPlain));
  INFO(k->ptx);
  CHECK(k->link.empty());
  CHECK_FALSE(calls(k->ptx, "ffi_scale"));
  CHECK(std::regex_search(k->ptx, std::regex(R"(mul(\.rn)?\.f32)")));
  CHECK(assemble(k->ptx, "inlined").cubin.size() > 0);
}

TEST_CASE("ffi inline: sources that are not plain device code keep the NVRTC path", "[codegen][ffi]") {
  SECTION("CUDA built-ins") {
    auto k = compile(kernel_calling(
        R"py(cuda.CUSource('extern "C" __device__ int ffi_scale(float* r, float x, float s) { *r = x * s + threadIdx.x; return 0; }\n', name="builtins.cu"))py"));
    CHECK(k->link.size() == 1);
    CHECK(calls(k->ptx, "ffi_scale"));
  }
  SECTION("a variable other code may look up by name") {
    auto k = compile(kernel_calling(
        R"py(cuda.CUSource('__device__ float ffi_gain = 1.0f;\nextern "C" __device__ int ffi_scale(float* r, float x, float s) { *r = x * s * ffi_gain; return 0; }\n', name="global.cu"))py"));
    CHECK(k->link.size() == 1);
    CHECK(calls(k->ptx, "ffi_scale"));
  }
  SECTION("the same symbol defined twice: nvJitLink reports it") {
    auto k = compile(kernel_calling(
        std::string(kPlain) +
        R"py(, cuda.CUSource('extern "C" __device__ int ffi_scale(float* r, float x, float s) { *r = x + s; return 0; }\n', name="again.cu"))py"));
    CHECK(k->link.size() == 2);
  }
  SECTION("a fastmath kernel") {
    auto k = compile(kernel_calling(kPlain), true);
    CHECK(k->link.size() == 1);
    CHECK(calls(k->ptx, "ffi_scale"));
  }
  SECTION("CUHOST_INLINE_CU=0") {
    setenv("CUHOST_INLINE_CU", "0", 1);
    auto k = compile(kernel_calling(kPlain));
    unsetenv("CUHOST_INLINE_CU");
    CHECK(k->link.size() == 1);
    CHECK(calls(k->ptx, "ffi_scale"));
  }
}

TEST_CASE("ffi inline: an inlined source next to an item left to nvJitLink stays visible", "[codegen][ffi]") {
  // The PTX item is linked by nvJitLink; ffi_scale stays a visible function
  // so that a second definition of it there would still be reported.
  auto k = compile(kernel_calling(std::string(kPlain) + R"py(, cuda.PTXSource(b"", name="other.ptx"))py"));
  INFO(k->ptx);
  CHECK(k->link.size() == 1);
  CHECK_FALSE(calls(k->ptx, "ffi_scale"));
  CHECK(std::regex_search(k->ptx, std::regex(R"(\.visible \.func[^\n]*ffi_scale)")));
}
