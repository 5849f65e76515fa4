// Unit tests of the one cache path in front of the pipeline
// (runtime/compile_lookup.h): which layer serves a kernel (memory, the
// cache=True files, the content-keyed disk cache, or a compile), that the
// cache=True files and the disk cache hold the very same entry, and that a
// damaged or foreign cache=True entry is refused and replaced.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen_support.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_lookup.h"

using namespace cuhost;
using namespace cuhost::testing;
using runtime::CacheLayer;

namespace {

// cache=True files held in memory: what the lookup loads and saves.
struct FilesInMemory final : runtime::EntryView {
  std::optional<Entry> entry;
  int saves = 0;
  std::optional<Entry> load() override { return entry; }
  void save(const Entry& e) override {
    entry = e;
    ++saves;
  }
};

const char* kSource =
    "from numba import cuda\n"
    "@cuda.jit\n"
    "def k(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = x[i] * 3 + 1\n";

runtime::TargetOptions target_of(runtime::Target t) {
  runtime::TargetOptions o;
  o.target = t;
  return o;
}

// A new function object of kSource: nothing of it is in memory.
std::shared_ptr<model::JitFunction> fresh() { return jit_from_source(kSource, "k"); }

// The disk cache's file for `key` under `dir`, or "" when there is none.
std::string disk_entry_path(const std::string& dir, const std::string& key) {
  for (const auto& f : std::filesystem::recursive_directory_iterator(dir))
    if (f.path().filename() == key + ".bin") return f.path().string();
  return "";
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CacheDir {
  char path[64] = "/tmp/cuhost-lookup-XXXXXX";
  CacheDir() {
    REQUIRE(mkdtemp(path));
    setenv("CUHOST_CACHE_DIR", path, 1);
  }
  ~CacheDir() {
    unsetenv("CUHOST_CACHE_DIR");
    std::filesystem::remove_all(path);
  }
};

}  // namespace

TEST_CASE("the lookup serves from memory, the cache=True files, the disk cache, else compiles", "[cache]") {
  CacheDir dir;
  const auto nvptx = target_of(runtime::Target::NVPTX);
  const auto types = types_of({"array(float32, 1d, C)", "array(float32, 1d, C)"});
  const runtime::LayerCounts before = runtime::lookup_counts();

  // A first compile fills every layer that missed, with one entry for both disk layers.
  auto fn = fresh();
  FilesInMemory files;
  runtime::LookupResult first = runtime::lookup_kernel(fn, types, nvptx, &files);
  CHECK(first.layer == CacheLayer::Compiled);
  REQUIRE(files.entry.has_value());
  CHECK(files.entry->key == runtime::kernel_cache_key(*fn, types, nvptx).value());
  std::string on_disk = disk_entry_path(dir.path, files.entry->key);
  REQUIRE_FALSE(on_disk.empty());
  CHECK(read_all(on_disk) == files.entry->bytes);  // the very same entry

  // The same function object again: memory, nothing written.
  runtime::LookupResult again = runtime::lookup_kernel(fn, types, nvptx, &files);
  CHECK(again.layer == CacheLayer::Memory);
  CHECK(again.kernel == first.kernel);
  CHECK(files.saves == 1);

  // A new function object (another process) whose cache=True files hold it.
  runtime::LookupResult from_files = runtime::lookup_kernel(fresh(), types, nvptx, &files);
  CHECK(from_files.layer == CacheLayer::CacheFiles);
  CHECK(from_files.kernel->ptx == first.kernel->ptx);
  CHECK(files.saves == 1);

  // Files without it: the disk cache serves, and the files get the same entry.
  FilesInMemory empty;
  runtime::LookupResult from_disk = runtime::lookup_kernel(fresh(), types, nvptx, &empty);
  CHECK(from_disk.layer == CacheLayer::Disk);
  CHECK(from_disk.kernel->ptx == first.kernel->ptx);
  REQUIRE(empty.entry.has_value());
  CHECK(empty.entry->key == files.entry->key);
  CHECK(empty.entry->bytes == files.entry->bytes);

  // Without the disk entry, the files still serve; without both, it compiles.
  std::filesystem::remove(on_disk);
  CHECK(runtime::lookup_kernel(fresh(), types, nvptx, &files).layer == CacheLayer::CacheFiles);
  FilesInMemory none;
  CHECK(runtime::lookup_kernel(fresh(), types, nvptx, &none).layer == CacheLayer::Compiled);

  const runtime::LayerCounts after = runtime::lookup_counts();
  CHECK(after[std::size_t(CacheLayer::Memory)] - before[std::size_t(CacheLayer::Memory)] == 1);
  CHECK(after[std::size_t(CacheLayer::CacheFiles)] - before[std::size_t(CacheLayer::CacheFiles)] == 2);
  CHECK(after[std::size_t(CacheLayer::Disk)] - before[std::size_t(CacheLayer::Disk)] == 1);
  CHECK(after[std::size_t(CacheLayer::Compiled)] - before[std::size_t(CacheLayer::Compiled)] == 2);
}

TEST_CASE("a damaged or foreign cache=True entry is refused, compiled again and replaced", "[cache]") {
  CacheDir dir;
  const auto cpu = target_of(runtime::Target::CPU);  // no disk layer: only the files can serve
  const auto ints = types_of({"array(int64, 1d, C)", "array(int64, 1d, C)"});
  const auto floats = types_of({"array(float64, 1d, C)", "array(float64, 1d, C)"});

  FilesInMemory files;
  REQUIRE(runtime::lookup_kernel(fresh(), ints, cpu, &files).layer == CacheLayer::Compiled);
  REQUIRE(files.entry.has_value());
  const runtime::EntryView::Entry good = *files.entry;
  CHECK(runtime::lookup_kernel(fresh(), ints, cpu, &files).layer == CacheLayer::CacheFiles);

  // A flipped byte: refused, compiled, and the good entry saved again.
  files.entry->bytes[files.entry->bytes.size() / 2] ^= 0x20;
  CHECK(runtime::lookup_kernel(fresh(), ints, cpu, &files).layer == CacheLayer::Compiled);
  CHECK(files.entry->bytes == good.bytes);

  // The float64 specialization's entry where the int64 one's is kept: framed
  // for another kernel, never run on int64 data.
  FilesInMemory float_files;
  REQUIRE(runtime::lookup_kernel(fresh(), floats, cpu, &float_files).layer == CacheLayer::Compiled);
  files.entry->bytes = float_files.entry->bytes;
  CHECK(runtime::lookup_kernel(fresh(), ints, cpu, &files).layer == CacheLayer::Compiled);
  CHECK(files.entry->bytes == good.bytes);
  CHECK(runtime::lookup_kernel(fresh(), ints, cpu, &files).layer == CacheLayer::CacheFiles);
}
