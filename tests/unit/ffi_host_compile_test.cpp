// Unit tests of host compilation of foreign CUDA C++ for the CPU backend:
// plain C++ sources become bitcode that defines the function; GPU-only items
// and sources needing CUDA headers or intrinsics give clear errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include "ffi/clang_compile.h"
#include "ffi/host_compile.h"
#include "support/diagnostics.h"

using namespace cuhost;

static ir::LinkItem cu_source(const std::string& text, const std::string& name) {
  ir::LinkItem item;
  item.kind = ir::LinkKind::CUSource;
  item.name = name;
  item.data = text;
  return item;
}

// The host compiler is a build dependency here (clang-19); a machine that
// runs a bundle without it must get the explanation instead.
static bool host_compiler_present() { return access(ffi::clang_path().c_str(), X_OK) == 0; }

static std::string error_of(const ir::LinkItem& item, ErrorKind* kind = nullptr) {
  try {
    ffi::host_bitcode(item, "f", {});
  } catch (const UserError& e) {
    if (kind) *kind = e.kind();
    return e.what();
  }
  return "no error";
}

TEST_CASE("a plain C++ .cu compiles to host bitcode defining the function", "[ffi]") {
  if (!host_compiler_present()) {
    std::string m = error_of(cu_source("extern \"C\" __device__ int f(int* r) { *r = 1; return 0; }\n", "f.cu"));
    CHECK(m.find("could not be started (install clang-19)") != std::string::npos);
    return;
  }
  auto bc = ffi::host_bitcode(
      cu_source("extern \"C\" __device__ int mul_f32_f32(float* r, float x, float y) { *r = x * y; return 0; }\n"
                "__device__ __forceinline__ static float twice(float v) { return 2 * v; }\n"
                "extern \"C\" __device__ float twice_c(float v) { return twice(v); }\n",
                "functions.cu"),
      "mul_f32_f32", {});
  llvm::LLVMContext ctx;
  auto buffer = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(bc.data(), bc.size()), "bc", false);
  auto module = llvm::parseBitcodeFile(buffer->getMemBufferRef(), ctx);
  REQUIRE(static_cast<bool>(module));
  llvm::Function* f = (*module)->getFunction("mul_f32_f32");
  REQUIRE(f);
  CHECK_FALSE(f->isDeclaration());
  CHECK((*module)->getFunction("twice_c") != nullptr);
}

TEST_CASE("GPU-only items cannot run on the CPU", "[ffi]") {
  const std::string path = "/tmp/cuhost_unit_gpu_only_lib.ptx";
  std::ofstream(path) << "// ptx";
  ir::LinkItem ptx;
  ptx.kind = ir::LinkKind::PTXSource;
  ptx.path = path;
  ErrorKind kind{};
  std::string m = error_of(ptx, &kind);
  std::remove(path.c_str());
  CHECK(kind == ErrorKind::NotImplementedError);
  CHECK(m == "foreign function 'f' cannot run on the CPU backend: '" + path +
                 "' ships only GPU code (.ptx); link a .cu source that is plain C++, or run on a GPU");
  // A GPU-only file that does not exist is reported as missing first, as on a GPU.
  ptx.path = "/somewhere/lib.ptx";
  CHECK(error_of(ptx, &kind) == "/somewhere/lib.ptx not found");
  CHECK(kind == ErrorKind::LinkFileNotFound);
}

TEST_CASE("sources needing CUDA headers or intrinsics are refused with the reason", "[ffi]") {
  ErrorKind kind{};
  std::string m = error_of(
      cu_source("#include <cuda_fp16.h>\nextern \"C\" __device__ float h(float x) { return x; }\n", "half.cu"), &kind);
  CHECK(kind == ErrorKind::CompileError);
  CHECK(m.find("cannot run on the CPU backend: its source needs CUDA headers (half.cu includes <cuda_fp16.h>)") !=
        std::string::npos);
  CHECK(m.find("cuda_fp16.h") != std::string::npos);
  m = error_of(cu_source("extern \"C\" __device__ int tid() { return threadIdx.x; }\n", "tid.cu"));
  CHECK(m.find(host_compiler_present() ? "its source uses GPU intrinsics"
                                       : "could not be started (install clang-19)") != std::string::npos);
}

TEST_CASE("a missing file is LinkFileNotFound (LinkerError and FileNotFoundError)", "[ffi]") {
  ir::LinkItem item;
  item.kind = ir::LinkKind::CUSource;
  item.path = "/nonexistent/functions.cu";
  ErrorKind kind{};
  CHECK(error_of(item, &kind) == "/nonexistent/functions.cu not found");
  CHECK(kind == ErrorKind::LinkFileNotFound);
}
