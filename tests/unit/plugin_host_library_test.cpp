// Unit tests of plugin host libraries: the manifest's host fields and their
// defaults, which CPU module globals a host library can reach, and the ABI
// context driven against a fake backend (host memory with a read-only
// global) using the test host libraries built into
// <build>/share/cuhost/tests/plugins.
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>

#include "cpu/module_globals.h"
#include "cuhost/plugin_abi.h"
#include "plugin/host_library.h"
#include "plugin/manifest.h"
#include "runtime/compile_cache.h"
#include "support/diagnostics.h"
#include "support/install_layout.h"

using namespace cuhost;

namespace {

// The test plugins: in cuhost's data folder (support/install_layout.h), in a
// build tree and in a bundle alike.
std::string test_plugins_dir() {
  std::string candidate = support::data_dir() + "/tests/plugins";
  if (access((candidate + "/host_probe/libhost_probe.so").c_str(), R_OK) == 0) return candidate;
  return CUHOST_TEST_HOST_PLUGINS_DIR;
}

const std::string kDir = test_plugins_dir();

std::string manifest_with(const std::string& build) {
  return "[plugin]\nname = \"h\"\nversion = \"1\"\nformat = 1\n[build]\n" + build +
         "\n[[functions]]\nname = \"f\"\nsignature = \"int32(int32)\"\n";
}

std::string manifest_error(const std::string& build) {
  try {
    plugin::parse_manifest(manifest_with(build), "mem.toml", kDir + "/host_probe");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::PluginError);
    return e.message();
  }
  return "no error";
}

// Host memory posing as a module: named buffers, some read-only.
class FakeGlobals : public plugin::ModuleGlobals {
 public:
  struct Global {
    std::vector<unsigned char> bytes;
    bool read_only = false;
  };
  std::map<std::string, Global> globals;
  int copies_in = 0;

  int backend() const override { return CUHOST_PLUGIN_BACKEND_CUDA; }
  int find(const std::string& name, std::uint64_t* address, std::size_t* bytes, bool* read_only,
           std::string* error) override {
    auto it = globals.find(name);
    if (it == globals.end()) {
      *error = "no global named '" + name + "'";
      return CUHOST_PLUGIN_NOT_FOUND;
    }
    *address = reinterpret_cast<std::uintptr_t>(it->second.bytes.data());
    *bytes = it->second.bytes.size();
    *read_only = it->second.read_only;
    return CUHOST_PLUGIN_OK;
  }
  int copy_in(std::uint64_t address, const void* src, std::size_t bytes, std::string*) override {
    ++copies_in;
    std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), src, bytes);
    return CUHOST_PLUGIN_OK;
  }
  int copy_out(void* dst, std::uint64_t address, std::size_t bytes, std::string*) override {
    std::memcpy(dst, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), bytes);
    return CUHOST_PLUGIN_OK;
  }
};

}  // namespace

TEST_CASE("host library fields of a manifest and their defaults", "[plugin][host_library]") {
  plugin::Manifest m =
      plugin::parse_manifest(manifest_with("host_library = \"libhost_probe.so\""), "mem.toml", kDir + "/host_probe");
  CHECK(m.host_library == kDir + "/host_probe/libhost_probe.so");
  CHECK(m.host_setup == "cuhost_plugin_setup");
  CHECK(m.host_teardown == "cuhost_plugin_teardown");
  CHECK_FALSE(m.host_teardown_required);
  m = plugin::parse_manifest(
      manifest_with("host_library = \"libhost_probe.so\"\nhost_setup = \"my_setup\"\nhost_teardown = \"my_down\""),
      "mem.toml", kDir + "/host_probe");
  CHECK(m.host_setup == "my_setup");
  CHECK(m.host_teardown == "my_down");
  CHECK(m.host_teardown_required);
  m = plugin::parse_manifest(manifest_with(""), "mem.toml", kDir + "/host_probe");
  CHECK(m.host_library.empty());
  CHECK(m.host_setup.empty());

  CHECK(manifest_error("host_setup = \"s\"") ==
        "plugin 'h' (mem.toml): field 'build.host_setup': needs build.host_library (the library to look it up in)");
  CHECK(manifest_error("host_library = \"libhost_probe.so\"\nhost_teardown = \"not a name\"") ==
        "plugin 'h' (mem.toml): field 'build.host_teardown': 'not a name' is not a C symbol name");
  CHECK(manifest_error("host_library = \"libhost_probe.so\"\nhost_setup = 3") ==
        "plugin 'h' (mem.toml): field 'build.host_setup': must be a string");
  CHECK(manifest_error("host_library = \"nope.so\"") ==
        "plugin 'h' (mem.toml): field 'build.host_library': file not found: 'nope.so' (looked in " + kDir +
            "/host_probe)");
}

TEST_CASE("CPU module globals a host library can reach", "[plugin][host_library]") {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  auto m = llvm::parseAssemblyString(R"IR(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
@table = global [5 x double] zeroinitializer
@limit = constant i32 5
@hidden = internal global i32 0
@elsewhere = external global i32
@copy = available_externally global i32 3
@llvm.used = appending global [1 x ptr] [ptr @hidden], section "llvm.metadata"
)IR",
                                     diag, context);
  REQUIRE(m);
  std::vector<cpu::GlobalSymbol> globals = cpu::exported_globals(*m);
  REQUIRE(globals.size() == 2);
  CHECK(globals[0].name == "table");
  CHECK(globals[0].bytes == 40);
  CHECK_FALSE(globals[0].read_only);
  CHECK(globals[1].name == "limit");
  CHECK(globals[1].bytes == 4);
  CHECK(globals[1].read_only);

  // Reads and writes go to the addresses the JIT gave.
  double table[5] = {1, 2, 3, 4, 5};
  globals[0].address = table;
  globals[1].address = nullptr;  // not looked up: not found
  auto access = cpu::make_module_globals(globals);
  CHECK(access->backend() == CUHOST_PLUGIN_BACKEND_CPU);
  std::uint64_t address = 0;
  std::size_t bytes = 0;
  bool read_only = true;
  std::string error;
  CHECK(access->find("table", &address, &bytes, &read_only, &error) == CUHOST_PLUGIN_OK);
  CHECK(address == reinterpret_cast<std::uintptr_t>(table));
  CHECK(bytes == 40);
  CHECK_FALSE(read_only);
  CHECK(access->find("limit", &address, &bytes, &read_only, &error) == CUHOST_PLUGIN_NOT_FOUND);
  CHECK(error.find("no global named 'limit' in the module") == 0);
  double seven = 7;
  CHECK(access->copy_in(reinterpret_cast<std::uintptr_t>(&table[3]), &seven, 8, &error) == CUHOST_PLUGIN_OK);
  CHECK(table[3] == 7);
}

TEST_CASE("the ABI context seen by a host library, against a fake backend", "[plugin][host_library]") {
  auto fake = std::make_shared<FakeGlobals>();
  fake->globals["host_probe_table"].bytes.assign(96, 0);
  fake->globals["host_probe_const"].bytes.assign(4, 0);
  fake->globals["host_probe_const"].read_only = true;
  auto state = plugin::set_up_module({kDir + "/host_probe"}, fake, "zk");
  long long r[12];
  std::memcpy(r, fake->globals["host_probe_table"].bytes.data(), sizeof r);
  CHECK(r[0] == CUHOST_PLUGIN_ABI_VERSION);
  CHECK(r[1] == 1);
  CHECK(r[2] == CUHOST_PLUGIN_BACKEND_CUDA);
  CHECK(r[3] == CUHOST_PLUGIN_NOT_FOUND);
  CHECK(r[4] == CUHOST_PLUGIN_OK);
  CHECK(r[5] == 96);
  CHECK(r[6] == CUHOST_PLUGIN_OUT_OF_RANGE);
  CHECK(r[7] == CUHOST_PLUGIN_INVALID);
  CHECK(r[8] == CUHOST_PLUGIN_READ_ONLY);
  CHECK(r[9] == r[10] * 1000 + 'z');
  CHECK(r[11] == 'z');
  CHECK(fake->copies_in == 2);  // the refused writes never reached the backend
  std::vector<unsigned char> zeros(4, 0);
  CHECK(fake->globals["host_probe_const"].bytes == zeros);
  state.reset();  // runs the teardown

  // A setup error names the plugin, the kernel, the entry point, the library, the code and the message.
  try {
    plugin::set_up_module({kDir + "/host_setup_fails"}, fake, "kern");
    FAIL("setup did not fail");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::PluginError);
    CHECK(e.message() ==
          "plugin 'host_setup_fails': host library setup failed for kernel 'kern': "
          "cuhost_plugin_setup() in " +
              kDir +
              "/host_setup_fails/libhost_setup_fails.so returned 7: calibration file "
              "'gains.bin' is missing");
  }
  // A failing plugin after a good one: the good one's setup ran and is torn down.
  int before = fake->copies_in;
  CHECK_THROWS_AS(plugin::set_up_module({kDir + "/host_probe", kDir + "/host_no_setup"}, fake, "k"), UserError);
  CHECK(fake->copies_in == before + 2);

  std::vector<ir::LinkItem> items(3);
  items[0].plugin_dir = "/a";
  items[2].plugin_dir = "/a";
  items[1].plugin_dir = "/b";
  CHECK(plugin::host_plugins_of(items) == std::vector<std::string>{"/a", "/b"});
}

TEST_CASE("cached GPU kernels keep the plugin that sets their module up", "[plugin][host_library]") {
  // A private cache folder for this test, restored afterwards.
  char tmpl[] = "/tmp/cuhost-plugin-cache-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  const char* old = std::getenv("CUHOST_CACHE_DIR");
  std::string saved = old ? old : "";
  setenv("CUHOST_CACHE_DIR", tmpl, 1);
  const char* no_cache = std::getenv("CUHOST_NO_CACHE");
  std::string saved_no_cache = no_cache ? no_cache : "";
  unsetenv("CUHOST_NO_CACHE");
  std::string key = "plugin-host-test";
  runtime::CompiledKernel k;
  k.name = "k";
  k.symbol = "k_entry";
  k.target = runtime::Target::NVPTX;
  k.ptx = "// ptx";
  k.link.resize(2);
  k.link[0].path = kDir + "/host_probe/dev.cu";
  k.link[0].kind = ir::LinkKind::CUSource;
  k.link[0].plugin_dir = kDir + "/host_probe";
  k.link[1].name = "other.ptx";
  k.link[1].data = "// other";
  runtime::store_cached_kernel(key, k);
  model::JitFunction fn;
  fn.name = "k";
  auto back = runtime::load_cached_kernel(key, fn);
  if (old)
    setenv("CUHOST_CACHE_DIR", saved.c_str(), 1);
  else
    unsetenv("CUHOST_CACHE_DIR");
  if (no_cache) setenv("CUHOST_NO_CACHE", saved_no_cache.c_str(), 1);
  REQUIRE(back);
  REQUIRE(back->link.size() == 2);
  CHECK(back->link[0].path == k.link[0].path);
  CHECK(back->link[0].plugin_dir == kDir + "/host_probe");
  CHECK(back->link[1].plugin_dir.empty());
  CHECK(back->link[1].data == "// other");
  CHECK(plugin::host_plugins_of(back->link) == std::vector<std::string>{kDir + "/host_probe"});
}
