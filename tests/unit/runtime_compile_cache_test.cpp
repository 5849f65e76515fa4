// Unit tests of the on-disk kernel cache: a second compile of the same
// source in a fresh function object comes from the cache with the same PTX;
// changing the source, a frozen global, a callee, the argument types or the
// target changes the key; cache=False and CUHOST_NO_CACHE turn it off.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "codegen_support.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_lookup.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

runtime::TargetOptions nvptx() {
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  return t;
}

std::string key_of(const std::string& source, const std::vector<std::string>& args,
                   runtime::TargetOptions t = nvptx()) {
  auto fn = jit_from_source(source, "k");
  auto key = runtime::kernel_cache_key(*fn, types_of(args), t);
  return key ? *key : "none";
}

const char* kSource =
    "from numba import cuda\n"
    "SCALE = 3.0\n"
    "@cuda.jit(device=True)\n"
    "def helper(v):\n"
    "    return v * SCALE\n"
    "@cuda.jit\n"
    "def k(x, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < out.size:\n"
    "        out[i] = helper(x[i])\n";

std::string replace(std::string s, const std::string& a, const std::string& b) {
  return s.replace(s.find(a), a.size(), b);
}

}  // namespace

TEST_CASE("a recompiled kernel comes from the disk cache with the same PTX", "[cache]") {
  char dir[] = "/tmp/cuhost-kernel-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  setenv("CUHOST_CACHE_DIR", dir, 1);
  std::vector<std::string> args = {"array(float32, 1d, C)", "array(float32, 1d, C)"};
  auto disk_hits = [] { return runtime::lookup_counts()[std::size_t(runtime::CacheLayer::Disk)]; };
  auto first = compile_source(kSource, "k", args, runtime::Target::NVPTX);
  REQUIRE(first->typed != nullptr);
  long hits = disk_hits();
  auto second = compile_source(kSource, "k", args, runtime::Target::NVPTX);  // a new JitFunction: not memoized
  CHECK(disk_hits() == hits + 1);                                            // came from the cache
  // It calls a jitted function (`helper`), so it was typed again for the
  // callee's records: its typing is the first compile's.
  REQUIRE(second->typed != nullptr);
  CHECK(second->typed->locals.size() == first->typed->locals.size());
  CHECK(second->ptx == first->ptx);
  CHECK(second->llvm_ir == first->llvm_ir);
  CHECK(second->symbol == first->symbol);
  CHECK(second->static_shared_bytes == first->static_shared_bytes);
  unsetenv("CUHOST_CACHE_DIR");
}

TEST_CASE("the cache key follows everything the kernel depends on", "[cache]") {
  std::vector<std::string> args = {"array(float32, 1d, C)", "array(float32, 1d, C)"};
  std::string base = key_of(kSource, args);
  REQUIRE(base != "none");
  CHECK(key_of(kSource, args) == base);                                                     // deterministic
  CHECK(key_of(replace(kSource, "SCALE = 3.0", "SCALE = 4.0"), args) != base);              // a frozen global
  CHECK(key_of(replace(kSource, "v * SCALE", "v * SCALE + 1"), args) != base);              // a callee's source
  CHECK(key_of(replace(kSource, "out[i] = helper", "out[i] = 2 * helper"), args) != base);  // the kernel
  CHECK(key_of(kSource, {"array(float64, 1d, C)", "array(float32, 1d, C)"}) != base);       // argument types
  runtime::TargetOptions t = nvptx();
  t.cc_major = 8;
  CHECK(key_of(kSource, args, t) != base);  // target
  runtime::TargetOptions cpu;
  CHECK(key_of(kSource, args, cpu) == "none");  // CPU kernels are not cached on disk
  setenv("CUHOST_NO_CACHE", "1", 1);
  CHECK(key_of(kSource, args) == "none");
  unsetenv("CUHOST_NO_CACHE");
  auto fn = jit_from_source(kSource, "k");
  fn->options.cache = false;
  CHECK_FALSE(runtime::kernel_cache_key(*fn, types_of(args), nvptx()).has_value());
}
