// nvJitLink wrapper: links PTX for sm_90 with no GPU, names unresolved
// symbols, rejects a symbol defined twice in both LTO and non-LTO modes.
#include <catch2/catch.hpp>

#include "cuda/linker.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

std::string ptx_module(const std::string& body) { return ".version 8.0\n.target sm_90\n.address_size 64\n\n" + body; }

const char* kDefineHelper =
    ".visible .func (.param .b32 func_retval0) helper(.param .b32 helper_param_0)\n"
    "{\n .reg .b32 %r<3>;\n ld.param.u32 %r1, [helper_param_0];\n add.s32 %r2, %r1, 1;\n"
    " st.param.b32 [func_retval0], %r2;\n ret;\n}\n";

const char* kCallHelperKernel =
    ".extern .func (.param .b32 func_retval0) helper(.param .b32 helper_param_0);\n"
    ".visible .entry k(.param .u64 k_param_0)\n"
    "{\n .reg .b32 %r<3>;\n .reg .b64 %rd<3>;\n ld.param.u64 %rd1, [k_param_0];\n"
    " cvta.to.global.u64 %rd2, %rd1;\n ld.global.u32 %r1, [%rd2];\n"
    " { .param .b32 p0; st.param.b32 [p0], %r1; .param .b32 rv;\n"
    "   call.uni (rv), helper, (p0); ld.param.b32 %r2, [rv]; }\n"
    " st.global.u32 [%rd2], %r2;\n ret;\n}\n";

}  // namespace

TEST_CASE("linker: two PTX modules link into an sm_90 cubin", "[codegen]") {
  std::vector<cuda::LinkInput> inputs = {
      {ir::LinkKind::PTXSource, "kernel.ptx", ptx_module(kCallHelperKernel)},
      {ir::LinkKind::PTXSource, "helper.ptx", ptx_module(kDefineHelper)},
  };
  cuda::LinkResult r = cuda::link(inputs, 9, 0, false);
  REQUIRE(r.cubin.size() > 16);
  // A cubin is an ELF image.
  CHECK(r.cubin.compare(0, 4,
                        "\x7f"
                        "ELF") == 0);
}

TEST_CASE("linker: an unresolved symbol is named in the LinkerError", "[codegen]") {
  std::vector<cuda::LinkInput> inputs = {{ir::LinkKind::PTXSource, "kernel.ptx", ptx_module(kCallHelperKernel)}};
  try {
    cuda::link(inputs, 9, 0, false);
    FAIL("link succeeded with an unresolved symbol");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::LinkerError);
    CHECK_THAT(e.message(), Catch::Contains("unresolved symbol helper"));
  }
}

TEST_CASE("linker: a symbol defined twice is an error without and with -lto", "[codegen]") {
  for (bool lto : {false, true}) {
    std::vector<cuda::LinkInput> inputs = {
        {ir::LinkKind::PTXSource, "kernel.ptx", ptx_module(kCallHelperKernel)},
        {ir::LinkKind::PTXSource, "helper_a.ptx", ptx_module(kDefineHelper)},
        {ir::LinkKind::PTXSource, "helper_b.ptx", ptx_module(kDefineHelper)},
    };
    try {
      cuda::link(inputs, 9, 0, lto);
      FAIL("link succeeded with a duplicate symbol, lto=" << lto);
    } catch (const UserError& e) {
      CHECK(e.kind() == ErrorKind::LinkerError);
      CHECK_THAT(e.message(), Catch::Contains("helper"));
    }
  }
}

TEST_CASE("linker: malformed PTX carries the assembler log", "[codegen]") {
  std::vector<cuda::LinkInput> inputs = {
      {ir::LinkKind::PTXSource, "bad.ptx", ptx_module(".visible .entry k() { bogus; }\n")}};
  try {
    cuda::link(inputs, 9, 0, false);
    FAIL("malformed PTX linked");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::LinkerError);
    CHECK_THAT(e.message(), Catch::Contains("bad.ptx") || Catch::Contains("bogus"));
  }
}

TEST_CASE("linker: CUDA source is refused", "[codegen]") {
  std::vector<cuda::LinkInput> inputs = {{ir::LinkKind::CUSource, "x.cu", "__device__ int f() { return 1; }"}};
  CHECK_THROWS_AS(cuda::link(inputs, 9, 0, false), UserError);
}
