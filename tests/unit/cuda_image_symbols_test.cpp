// Unit tests of the global-variable names read from kernel images
// (cuda/image_symbols.h), which decide whether cuhost asks the driver for a
// global: cuhost's own PTX with and without the error record, that PTX
// linked into a cubin by nvJitLink (the ELF symbol table), declarations of
// every PTX form, images of another kind, and the per-library registry.
#include <catch2/catch.hpp>

#include "codegen/kernel_abi.h"
#include "codegen_support.h"
#include "cuda/image_symbols.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kIndexing = R"(
from numba import cuda

def shift(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i + 1]
)";

std::string ptx_module(const std::string& body) { return ".version 8.0\n.target sm_90\n.address_size 64\n\n" + body; }

}  // namespace

TEST_CASE("image symbols: cuhost's PTX and its linked cubin name the error record only when it exists", "[codegen]") {
  const std::vector<std::string> args = {"float32[::1]", "float32[::1]"};
  auto plain = compile_source(kIndexing, "shift", args, runtime::Target::NVPTX);
  model::JitOptions debug;
  debug.debug = true;
  auto checked = compile_source(kIndexing, "shift", args, runtime::Target::NVPTX, debug);
  const std::string record = codegen::kErrorRecordSymbol;
  const std::string site0 = std::string(codegen::kErrorSitePrefix) + "0";

  auto plain_ptx = cuda::defined_globals(plain->ptx);
  REQUIRE(plain_ptx);
  CHECK(plain_ptx->count(record) == 0);
  auto checked_ptx = cuda::defined_globals(checked->ptx);
  REQUIRE(checked_ptx);
  CHECK(checked_ptx->count(record) == 1);
  CHECK(checked_ptx->count(site0) == 1);

  auto plain_cubin = cuda::defined_globals(assemble(plain->ptx, "plain").cubin);
  REQUIRE(plain_cubin);
  CHECK(plain_cubin->count(record) == 0);
  auto checked_cubin = cuda::defined_globals(assemble(checked->ptx, "checked").cubin);
  REQUIRE(checked_cubin);
  CHECK(checked_cubin->count(record) == 1);
  CHECK(checked_cubin->count(site0) == 1);
  CHECK(checked_cubin->count(checked->symbol) == 0);  // the kernel is a function, not a global
}

TEST_CASE("image symbols: every form of PTX global and constant declaration", "[codegen]") {
  const std::string ptx = ptx_module(
      ".extern .global .align 4 .u32 imported;\n"
      ".global .align 4 .u32 plain;\n"
      ".visible .global .align 8 .b8 visible_array[64];\n"
      ".weak .global .align 4 .u32 weak_one = 3;\n"
      ".const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
      ".visible .const .align 8 .f64 scale_const = 0d4000000000000000;\n"
      ".shared .align 4 .b8 not_a_global[16];\n"
      ".visible .entry k(.param .u64 k_param_0)\n"
      "{\n .reg .b32 %r<2>;\n ld.global.u32 %r1, [plain];\n st.global.u32 [visible_array], %r1;\n ret;\n}\n");
  auto names = cuda::defined_globals(ptx);
  REQUIRE(names);
  CHECK(*names == cuda::GlobalNames{"plain", "scale_const", "table", "visible_array", "weak_one"});
  // Linked, the same module's cubin defines the same globals (the extern one resolved elsewhere is absent).
  const std::string defined_only = ptx_module(
      ".global .align 4 .u32 plain;\n"
      ".visible .global .align 8 .b8 visible_array[64];\n"
      ".const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
      ".visible .entry k(.param .u64 k_param_0)\n"
      "{\n .reg .b32 %r<3>;\n ld.global.u32 %r1, [plain];\n ld.const.u32 %r2, [table];\n add.s32 %r1, %r1, %r2;\n"
      " st.global.u32 [visible_array], %r1;\n ret;\n}\n");
  auto cubin = cuda::defined_globals(assemble(defined_only, "forms").cubin);
  REQUIRE(cubin);
  CHECK(cubin->count("plain") == 1);
  CHECK(cubin->count("visible_array") == 1);
  CHECK(cubin->count("table") == 1);
  CHECK(cubin->count("k") == 0);
}

TEST_CASE("image symbols: images of another kind are unknown, and unknown libraries may define anything", "[codegen]") {
  CHECK_FALSE(cuda::defined_globals("\x50\xed\x55\xba some fatbin"));
  CHECK_FALSE(
      cuda::defined_globals(std::string("\x7f"
                                        "ELF",
                                        4)));  // truncated ELF
  const std::uintptr_t lib = 0x1000, unknown = 0x2000, opaque = 0x3000;
  cuda::remember_library_globals(lib, cuda::GlobalNames{"counter"});
  cuda::remember_library_globals(opaque, std::nullopt);
  CHECK(cuda::library_may_define(lib, "counter"));
  CHECK_FALSE(cuda::library_may_define(lib, "cuhost_error_record"));
  CHECK(cuda::library_may_define(unknown, "anything"));
  CHECK(cuda::library_may_define(opaque, "anything"));
  cuda::forget_library_globals(lib);
  cuda::forget_library_globals(opaque);
  CHECK(cuda::library_may_define(lib, "cuhost_error_record"));  // unloaded: no longer known
}
