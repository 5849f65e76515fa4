// Unit tests of plugin manifests and discovery: a valid manifest is read
// completely; each kind of mistake is refused with a message naming the
// plugin, the file and the field; conflicts between plugins refuse the later
// one and keep the first.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "plugin/manifest.h"
#include "plugin/registry.h"
#include "runtime/session.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

std::string make_dir() {
  char tmpl[] = "/tmp/cuhost-plugin-test-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  return tmpl;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

const char* kGood = R"TOML(
[plugin]
name = "demo"
version = "2.1"
format = 1
description = "demo functions"

[build]
link = ["demo.cu"]
include_dirs = ["inc"]

[[functions]]
name = "twice"
symbol = "demo_twice"
signature = "float32(float32)"
abi = "c"
doc = "2x"

[[functions]]
name = "scaled"
signature = "float64(float64, int32)"
abi = "numba"
)TOML";

std::string plugin_dir_with(const std::string& manifest) {
  std::string d = make_dir();
  write(d + "/demo.cu", "extern \"C\" __device__ float demo_twice(float x) { return 2 * x; }\n");
  mkdir((d + "/inc").c_str(), 0755);
  write(d + "/plugin.toml", manifest);
  return d;
}

std::string error_for(const std::string& manifest) {
  std::string d = plugin_dir_with(manifest);
  try {
    plugin::load_manifest(d);
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::PluginError);
    std::string m = e.what();
    // Every message names the manifest file.
    CHECK(m.find(d + "/plugin.toml") != std::string::npos);
    return m.substr(m.find(d + "/plugin.toml") + d.size() + 12);
  }
  return "no error";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("a valid manifest is read completely", "[plugin]") {
  std::string d = plugin_dir_with(kGood);
  plugin::Manifest m = plugin::load_manifest(d);
  CHECK(m.name == "demo");
  CHECK(m.version == "2.1");
  CHECK(m.description == "demo functions");
  REQUIRE(m.functions.size() == 2);
  CHECK(m.functions[0].symbol == "demo_twice");
  CHECK(m.functions[0].abi == ir::Abi::C);
  CHECK(m.functions[1].symbol == "scaled");  // defaults to the name
  CHECK(m.functions[1].abi == ir::Abi::Numba);
  CHECK(m.link == std::vector<std::string>{d + "/demo.cu"});
  CHECK(m.include_dirs == std::vector<std::string>{d + "/inc"});
}

TEST_CASE("bad manifests name the plugin, the file and the field", "[plugin]") {
  CHECK(error_for("[plugin\nname=1").find(":1:") != std::string::npos);
  CHECK(error_for("[plugin\nname=1").find("invalid TOML") != std::string::npos);
  CHECK(error_for(replace(kGood, "name = \"demo\"\n", "")) == "): field 'plugin.name': missing (a string is required)");
  CHECK(error_for(replace(kGood, "version = \"2.1\"", "version = 2")) == "): field 'plugin.version': must be a string");
  CHECK(error_for(replace(kGood, "format = 1", "format = 7")) ==
        "): field 'plugin.format': format 7 is not supported (this cuhost reads format 1)");
  CHECK(error_for(replace(kGood, "format = 1\n", "")) ==
        "): field 'plugin.format': missing (the plugin format version; this cuhost reads 1)");
  CHECK(error_for(replace(kGood, "abi = \"c\"", "abi = \"fortran\"")) ==
        "): field 'functions[0].abi': unknown ABI 'fortran' (expected 'c' or 'numba')");
  CHECK(error_for(replace(kGood, "\"float32(float32)\"", "\"floaat32(float32)\""))
            .find("): field 'functions[0].signature': invalid signature 'floaat32(float32)': name 'floaat32' is not "
                  "defined") == 0);
  CHECK(error_for(replace(kGood, "\"float32(float32)\"", "\"(float32)\"")).find("field 'functions[0].signature'") !=
        std::string::npos);
  CHECK(error_for(replace(kGood, "[\"demo.cu\"]", "[\"missing.cu\"]"))
            .find("): field 'build.link[0]': file not found: 'missing.cu'") == 0);
  CHECK(error_for(replace(kGood, "[\"inc\"]", "[\"demo.cu\"]")) ==
        "): field 'build.include_dirs[0]': 'demo.cu' is not a folder");
  CHECK(error_for(replace(kGood, "doc = \"2x\"", "docs = \"2x\"")) == "): field 'functions[0].docs': unknown key");
  CHECK(error_for(replace(kGood, "name = \"scaled\"", "name = \"twice\"")) ==
        "): field 'functions[1].name': 'twice' is declared twice");
  CHECK(error_for(replace(kGood, "name = \"demo\"", "name = \"my-plugin\"")) ==
        "): field 'plugin.name': 'my-plugin' is not a Python identifier");
  CHECK(error_for("[plugin]\nname = \"x\"\nversion = \"1\"\nformat = 1\n") ==
        "): field 'functions': missing (declare at least one [[functions]] entry)");
  // Messages start with the plugin's name once it is known.
  std::string d = plugin_dir_with(replace(kGood, "abi = \"c\"", "abi = \"x\""));
  try {
    plugin::load_manifest(d);
  } catch (const UserError& e) {
    CHECK(std::string(e.what()).rfind("plugin 'demo' (", 0) == 0);
  }
}

TEST_CASE("discovery loads the search path and refuses conflicts, keeping the others", "[plugin]") {
  std::string root = make_dir();
  auto add = [&](const std::string& folder, const std::string& manifest) {
    mkdir((root + "/" + folder).c_str(), 0755);
    write(root + "/" + folder + "/demo.cu", "// empty\n");
    mkdir((root + "/" + folder + "/inc").c_str(), 0755);
    write(root + "/" + folder + "/plugin.toml", manifest);
  };
  add("a_demo", kGood);
  add("b_same_name", kGood);
  add("c_same_symbol", replace(kGood, "name = \"demo\"", "name = \"other\""));
  add("d_broken", "[plugin]\nname = \"broken\"\n");
  add("e_fine", replace(replace(kGood, "name = \"demo\"", "name = \"fine\""), "symbol = \"demo_twice\"",
                        "symbol = \"fine_twice\""));
  // "scaled" (symbol defaults to the name) would clash too: give e_fine its own.
  write(root + "/e_fine/plugin.toml", replace(replace(replace(kGood, "name = \"demo\"", "name = \"fine\""),
                                                      "symbol = \"demo_twice\"", "symbol = \"fine_twice\""),
                                              "name = \"scaled\"", "name = \"scaled\"\nsymbol = \"fine_scaled\""));
  plugin::set_configured_folders({root});
  auto records = plugin::scan();
  plugin::set_configured_folders({});
  REQUIRE(records.size() >= 5);
  CHECK(records[0].name == "demo");
  CHECK(records[0].loaded);
  CHECK_FALSE(records[1].loaded);
  CHECK(records[1].reason.find("the name is already taken by the plugin in " + root + "/a_demo") != std::string::npos);
  CHECK_FALSE(records[2].loaded);
  CHECK(records[2].reason.find("symbol 'demo_twice' is already defined by plugin 'demo'") != std::string::npos);
  CHECK_FALSE(records[3].loaded);
  CHECK(records[3].reason.find("field 'plugin.version'") != std::string::npos);
  CHECK(records[4].loaded);
  CHECK(records[4].name == "fine");
}

TEST_CASE("in-memory plugins are validated at registration", "[plugin]") {
  CHECK_THROWS_AS(plugin::register_in_memory("[plugin]\nname=\"x\"", {}, "embedded"), UserError);
  plugin::register_in_memory(
      replace(replace(kGood, "name = \"demo\"", "name = \"embedded_demo\""), "include_dirs = [\"inc\"]\n", ""),
      {{"demo.cu", "extern \"C\" __device__ float demo_twice(float x) { return x; }"}}, "embedded");
  bool found = false;
  for (const auto& r : plugin::scan())
    if (r.name == "embedded_demo") found = r.loaded;
  CHECK(found);
}
