// Unit tests of the one cache path in front of the pipeline
// (runtime/compile_lookup.h): which layer serves a kernel (memory, the
// cache=True files, the content-keyed disk cache, or a compile), that the
// cache=True files and the disk cache hold the very same entry, and that a
// damaged or foreign cache=True entry is refused and replaced; compile*()'s
// text and host njit functions on the same path, with a key that tells
// every option that changes the code apart.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "codegen_support.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_lookup.h"
#include "runtime/product_serialize.h"

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

namespace {

const char* kLoopSource =
    "from numba import cuda\n"
    "def k(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    acc = 0.0\n"
    "    for j in range(x.size):\n"
    "        acc += x[j] * 3.5\n"
    "    if i < out.size:\n"
    "        out[i] = acc + x[i]\n";

std::string text_entry_path(const std::string& dir, const std::shared_ptr<model::JitFunction>& fn,
                            const std::vector<const ir::Type*>& types, const runtime::TargetOptions& target,
                            const std::string& product) {
  return disk_entry_path(dir, runtime::product_cache_key(*fn, types, target, product).value());
}

}  // namespace

TEST_CASE("compile*(): memory and disk by content, and every option that changes the code changes the entry",
          "[cache]") {
  CacheDir dir;
  const auto types = types_of({"array(float32, 1d, C)", "array(float32, 1d, C)"});
  const auto nvptx = target_of(runtime::Target::NVPTX);
  auto make = [](const model::JitOptions& o) { return jit_from_source(kLoopSource, "k", o); };
  model::JitOptions base;

  auto fn = make(base);
  runtime::TextLookup first = runtime::lookup_text(fn, types, false, nvptx, "ptx");
  CHECK(first.layer == CacheLayer::Compiled);
  CHECK(first.text->text.find(".entry") != std::string::npos);
  // The disk holds the very text: a second process reads it back.
  std::string path = text_entry_path(dir.path, fn, types, nvptx, "compile|kernel|ptx");
  REQUIRE_FALSE(path.empty());
  std::string why;
  std::optional<std::string> payload = runtime::payload_of_entry(
      read_all(path), runtime::product_cache_key(*fn, types, nvptx, "compile|kernel|ptx").value(), why);
  REQUIRE(payload);
  std::optional<runtime::CompiledText> back = runtime::deserialize_text(*payload);
  REQUIRE(back);
  CHECK(back->text == first.text->text);
  CHECK(back->return_type == first.text->return_type);

  // Every call brings a new function object: the same request is served from memory.
  runtime::TextLookup again = runtime::lookup_text(make(base), types, false, nvptx, "ptx");
  CHECK(again.layer == CacheLayer::Memory);
  CHECK(again.text == first.text);

  // Each option that changes the code: never the base entry, and another text.
  struct Variant {
    const char* name;
    model::JitOptions options;
    runtime::TargetOptions target;
    bool device = false;
  };
  std::vector<Variant> variants;
  auto with = [&](const char* name, auto change) {
    Variant v{name, base, nvptx};
    change(v);
    variants.push_back(v);
  };
  with("lineinfo", [](Variant& v) { v.options.lineinfo = true; });
  with("debug", [](Variant& v) { v.options.debug = true; });
  with("fastmath", [](Variant& v) { v.options.fastmath = true; });
  with("opt=0", [](Variant& v) { v.options.opt = 0; });
  with("launch_bounds", [](Variant& v) { v.options.launch_bounds[0] = 128; });
  with("cc=(8, 0)", [](Variant& v) {
    v.target.cc_major = 8;
    v.target.cc_minor = 0;
  });
  with("device", [](Variant& v) {
    v.device = true;
    v.options.device = true;
  });
  with("abi='c'", [](Variant& v) {
    v.device = true;
    v.options.device = true;
    v.options.abi = ir::Abi::C;
    v.options.abi_name = "k_c";
  });
  std::set<std::string> texts = {first.text->text};
  for (const Variant& v : variants) {
    INFO(v.name);
    runtime::TextLookup r = runtime::lookup_text(make(v.options), types, v.device, v.target, "ptx");
    CHECK(r.layer == CacheLayer::Compiled);
    CHECK(texts.insert(r.text->text).second);  // a text no other request got
  }
  {
    // Cancellation points in loops (the variant a launch under a deadline
    // runs) are part of the entry too.
    runtime::TargetOptions cancellable = nvptx;
    cancellable.cancellation_points = true;
    runtime::TextLookup r = runtime::lookup_text(make(base), types, false, cancellable, "ptx");
    CHECK(r.layer == CacheLayer::Compiled);
    CHECK(r.text->text.find("cuhost_gpu_cancel_flag") != std::string::npos);
    CHECK(texts.insert(r.text->text).second);
  }
  // The first request is still its own entry.
  CHECK(runtime::lookup_text(make(base), types, false, nvptx, "ptx").text == first.text);
  // Refusals are not entries: asked again, refused again.
  for (int i = 0; i < 2; ++i)
    CHECK_THROWS_AS(runtime::lookup_text(make(base), types, false, nvptx, "ltoir"), UserError);
}

TEST_CASE("host njit: memory per function object, and a cache=True specialization loaded from its files", "[cache]") {
  const char* src =
      "def f(a, x):\n"
      "    s = 0.0\n"
      "    for i in range(a.shape[0]):\n"
      "        s += a[i] * x + i\n"
      "    return s\n";
  const auto types = types_of({"array(float64, 1d, C)", "float64"});
  auto call = [](const runtime::CompiledHostFunction& f, std::vector<double> data, double x) {
    std::uint64_t args[4] = {reinterpret_cast<std::uint64_t>(data.data()), data.size(), sizeof(double), 0};
    std::memcpy(&args[3], &x, sizeof x);
    std::uint64_t result[1] = {};
    REQUIRE(f.entry(args, result) == 0);
    double out;
    std::memcpy(&out, result, sizeof out);
    return out;
  };
  const std::vector<double> data = {0.25, -1.5, 3.75, 8.0, -2.125};
  double expected = 0;
  for (std::size_t i = 0; i < data.size(); ++i) expected += data[i] * 1.75 + double(i);

  auto fn = jit_from_source(src, "f");
  FilesInMemory files;
  runtime::HostLookup first = runtime::lookup_host_function(fn, types, nullptr, {}, &files);
  CHECK(first.layer == CacheLayer::Compiled);
  CHECK(call(*first.function, data, 1.75) == expected);
  REQUIRE(files.entry.has_value());
  CHECK(files.entry->key.find(runtime::host_identity(nullptr, true, false)) != std::string::npos);
  CHECK(runtime::lookup_host_function(fn, types, nullptr, {}, &files).layer == CacheLayer::Memory);
  CHECK(files.saves == 1);

  // A new function object (another process): loaded from the files, not typed or lowered again.
  runtime::HostLookup loaded = runtime::lookup_host_function(jit_from_source(src, "f"), types, nullptr, {}, &files);
  CHECK(loaded.layer == CacheLayer::CacheFiles);
  CHECK(loaded.function != first.function);
  CHECK(loaded.function->typed == nullptr);
  CHECK(loaded.function->arg_types == types);
  CHECK(loaded.function->return_type == first.function->return_type);
  CHECK(call(*loaded.function, data, 1.75) == expected);
  CHECK(files.saves == 1);

  // Options that change host code have their own identity (the files' index keys entries by it).
  std::set<std::string> identities = {
      runtime::host_identity(nullptr, true, false), runtime::host_identity(nullptr, true, true),
      runtime::host_identity(nullptr, false, false), runtime::host_identity(ir::float64(), true, false)};
  CHECK(identities.size() == 4);

  // Without files (no cache=True) every new function object compiles, as numba's njit.
  CHECK(runtime::lookup_host_function(jit_from_source(src, "f"), types, nullptr, {}).layer == CacheLayer::Compiled);

  // A damaged entry, or another kind of entry, is refused, compiled and saved again.
  const runtime::EntryView::Entry good = *files.entry;
  files.entry->bytes[files.entry->bytes.size() / 2] ^= 0x20;
  runtime::HostLookup recompiled = runtime::lookup_host_function(jit_from_source(src, "f"), types, nullptr, {}, &files);
  CHECK(recompiled.layer == CacheLayer::Compiled);
  CHECK(call(*recompiled.function, data, 1.75) == expected);
  CHECK(files.entry->bytes == good.bytes);
  files.entry->bytes = runtime::frame_entry(good.key, "cuhost-compiled-text-1\nfloat64\nnot code");
  CHECK(runtime::lookup_host_function(jit_from_source(src, "f"), types, nullptr, {}, &files).layer ==
        CacheLayer::Compiled);
  CHECK(runtime::lookup_host_function(jit_from_source(src, "f"), types, nullptr, {}, &files).layer ==
        CacheLayer::CacheFiles);
}
