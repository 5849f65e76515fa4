// Link-item handling of the CUDA module loader: kinds from extensions (and
// the errors naming bad ones), reading files, in-memory items, and CUDA C
// items compiled by NVRTC into something nvJitLink accepts (no GPU needed).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <functional>

#include "cuda/linker.h"
#include "cuda/module.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

ErrorKind kind_of_error(const std::function<void()>& f, std::string* message) {
  try {
    f();
  } catch (const UserError& e) {
    *message = e.message();
    return e.kind();
  }
  FAIL("no UserError thrown");
  return ErrorKind::RuntimeError;
}

}  // namespace

TEST_CASE("link kinds come from case-sensitive extensions", "[dispatch]") {
  CHECK(cuda::link_kind_from_path("a/b/lib.cu") == ir::LinkKind::CUSource);
  CHECK(cuda::link_kind_from_path("x.ptx") == ir::LinkKind::PTXSource);
  CHECK(cuda::link_kind_from_path("x.cubin") == ir::LinkKind::Cubin);
  CHECK(cuda::link_kind_from_path("x.fatbin") == ir::LinkKind::Fatbin);
  CHECK(cuda::link_kind_from_path("libx.a") == ir::LinkKind::Archive);
  CHECK(cuda::link_kind_from_path("x.o") == ir::LinkKind::Object);
  CHECK(cuda::link_kind_from_path("x.ltoir") == ir::LinkKind::LTOIR);
  std::string msg;
  CHECK(kind_of_error([] { cuda::link_kind_from_path("x.PTX"); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find("extension .PTX") != std::string::npos);
  CHECK(kind_of_error([] { cuda::link_kind_from_path("dir.d/noext"); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find("no extension") != std::string::npos);
}

TEST_CASE("link items are read from files and memory", "[dispatch]") {
  std::string path = "/tmp/cuhost_dispatch_unit_item.ptx";
  {
    std::ofstream f(path);
    f << "// ptx text 42";
  }
  ir::LinkItem by_path;
  by_path.path = path;
  ir::LinkItem in_memory;
  in_memory.kind = ir::LinkKind::LTOIR;
  in_memory.name = "mem.ltoir";
  in_memory.data = std::string("\x01\x02\x00\x03", 4);
  auto inputs = cuda::read_link_items({by_path, in_memory}, 9, 0, false);
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[0].kind == ir::LinkKind::PTXSource);
  CHECK(inputs[0].name == "cuhost_dispatch_unit_item.ptx");
  CHECK(inputs[0].data == "// ptx text 42");
  CHECK(inputs[1].kind == ir::LinkKind::LTOIR);
  CHECK(inputs[1].data.size() == 4);
  std::remove(path.c_str());

  std::string msg;
  ir::LinkItem missing;
  missing.path = "/tmp/definitely_missing_cuhost.cubin";
  CHECK(kind_of_error([&] { cuda::read_link_items({missing}, 9, 0, false); }, &msg) == ErrorKind::LinkFileNotFound);
  CHECK(msg == "/tmp/definitely_missing_cuhost.cubin not found");
  ir::LinkItem bad_ext;
  bad_ext.path = "/tmp/whatever.txt";
  CHECK(kind_of_error([&] { cuda::read_link_items({bad_ext}, 9, 0, false); }, &msg) == ErrorKind::LinkerError);
  CHECK(msg.find(".txt") != std::string::npos);
}

TEST_CASE("CUDA C link items compile through NVRTC and link for sm_90", "[dispatch]") {
  ir::LinkItem cu;
  cu.kind = ir::LinkKind::CUSource;
  cu.name = "twice.cu";
  cu.data = "extern \"C\" __device__ int twice(int* ret, int x) { *ret = 2 * x; return 0; }\n";
  auto inputs = cuda::read_link_items({cu}, 9, 0, false);
  REQUIRE(inputs.size() == 1);
  CHECK(inputs[0].kind == ir::LinkKind::PTXSource);
  CHECK(inputs[0].data.find("twice") != std::string::npos);
  auto linked = cuda::link(inputs, 9, 0, false, {"-arch=sm_90a"});
  CHECK(linked.cubin.size() > 0);
}
