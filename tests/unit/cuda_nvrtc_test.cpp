// Unit tests of NVRTC compilation of foreign CUDA sources: PTX and LTO-IR
// output, the include-path rules, the error log, warnings and the cache.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>

#include "cuda/nvrtc.h"
#include "support/diagnostics.h"

using namespace cuhost;

static const char* kMul =
    R"(extern "C" __device__ int mul_f32_f32(float* r, float x, float y) { *r = x * y; return 0; })";

TEST_CASE("a .cu compiles to PTX defining the extern C function", "[nvrtc]") {
  cuda::NvrtcOptions opts;
  auto out = cuda::compile_cuda_source(kMul, "functions.cu", "", opts);
  CHECK(out.kind == ir::LinkKind::PTXSource);
  CHECK(out.code.find(".visible .func  (.param .b32 func_retval0) mul_f32_f32(") != std::string::npos);
  CHECK(out.code.find(".target sm_90a") != std::string::npos);
}

TEST_CASE("under LTO the output is LTO-IR", "[nvrtc]") {
  cuda::NvrtcOptions opts;
  opts.lto = true;
  auto out = cuda::compile_cuda_source(kMul, "functions_lto.cu", "", opts);
  CHECK(out.kind == ir::LinkKind::LTOIR);
  CHECK(out.code.size() > 64);
  CHECK(out.code.find(".visible") == std::string::npos);  // not PTX text
}

TEST_CASE("a broken .cu gives NvrtcError with the file name and the log", "[nvrtc]") {
  cuda::NvrtcOptions opts;
  try {
    cuda::compile_cuda_source("extern \"C\" __device__ int f(int* r) { return undefined_name; }", "broken.cu", "",
                              opts);
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::NvrtcError);
    std::string m = e.what();
    CHECK(m.find("NVRTC compilation of 'broken.cu' failed") != std::string::npos);
    CHECK(m.find("identifier \"undefined_name\" is undefined") != std::string::npos);
  }
}

TEST_CASE("NVRTC's log names a source given by path by its file name; our header keeps the path", "[nvrtc]") {
  cuda::NvrtcOptions opts;
  try {
    cuda::compile_cuda_source("extern \"C\" __device__ int f(int* r) { return undefined_name; }",
                              "/some/folder/broken_at_path.cu", "", opts);
    FAIL("no error");
  } catch (const UserError& e) {
    std::string m = e.what();
    CHECK(m.find("NVRTC compilation of '/some/folder/broken_at_path.cu' failed") != std::string::npos);
    CHECK(m.find("broken_at_path.cu(1): error: identifier \"undefined_name\" is undefined") != std::string::npos);
    CHECK(m.find("in the compilation of \"broken_at_path.cu\"") != std::string::npos);
    CHECK(m.find("/some/folder/broken_at_path.cu(") == std::string::npos);
  }
}

TEST_CASE("headers are found through the extra search path only when it is given", "[nvrtc]") {
  const std::string src =
      "#include \"ffi_scale.h\"\nextern \"C\" __device__ float scale_it(float x) { return x * FFI_SCALE; }\n";
  cuda::NvrtcOptions opts;
  CHECK_THROWS_AS(cuda::compile_cuda_source(src, "scaled.cu", "", opts), UserError);
  setenv("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", "/nonexistent:" CUHOST_TEST_DATA_DIR "/ffi/include_extra", 1);
  opts.include_dirs = cuda::extra_search_paths_from_environment();
  unsetenv("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS");
  REQUIRE(opts.include_dirs.size() == 2);
  auto out = cuda::compile_cuda_source(src, "scaled.cu", "", opts);
  CHECK(out.code.find("scale_it") != std::string::npos);
  CHECK(out.code.find("0f40400000") != std::string::npos);  // 3.0f folded in
}

TEST_CASE("NUMBA_CUDA_INCLUDE_PATH replaces the CUDA include directory", "[nvrtc]") {
  setenv("NUMBA_CUDA_INCLUDE_PATH", "/opt/custom/cuda/include", 1);
  CHECK(cuda::default_cuda_include_dir() == "/opt/custom/cuda/include");
  unsetenv("NUMBA_CUDA_INCLUDE_PATH");
  CHECK(cuda::default_cuda_include_dir() == std::string(CUHOST_CUDA_ROOT_FOR_TESTS) + "/include");
}

TEST_CASE("warnings come back in the log; a second compile is a cache hit", "[nvrtc]") {
  char dir[] = "/tmp/cuhost-nvrtc-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  setenv("CUHOST_CACHE_DIR", dir, 1);
  const std::string src =
      "extern \"C\" __device__ int warn_me(int* r) { int unused_variable_xyz; *r = 1; return 0; }\n";
  cuda::NvrtcOptions opts;
  auto first = cuda::compile_cuda_source(src, "warn.cu", "", opts);
  CHECK_FALSE(first.cached);
  CHECK(first.log.find("unused_variable_xyz") != std::string::npos);
  auto second = cuda::compile_cuda_source(src, "warn.cu", "", opts);
  CHECK(second.cached);
  CHECK(second.code == first.code);
  unsetenv("CUHOST_CACHE_DIR");
}

TEST_CASE("architecture names", "[nvrtc]") {
  CHECK(cuda::arch_for(9, 0) == "sm_90a");
  CHECK(cuda::arch_for(8, 6) == "sm_86");
  CHECK(cuda::arch_for(10, 0) == "sm_100");
}
