// FFI link rows that are pure C++ (no GPU needed): every link kind built at
// build time (.ptx .cubin .fatbin .o .a by nvcc, .ltoir by NVRTC) links by
// path and from memory into an sm_90a cubin; unresolved symbols are named;
// a symbol defined twice is an error with and without LTO, across kinds too;
// any LTO-IR input turns -lto on; path errors (missing file, unknown, wrong
// case or no extension) name the path or extension; NVRTC options (-rdc,
// C++17, sm_90a, include order, NUMBA_CUDA_INCLUDE_PATH precedence) and the
// content-hash cache, keyed by headers as well as the source.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "cuda/linker.h"
#include "cuda/module.h"
#include "cuda/nvrtc.h"
#include "support/diagnostics.h"
#include "support/install_layout.h"

using namespace cuhost;

namespace {

bool exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// The build-time inputs: in cuhost's data folder (support/install_layout.h),
// in a build tree and in a bundle alike.
std::string data_dir() {
  std::string candidate = support::data_dir() + "/tests/ffi";
  if (exists(candidate + "/kind_ltoir.ltoir")) return candidate;
  return CUHOST_FFI_TEST_DATA_DIR;
}

ir::LinkItem path_item(const std::string& file) {
  ir::LinkItem item;
  item.path = data_dir() + "/" + file;
  item.name = file;
  return item;
}

ir::LinkItem memory_item(ir::LinkKind kind, const std::string& name, const std::string& data) {
  ir::LinkItem item;
  item.kind = kind;
  item.name = name;
  item.data = data;
  return item;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A caller compiled by NVRTC to PTX: one kernel calling each named numba-ABI function.
std::string caller_ptx(const std::vector<std::string>& callees, const std::string& program) {
  std::string src;
  for (const auto& c : callees) src += "extern \"C\" __device__ int " + c + "(int*, int);\n";
  src += "extern \"C\" __global__ void caller(int* out) {\n  int r = 0;\n";
  for (size_t i = 0; i < callees.size(); ++i)
    src += "  " + callees[i] + "(&r, out[" + std::to_string(i) + "]); out[" + std::to_string(i) + "] = r;\n";
  src += "}\n";
  cuda::NvrtcOptions opts;
  return cuda::compile_cuda_source(src, program, "", opts).code;
}

ErrorKind error_of(const std::function<void()>& f, std::string* message) {
  try {
    f();
  } catch (const UserError& e) {
    *message = e.message();
    return e.kind();
  }
  FAIL("no UserError thrown");
  return ErrorKind::RuntimeError;
}

const std::vector<std::string> kAllKinds = {"kind_ptx.ptx",  "kind_cubin.cubin", "kind_fatbin.fatbin",
                                            "kind_object.o", "kind_archive.a",   "kind_ltoir.ltoir"};
const std::vector<std::string> kAllSymbols = {"ffi_kind_ptx",    "ffi_kind_cubin",   "ffi_kind_fatbin",
                                              "ffi_kind_object", "ffi_kind_archive", "ffi_kind_ltoir"};

}  // namespace

TEST_CASE("ffi: every link kind read by path gets the kind of its extension", "[ffi]") {
  std::vector<ir::LinkItem> items;
  for (const auto& f : kAllKinds) items.push_back(path_item(f));
  auto inputs = cuda::read_link_items(items, 9, 0, false);
  REQUIRE(inputs.size() == 6);
  CHECK(inputs[0].kind == ir::LinkKind::PTXSource);
  CHECK(inputs[1].kind == ir::LinkKind::Cubin);
  CHECK(inputs[2].kind == ir::LinkKind::Fatbin);
  CHECK(inputs[3].kind == ir::LinkKind::Object);
  CHECK(inputs[4].kind == ir::LinkKind::Archive);
  CHECK(inputs[5].kind == ir::LinkKind::LTOIR);
  for (size_t i = 0; i < inputs.size(); ++i) {
    CHECK(inputs[i].name == kAllKinds[i]);
    CHECK(inputs[i].data == read_file(data_dir() + "/" + kAllKinds[i]));
  }
}

TEST_CASE("ffi: all six kinds link together with a caller for sm_90a", "[ffi]") {
  std::vector<ir::LinkItem> items;
  for (const auto& f : kAllKinds) items.push_back(path_item(f));
  auto inputs = cuda::read_link_items(items, 9, 0, false);
  inputs.insert(inputs.begin(),
                cuda::LinkInput{ir::LinkKind::PTXSource, "caller.ptx", caller_ptx(kAllSymbols, "caller_all.cu")});
  // lto=false: the LTO-IR input turns -lto on by itself.
  auto linked = cuda::link(inputs, 9, 0, false, {"-arch=sm_90a"});
  CHECK(linked.cubin.size() > 1000);
  CHECK(linked.cubin.compare(0, 4,
                             "\x7f"
                             "ELF") == 0);
}

TEST_CASE("ffi: non-LTO kinds link without -lto, from memory as well as by path", "[ffi]") {
  const std::vector<std::pair<ir::LinkKind, std::string>> kinds = {{ir::LinkKind::PTXSource, "kind_ptx.ptx"},
                                                                   {ir::LinkKind::Cubin, "kind_cubin.cubin"},
                                                                   {ir::LinkKind::Fatbin, "kind_fatbin.fatbin"},
                                                                   {ir::LinkKind::Object, "kind_object.o"},
                                                                   {ir::LinkKind::Archive, "kind_archive.a"}};
  std::vector<ir::LinkItem> items;
  for (const auto& [kind, file] : kinds) items.push_back(memory_item(kind, file, read_file(data_dir() + "/" + file)));
  auto inputs = cuda::read_link_items(items, 9, 0, false);
  inputs.insert(inputs.begin(), cuda::LinkInput{ir::LinkKind::PTXSource, "caller.ptx",
                                                caller_ptx({"ffi_kind_ptx", "ffi_kind_cubin", "ffi_kind_fatbin",
                                                            "ffi_kind_object", "ffi_kind_archive"},
                                                           "caller_nolto.cu")});
  auto linked = cuda::link(inputs, 9, 0, false, {"-arch=sm_90a"});
  CHECK(linked.cubin.size() > 1000);
}

TEST_CASE("ffi: an unresolved symbol is named, with and without LTO", "[ffi]") {
  for (bool lto : {false, true}) {
    std::vector<cuda::LinkInput> inputs = {
        {ir::LinkKind::PTXSource, "caller.ptx",
         caller_ptx({"ffi_kind_ptx", "ffi_nobody_defines_me"}, "caller_missing.cu")},
        {ir::LinkKind::PTXSource, "kind_ptx.ptx", read_file(data_dir() + "/kind_ptx.ptx")}};
    std::string msg;
    CHECK(error_of([&] { cuda::link(inputs, 9, 0, lto, {"-arch=sm_90a"}); }, &msg) == ErrorKind::LinkerError);
    INFO(msg);
    CHECK(msg.find("ffi_nobody_defines_me") != std::string::npos);
    CHECK(msg.find("unresolved symbol") != std::string::npos);
  }
}

TEST_CASE("ffi: a symbol defined twice across kinds is an error in both modes", "[ffi]") {
  // Non-LTO: the cubin and a PTX compiled from the same source both define ffi_kind_cubin.
  cuda::NvrtcOptions opts;
  std::string src = read_file(std::string(CUHOST_TEST_DATA_DIR) + "/../scripts/ffi/cu/kinds/kind_cubin.cu");
  REQUIRE(!src.empty());
  std::string again_ptx = cuda::compile_cuda_source(src, "kind_cubin_again.cu", "", opts).code;
  std::vector<cuda::LinkInput> inputs = {
      {ir::LinkKind::PTXSource, "caller.ptx", caller_ptx({"ffi_kind_cubin"}, "caller_dup.cu")},
      {ir::LinkKind::Cubin, "kind_cubin.cubin", read_file(data_dir() + "/kind_cubin.cubin")},
      {ir::LinkKind::PTXSource, "kind_cubin_again.ptx", again_ptx}};
  std::string msg;
  CHECK(error_of([&] { cuda::link(inputs, 9, 0, false, {"-arch=sm_90a"}); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find("ffi_kind_cubin") != std::string::npos);

  // LTO: the build-time LTO-IR and an NVRTC LTO-IR of the same source.
  opts.lto = true;
  std::string ltoir_src = read_file(std::string(CUHOST_TEST_DATA_DIR) + "/../scripts/ffi/cu/kinds/kind_ltoir.cu");
  std::string again_ltoir = cuda::compile_cuda_source(ltoir_src, "kind_ltoir_again.cu", "", opts).code;
  std::vector<cuda::LinkInput> lto_inputs = {
      {ir::LinkKind::PTXSource, "caller.ptx", caller_ptx({"ffi_kind_ltoir"}, "caller_dup_lto.cu")},
      {ir::LinkKind::LTOIR, "kind_ltoir.ltoir", read_file(data_dir() + "/kind_ltoir.ltoir")},
      {ir::LinkKind::LTOIR, "kind_ltoir_again.ltoir", again_ltoir}};
  CHECK(error_of([&] { cuda::link(lto_inputs, 9, 0, true, {"-arch=sm_90a"}); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find("ffi_kind_ltoir") != std::string::npos);
}

TEST_CASE("ffi: path errors name the file or the extension", "[ffi]") {
  std::string msg;
  for (const char* missing : {"/tmp/cuhost_ffi_missing.ptx", "/tmp/cuhost_ffi_missing.ltoir",
                              "/tmp/cuhost_ffi_missing.a", "/tmp/cuhost_ffi_missing.cu"}) {
    ir::LinkItem item;
    item.path = missing;
    CHECK(error_of([&] { cuda::read_link_items({item}, 9, 0, false); }, &msg) == ErrorKind::LinkFileNotFound);
    CHECK(msg == std::string(missing) + " not found");
  }
  for (const char* bad : {"lib.LTOIR", "lib.Cu", "lib.obj", "lib.cuh"}) {
    CHECK(error_of([&] { cuda::link_kind_from_path(bad); }, &msg) == ErrorKind::LinkerError);
    std::string ext = std::string(bad).substr(3);
    CHECK(msg.find("extension " + ext) != std::string::npos);
  }
  CHECK(error_of([&] { cuda::link_kind_from_path("/some/dir.with.dots/libnoext"); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find("no extension") != std::string::npos);
}

TEST_CASE("ffi: a .cu item becomes LTO-IR under LTO and PTX without", "[ffi]") {
  ir::LinkItem cu = memory_item(ir::LinkKind::CUSource, "lto_or_not.cu",
                                "extern \"C\" __device__ int lto_or_not(int* r, int x) { *r = x ^ 5; return 0; }\n");
  auto plain = cuda::read_link_items({cu}, 9, 0, false);
  auto lto = cuda::read_link_items({cu}, 9, 0, true);
  REQUIRE(plain.size() == 1);
  REQUIRE(lto.size() == 1);
  CHECK(plain[0].kind == ir::LinkKind::PTXSource);
  CHECK(plain[0].data.find(".target sm_90a") != std::string::npos);
  CHECK(lto[0].kind == ir::LinkKind::LTOIR);
  std::vector<cuda::LinkInput> inputs = {
      {ir::LinkKind::PTXSource, "caller.ptx", caller_ptx({"lto_or_not"}, "caller_lto.cu")}, lto[0]};
  CHECK(cuda::link(inputs, 9, 0, false, {"-arch=sm_90a"}).cubin.size() > 0);
}

TEST_CASE("ffi: NVRTC compiles relocatable C++17 for sm_90a", "[ffi]") {
  const std::string src =
      "#if __cplusplus < 201703L\n#error not C++17\n#endif\n"
      "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ != 900\n#error wrong arch\n#endif\n"
      "#ifndef __CUDA_ARCH_FEAT_SM90_ALL\n#error not sm_90a\n#endif\n"
      "template <int N> __device__ int pick() { if constexpr (N > 2) return N; else return -N; }\n"
      "extern \"C\" __device__ int ffi_cxx17(int* r) { *r = pick<3>() + pick<1>(); return 0; }\n";
  cuda::NvrtcOptions opts;
  auto out = cuda::compile_cuda_source(src, "cxx17.cu", "", opts);
  CHECK(out.code.find("ffi_cxx17") != std::string::npos);
  // -rdc=true: an external device function stays callable from other modules.
  CHECK(out.code.find(".visible .func") != std::string::npos);
}

TEST_CASE("ffi: include order is the source folder, the CUDA include dir, then extra paths", "[ffi]") {
  char root[] = "/tmp/cuhost-ffi-inc-XXXXXX";
  REQUIRE(mkdtemp(root));
  const std::string r = root;
  for (const char* d : {"/src", "/cuda_inc", "/extra"}) REQUIRE(mkdir((r + d).c_str(), 0755) == 0);
  auto write = [](const std::string& p, const std::string& text) { std::ofstream(p) << text; };
  // The same header name in three places: the first on the search path wins.
  write(r + "/src/which.h", "#define WHICH 1\n");
  write(r + "/cuda_inc/which.h", "#define WHICH 2\n");
  write(r + "/extra/which.h", "#define WHICH 3\n");
  write(r + "/cuda_inc/only_cuda.h", "#define ONLY_CUDA 20\n");
  write(r + "/extra/only_extra.h", "#define ONLY_EXTRA 300\n");
  const std::string src =
      "#include \"which.h\"\n#include <only_cuda.h>\n#include <only_extra.h>\n"
      "extern \"C\" __device__ int ffi_which(int* r) { *r = WHICH * 100000 + ONLY_CUDA + ONLY_EXTRA; return 0; }\n";
  cuda::NvrtcOptions opts;
  opts.include_dirs = {r + "/extra"};
  // NUMBA_CUDA_INCLUDE_PATH takes the place of the toolkit's include folder.
  setenv("NUMBA_CUDA_INCLUDE_PATH", (r + "/cuda_inc").c_str(), 1);
  auto from_src_dir = cuda::compile_cuda_source(src, "which.cu", r + "/src", opts);
  auto no_src_dir = cuda::compile_cuda_source(src, "which.cu", "", opts);
  unsetenv("NUMBA_CUDA_INCLUDE_PATH");
  CHECK(from_src_dir.code.find("100320") != std::string::npos);  // which.h from the source folder
  CHECK(no_src_dir.code.find("200320") != std::string::npos);    // then the CUDA include folder, before extras
}

TEST_CASE("ffi: the NVRTC cache is keyed by header content, not just the source", "[ffi]") {
  char root[] = "/tmp/cuhost-ffi-cache-XXXXXX";
  REQUIRE(mkdtemp(root));
  const std::string r = root;
  setenv("CUHOST_CACHE_DIR", (r + "/cache").c_str(), 1);
  std::ofstream(r + "/value.h") << "#define FFI_VALUE 4242\n";
  const std::string src =
      "#include \"value.h\"\nextern \"C\" __device__ int ffi_value(int* r) { *r = FFI_VALUE; return 0; }\n";
  cuda::NvrtcOptions opts;
  auto first = cuda::compile_cuda_source(src, "value.cu", r, opts);
  auto again = cuda::compile_cuda_source(src, "value.cu", r, opts);
  std::ofstream(r + "/value.h") << "#define FFI_VALUE 7373\n";
  auto edited = cuda::compile_cuda_source(src, "value.cu", r, opts);
  opts.lto = true;
  auto lto = cuda::compile_cuda_source(src, "value.cu", r, opts);
  unsetenv("CUHOST_CACHE_DIR");
  CHECK_FALSE(first.cached);
  CHECK(again.cached);
  CHECK(first.code.find("4242") != std::string::npos);
  CHECK_FALSE(edited.cached);
  CHECK(edited.code.find("7373") != std::string::npos);
  CHECK_FALSE(lto.cached);  // options are part of the key
  CHECK(lto.kind == ir::LinkKind::LTOIR);
}

TEST_CASE("ffi: an NVRTC failure carries the whole log and the file name", "[ffi]") {
  const std::string src =
      "extern \"C\" __device__ int two_errors(int* r) {\n  *r = first_unknown + 1;\n  return second_unknown;\n}\n";
  cuda::NvrtcOptions opts;
  std::string msg;
  CHECK(error_of([&] { cuda::compile_cuda_source(src, "two_errors.cu", "", opts); }, &msg) == ErrorKind::NvrtcError);
  CHECK(msg.find("two_errors.cu") != std::string::npos);
  CHECK(msg.find("first_unknown") != std::string::npos);
  CHECK(msg.find("second_unknown") != std::string::npos);
  CHECK(msg.find("2 errors detected") != std::string::npos);
}

TEST_CASE("ffi: CUDA headers that need CCCL (cooperative_groups.h) compile", "[ffi]") {
  const std::string src =
      "#include <cooperative_groups.h>\n"
      "extern \"C\" __device__ int ffi_grid_sync(int* r) { cooperative_groups::this_grid().sync(); *r = 0; return 0; "
      "}\n";
  cuda::NvrtcOptions opts;
  auto out = cuda::compile_cuda_source(src, "grid_sync.cu", "", opts);
  CHECK(out.code.find("ffi_grid_sync") != std::string::npos);
}

namespace {
std::vector<std::string>& sunk() {
  static std::vector<std::string> s;
  return s;
}
}  // namespace

TEST_CASE("ffi: a non-empty NVRTC log reaches the warning sink once per compilation", "[ffi]") {
  char dir[] = "/tmp/cuhost-ffi-warn-XXXXXX";
  REQUIRE(mkdtemp(dir));
  setenv("CUHOST_CACHE_DIR", dir, 1);
  sunk().clear();
  cuda::set_nvrtc_warning_sink([](const std::string& m) { sunk().push_back(m); });
  const std::string warns =
      "extern \"C\" __device__ int ffi_w(int* r) { int unused_in_sink_test; *r = 2; return 0; }\n";
  const std::string clean = "extern \"C\" __device__ int ffi_c(int* r) { *r = 3; return 0; }\n";
  cuda::NvrtcOptions opts;
  cuda::compile_cuda_source(warns, "warns_sink.cu", "", opts);
  cuda::compile_cuda_source(warns, "warns_sink.cu", "", opts);  // cache hit: no second report
  cuda::compile_cuda_source(clean, "clean_sink.cu", "", opts);
  cuda::set_nvrtc_warning_sink(nullptr);
  unsetenv("CUHOST_CACHE_DIR");
  REQUIRE(sunk().size() == 1);
  CHECK(sunk()[0].rfind("NVRTC log messages: ", 0) == 0);
  CHECK(sunk()[0].find("unused_in_sink_test") != std::string::npos);
}
