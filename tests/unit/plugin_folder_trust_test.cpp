// Plugin folders someone else could write are not loaded: a plugin folder on
// the search path that its group or all users may write is refused, with the
// reason in its record and one warning; in-memory plugins are written to a
// private folder (mode 0700, files 0600) under the cache folder instead of a
// predictable name in /tmp.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "plugin/registry.h"
#include "runtime/session.h"

using namespace cuhost;

namespace {

const char* kManifest = R"TOML(
[plugin]
name = "NAME"
version = "1.0"
format = 1

[build]
link = ["f.cu"]

[[functions]]
name = "f"
symbol = "NAME_f"
signature = "float32(float32)"
abi = "c"
)TOML";

std::string manifest(const std::string& name) {
  std::string m = kManifest;
  for (std::size_t pos; (pos = m.find("NAME")) != std::string::npos;) m.replace(pos, 4, name);
  return m;
}

std::vector<plugin::PluginRecord> scan_with(const std::string& root) {
  plugin::set_configured_folders({root});
  auto records = plugin::scan();
  plugin::set_configured_folders({});
  return records;
}

}  // namespace

TEST_CASE("a plugin folder others may write is not loaded", "[plugin]") {
  char tmpl[] = "/tmp/cuhost-plugin-trust-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  const std::string root = tmpl;
  for (const char* name : {"open_one", "private_one"}) {
    const std::string dir = root + "/" + name;
    REQUIRE(mkdir(dir.c_str(), 0755) == 0);
    std::ofstream(dir + "/f.cu") << "extern \"C\" __device__ float " << name << "_f(float x) { return x; }\n";
    std::ofstream(dir + "/plugin.toml") << manifest(name);
  }
  REQUIRE(chmod((root + "/open_one").c_str(), 0777) == 0);
  auto records = scan_with(root);
  bool open_seen = false, private_seen = false;
  for (const auto& r : records) {
    if (r.directory == root + "/open_one") {
      open_seen = true;
      CHECK_FALSE(r.loaded);
      CHECK(r.reason == "plugin folder " + root +
                            "/open_one is not trusted: it is writable by its group and all users (mode 0777)");
    }
    if (r.directory == root + "/private_one") {
      private_seen = true;
      CHECK(r.loaded);
    }
  }
  CHECK(open_seen);
  CHECK(private_seen);
  int rc = std::system(("rm -rf '" + root + "'").c_str());
  (void)rc;
}

TEST_CASE("in-memory plugins are written to a private folder of the cache", "[plugin]") {
  char tmpl[] = "/tmp/cuhost-plugin-cache-XXXXXX";
  REQUIRE(mkdtemp(tmpl));
  const std::string cache = tmpl;
  setenv("CUHOST_CACHE_DIR", cache.c_str(), 1);
  plugin::register_in_memory(manifest("private_mem"),
                             {{"f.cu",
                               "extern \"C\" __device__ float private_mem_f(float x) "
                               "{ return x; }\n"}},
                             "plugin_folder_trust_test");
  unsetenv("CUHOST_CACHE_DIR");
  std::string dir;
  for (const auto& r : plugin::scan())
    if (r.name == "private_mem") {
      CHECK(r.loaded);
      dir = r.directory;
    }
  REQUIRE(dir.rfind(cache + "/plugins/", 0) == 0);
  struct stat st {};
  REQUIRE(stat(dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(stat((dir + "/plugin.toml").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  int rc = std::system(("rm -rf '" + cache + "'").c_str());
  (void)rc;
}
