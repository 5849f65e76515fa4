// print() in kernels and the lineinfo / max_registers options: the CPU
// runtime's vprintf formatting against the C library on random values, the
// PTX of a printing kernel (vprintf with a packed argument buffer, assembled
// by nvJitLink), `.loc`/`.file` only with lineinfo (or debug), `.maxnreg`
// only with max_registers, and the disk-cache key following both options.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <regex>
#include <set>

#include "codegen_support.h"
#include "cpu/print_output.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_lookup.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kPrint =
    "from numba import cuda\n"
    "import numpy as np\n"
    "@cuda.jit(device=True)\n"
    "def show(v):\n"
    "    print('dev', v)\n"
    "    return v\n"
    "@cuda.jit\n"
    "def k(a, f):\n"
    "    i = cuda.grid(1)\n"
    "    if i < a.size:\n"
    "        print('item', i, a[i], f[i], a[i] > 0, np.uint32(i))\n"
    "        f[i] = show(f[i]) * 2.0\n";

const std::vector<std::string> kArgs = {"array(int32, 1d, C)", "array(float32, 1d, C)"};

std::shared_ptr<const runtime::CompiledKernel> gpu(model::JitOptions o = {}) {
  o.cache = false;
  return compile_source(kPrint, "k", kArgs, runtime::Target::NVPTX, o);
}

// The line numbers of the `.loc` directives of a PTX text.
std::set<int> loc_lines(const std::string& ptx) {
  std::set<int> out;
  std::regex re(R"(\.loc\s+\d+\s+(\d+)\s+\d+)");
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), re); it != std::sregex_iterator(); ++it)
    out.insert(std::stoi((*it)[1]));
  return out;
}

template <typename T>
void put(std::vector<unsigned char>& buf, T v) {
  std::size_t at = (buf.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  buf.resize(at + sizeof(T));
  std::memcpy(buf.data() + at, &v, sizeof(T));
}

}  // namespace

TEST_CASE("print: the CPU vprintf formats like printf on random values", "[print]") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> real(-1e9, 1e9);
  for (int round = 0; round < 200; ++round) {
    long long a = static_cast<long long>(rng());
    unsigned long long b = rng();
    double c = real(rng);
    double d = std::ldexp(real(rng), -40);
    const char* s = round % 2 ? "True" : "False";
    int e = static_cast<int>(rng());
    std::vector<unsigned char> buf;
    put(buf, a);
    put(buf, b);
    put(buf, c);
    put(buf, s);
    put(buf, e);  // 4 bytes, then an 8-byte value realigned after it
    put(buf, d);
    const char* fmt = "x %lld %llu %f %s %d %f 100%% done\n";
    char expect[512];
    std::snprintf(expect, sizeof expect, fmt, a, b, c, s, e, d);
    REQUIRE(cpu::format_vprintf(fmt, buf.data()) == expect);
  }
  CHECK(cpu::format_vprintf("\n", nullptr) == "\n");
  // More than 32 items: numba prints the raw format (percent signs doubled).
  CHECK(cpu::format_vprintf("%%lld %%f\n", nullptr) == "%lld %f\n");
}

TEST_CASE("print: PTX calls vprintf with a packed buffer and assembles", "[print]") {
  auto k = gpu();
  const std::string& ptx = k->ptx;
  INFO(ptx);
  CHECK(ptx.find(".extern .func (.param .b32 func_retval0) vprintf") != std::string::npos);
  CHECK(ptx.find("call.uni") != std::string::npos);
  // The format strings: %lld for signed, %llu for unsigned, %f for floats, %s for strings and booleans.
  CHECK(k->llvm_ir.find("c\"%s %lld %lld %f %s %llu\\0A\\00\"") != std::string::npos);
  CHECK(k->llvm_ir.find("c\"%s %f\\0A\\00\"") != std::string::npos);
  CHECK(k->llvm_ir.find("c\"True\\00\"") != std::string::npos);
  CHECK(loc_lines(ptx).empty());
  CHECK(ptx.find(".maxnreg") == std::string::npos);
  assemble(ptx, "print_kernel");
}

TEST_CASE("print: lineinfo and debug emit .file/.loc with the kernel's lines", "[print]") {
  model::JitOptions o;
  o.lineinfo = true;
  auto k = gpu(o);
  INFO(k->ptx);
  CHECK(std::regex_search(k->ptx, std::regex(R"(\.file\s+\d+\s+"/tmp/cuhost_sema_test_[0-9_]+\.py")")));
  std::set<int> lines = loc_lines(k->ptx);
  CHECK(lines.count(11));                                      // the print in the kernel
  CHECK(lines.count(5));                                       // the print in the inlined device function
  for (int l : lines) CHECK((l == 0 || (l >= 3 && l <= 12)));  // 0: merged from several lines
  CHECK(k->ptx.find(".debug_info") == std::string::npos);      // directives only, no DWARF
  assemble(k->ptx, "print_lineinfo");
  model::JitOptions d;
  d.debug = true;
  auto kd = gpu(d);
  CHECK(loc_lines(kd->ptx).count(11));
  assemble(kd->ptx, "print_debug");
  // The CPU backend ignores line information.
  auto cpu = compile_source(kPrint, "k", kArgs, runtime::Target::CPU, o);
  CHECK(cpu->llvm_ir.find("!DILocation") == std::string::npos);
  CHECK(cpu->cpu_thread_fn != nullptr);
}

TEST_CASE("print: golden IR and PTX of a printing kernel with lineinfo and max_registers", "[print]") {
  model::JitOptions o;
  o.lineinfo = true;
  o.max_registers = 40;
  auto k = gpu(o);
  std::string ir_out = file_check(k->llvm_ir, "print.check", "IR");
  INFO(ir_out << "\n" << k->llvm_ir);
  CHECK(ir_out.empty());
  std::string ptx_out = file_check(k->ptx, "print.check", "PTX");
  INFO(ptx_out << "\n" << k->ptx);
  CHECK(ptx_out.empty());
}

TEST_CASE("print: max_registers becomes .maxnreg", "[print]") {
  model::JitOptions o;
  o.max_registers = 32;
  auto k = gpu(o);
  INFO(k->ptx);
  CHECK(std::regex_search(k->ptx, std::regex(R"(\.maxnreg\s+32\b)")));
  assemble(k->ptx, "print_maxnreg");
  o.max_registers = 1000;  // beyond PTX's 255: no tighter limit than the hardware's
  CHECK(std::regex_search(gpu(o)->ptx, std::regex(R"(\.maxnreg\s+255\b)")));
}

TEST_CASE("print: the disk cache key follows lineinfo and max_registers", "[print]") {
  runtime::TargetOptions t;
  t.target = runtime::Target::NVPTX;
  auto key = [&](model::JitOptions o) {
    auto fn = jit_from_source(kPrint, "k", o);
    auto k = runtime::kernel_cache_key(*fn, types_of(kArgs), t);
    REQUIRE(k.has_value());
    return *k;
  };
  model::JitOptions plain, line, regs;
  line.lineinfo = true;
  regs.max_registers = 64;
  CHECK(key(plain) != key(line));
  CHECK(key(plain) != key(regs));
  CHECK(key(plain) == key(plain));

  // A kernel cached without lineinfo is not what a lineinfo compile gets.
  char dir[] = "/tmp/cuhost-print-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  setenv("CUHOST_CACHE_DIR", dir, 1);
  auto disk_hits = [] { return runtime::lookup_counts()[std::size_t(runtime::CacheLayer::Disk)]; };
  auto first = compile_source(kPrint, "k", kArgs, runtime::Target::NVPTX);
  long hits = disk_hits();
  auto again = compile_source(kPrint, "k", kArgs, runtime::Target::NVPTX);
  CHECK(disk_hits() == hits + 1);  // the cache works for an identical compile
  auto with_lines = compile_source(kPrint, "k", kArgs, runtime::Target::NVPTX, line);
  CHECK(disk_hits() == hits + 1);  // compiled, not loaded
  CHECK(!loc_lines(with_lines->ptx).empty());
  CHECK(loc_lines(first->ptx).empty());
  unsetenv("CUHOST_CACHE_DIR");
}
